#include "app/sim/py_value.h"

#include "app/protocol/python_repr.h"
#include "metrics/python_text.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cmath>
#include <limits>

namespace lbm::sim {

// json.loads' grammar (strict mode) with Python's extensions; nesting is bounded so a hostile
// text cannot exhaust the stack (Python raises RecursionError there, also a refusal).
class PyJsonParser {
public:
    explicit PyJsonParser(QStringView text)
        : m_text(text) {}

    std::optional<PyValue> parseDocument() {
        skipSpace();
        auto value = parseValue(0);
        skipSpace();
        if (!value || m_pos != m_text.size()) {
            return std::nullopt;
        }
        return value;
    }

private:
    static constexpr int kMaxDepth = 900;

    QChar peek() const { return m_pos < m_text.size() ? m_text[m_pos] : QChar(); }
    bool consume(QStringView word) {
        if (m_text.mid(m_pos).startsWith(word)) {
            m_pos += word.size();
            return true;
        }
        return false;
    }
    void skipSpace() {
        while (m_pos < m_text.size() && (m_text[m_pos] == u' ' || m_text[m_pos] == u'\t' ||
                                         m_text[m_pos] == u'\n' || m_text[m_pos] == u'\r')) {
            ++m_pos;
        }
    }

    std::optional<PyValue> parseValue(int depth) {
        if (depth > kMaxDepth) {
            return std::nullopt;
        }
        const QChar c = peek();
        if (c == u'{') {
            return parseDict(depth);
        }
        if (c == u'[') {
            return parseList(depth);
        }
        if (c == u'"') {
            auto text = parseString();
            return text ? std::optional<PyValue>(PyValue::string(*text)) : std::nullopt;
        }
        if (consume(u"null")) {
            return PyValue();
        }
        if (consume(u"true")) {
            return PyValue::boolean(true);
        }
        if (consume(u"false")) {
            return PyValue::boolean(false);
        }
        if (consume(u"NaN")) {
            return PyValue::floating(std::numeric_limits<double>::quiet_NaN());
        }
        if (consume(u"Infinity")) {
            return PyValue::floating(std::numeric_limits<double>::infinity());
        }
        if (consume(u"-Infinity")) {
            return PyValue::floating(-std::numeric_limits<double>::infinity());
        }
        return parseNumber();
    }

    std::optional<PyValue> parseNumber() {
        const qsizetype start = m_pos;
        if (peek() == u'-') {
            ++m_pos;
        }
        if (peek() == u'0') {
            ++m_pos;
        } else if (peek() >= u'1' && peek() <= u'9') {
            while (peek().isDigit()) {
                ++m_pos;
            }
        } else {
            return std::nullopt;
        }
        bool is_float = false;
        if (peek() == u'.' && m_pos + 1 < m_text.size() && m_text[m_pos + 1].isDigit()) {
            is_float = true;
            ++m_pos;
            while (peek().isDigit()) {
                ++m_pos;
            }
        }
        if (peek() == u'e' || peek() == u'E') {
            qsizetype look = m_pos + 1;
            if (look < m_text.size() && (m_text[look] == u'+' || m_text[look] == u'-')) {
                ++look;
            }
            if (look < m_text.size() && m_text[look].isDigit()) {
                is_float = true;
                m_pos = look;
                while (peek().isDigit()) {
                    ++m_pos;
                }
            }
        }
        const QString literal = m_text.mid(start, m_pos - start).toString();
        if (is_float) {
            return PyValue::floating(literal.toDouble());
        }
        bool ok = false;
        const qint64 value = literal.toLongLong(&ok);
        PyValue number = PyValue::integer(ok ? value : 0);
        number.m_int_in_range = ok;
        number.m_text = literal;
        return number;
    }

    std::optional<QString> parseString() {
        ++m_pos; // the opening quote
        QString out;
        while (m_pos < m_text.size()) {
            const QChar c = m_text[m_pos++];
            if (c == u'"') {
                return out;
            }
            if (c.unicode() < 0x20) {
                return std::nullopt; // "Invalid control character"
            }
            if (c != u'\\') {
                out += c;
                continue;
            }
            if (m_pos >= m_text.size()) {
                return std::nullopt;
            }
            const QChar escape = m_text[m_pos++];
            switch (escape.unicode()) {
            case u'"':
            case u'\\':
            case u'/':
                out += escape;
                break;
            case u'b':
                out += QChar(0x08);
                break;
            case u'f':
                out += QChar(0x0c);
                break;
            case u'n':
                out += QChar(0x0a);
                break;
            case u'r':
                out += QChar(0x0d);
                break;
            case u't':
                out += QChar(0x09);
                break;
            case u'u': {
                if (m_pos + 4 > m_text.size()) {
                    return std::nullopt;
                }
                bool ok = false;
                const uint code = m_text.mid(m_pos, 4).toUInt(&ok, 16);
                if (!ok) {
                    return std::nullopt;
                }
                m_pos += 4;
                out += QChar(static_cast<char16_t>(code));
                break;
            }
            default:
                return std::nullopt;
            }
        }
        return std::nullopt;
    }

    std::optional<PyValue> parseList(int depth) {
        ++m_pos;
        QList<PyValue> items;
        skipSpace();
        if (peek() == u']') {
            ++m_pos;
            return PyValue::list(items);
        }
        for (;;) {
            skipSpace();
            auto value = parseValue(depth + 1);
            if (!value) {
                return std::nullopt;
            }
            items.append(*value);
            skipSpace();
            if (peek() == u']') {
                ++m_pos;
                return PyValue::list(items);
            }
            if (peek() != u',') {
                return std::nullopt;
            }
            ++m_pos;
        }
    }

    std::optional<PyValue> parseDict(int depth) {
        ++m_pos;
        PyValue dict = PyValue::dict({});
        skipSpace();
        if (peek() == u'}') {
            ++m_pos;
            return dict;
        }
        for (;;) {
            skipSpace();
            if (peek() != u'"') {
                return std::nullopt;
            }
            const auto key = parseString();
            skipSpace();
            if (!key || peek() != u':') {
                return std::nullopt;
            }
            ++m_pos;
            skipSpace();
            auto value = parseValue(depth + 1);
            if (!value) {
                return std::nullopt;
            }
            dict.set(*key, *value);
            skipSpace();
            if (peek() == u'}') {
                ++m_pos;
                return dict;
            }
            if (peek() != u',') {
                return std::nullopt;
            }
            ++m_pos;
        }
    }

    QStringView m_text;
    qsizetype m_pos = 0;
};

PyValue PyValue::boolean(bool value) {
    PyValue result;
    result.m_type = Type::Bool;
    result.m_bool = value;
    return result;
}

PyValue PyValue::integer(qint64 value) {
    PyValue result;
    result.m_type = Type::Int;
    result.m_int = value;
    result.m_text = QString::number(value);
    return result;
}

PyValue PyValue::floating(double value) {
    PyValue result;
    result.m_type = Type::Float;
    result.m_float = value;
    return result;
}

PyValue PyValue::string(const QString& value) {
    PyValue result;
    result.m_type = Type::Str;
    result.m_text = value;
    return result;
}

PyValue PyValue::list(QList<PyValue> items) {
    PyValue result;
    result.m_type = Type::List;
    result.m_list = std::move(items);
    return result;
}

PyValue PyValue::dict(QList<Item> items) {
    PyValue result;
    result.m_type = Type::Dict;
    result.m_dict = std::move(items);
    return result;
}

PyValue PyValue::fromJson(const QJsonValue& value) {
    switch (value.type()) {
    case QJsonValue::Bool:
        return boolean(value.toBool());
    case QJsonValue::Double: {
        const double number = value.toDouble();
        if (std::isfinite(number) && number == std::floor(number) && std::abs(number) < 9.0e15) {
            return integer(static_cast<qint64>(number));
        }
        return floating(number);
    }
    case QJsonValue::String:
        return string(value.toString());
    case QJsonValue::Array: {
        QList<PyValue> items;
        for (const QJsonValue& item : value.toArray()) {
            items.append(fromJson(item));
        }
        return list(items);
    }
    case QJsonValue::Object: {
        QList<Item> items;
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            items.append({it.key(), fromJson(it.value())});
        }
        return dict(items);
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        break;
    }
    return {};
}

std::optional<PyValue> PyValue::parse(QStringView text) {
    return PyJsonParser(text).parseDocument();
}

double PyValue::toDouble() const {
    if (m_type == Type::Int) {
        return m_int_in_range ? static_cast<double>(m_int) : m_text.toDouble();
    }
    if (m_type == Type::Bool) {
        return m_bool ? 1.0 : 0.0;
    }
    return m_float;
}

bool PyValue::truthy() const {
    switch (m_type) {
    case Type::None:
        return false;
    case Type::Bool:
        return m_bool;
    case Type::Int:
    case Type::Float:
        return toDouble() != 0.0;
    case Type::Str:
        return !m_text.isEmpty();
    case Type::List:
        return !m_list.isEmpty();
    case Type::Dict:
        return !m_dict.isEmpty();
    }
    return false;
}

const PyValue* PyValue::get(const QString& key) const {
    if (m_type != Type::Dict) {
        return nullptr;
    }
    for (const Item& item : m_dict) {
        if (item.first == key) {
            return &item.second;
        }
    }
    return nullptr;
}

void PyValue::set(const QString& key, const PyValue& value) {
    for (Item& item : m_dict) {
        if (item.first == key) {
            item.second = value;
            return;
        }
    }
    m_dict.append({key, value});
}

void PyValue::remove(const QString& key) {
    m_dict.removeIf([&key](const Item& item) { return item.first == key; });
}

QString PyValue::repr() const {
    switch (m_type) {
    case Type::None:
        return QStringLiteral("None");
    case Type::Bool:
        return m_bool ? QStringLiteral("True") : QStringLiteral("False");
    case Type::Int:
        return m_text;
    case Type::Float:
        if (std::isnan(m_float)) {
            return QStringLiteral("nan");
        }
        if (std::isinf(m_float)) {
            return m_float > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
        }
        return QString::fromStdString(lbm::pythonFloatRepr(m_float));
    case Type::Str:
        return protocol::pythonStringRepr(m_text);
    case Type::List: {
        QStringList parts;
        for (const PyValue& item : m_list) {
            parts.append(item.repr());
        }
        return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    case Type::Dict: {
        QStringList parts;
        for (const Item& item : m_dict) {
            parts.append(protocol::pythonStringRepr(item.first) + QStringLiteral(": ") +
                         item.second.repr());
        }
        return QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
    }
    }
    return {};
}

QString PyValue::str() const {
    return m_type == Type::Str ? m_text : repr();
}

QString PyValue::typeName() const {
    switch (m_type) {
    case Type::None:
        return QStringLiteral("NoneType");
    case Type::Bool:
        return QStringLiteral("bool");
    case Type::Int:
        return QStringLiteral("int");
    case Type::Float:
        return QStringLiteral("float");
    case Type::Str:
        return QStringLiteral("str");
    case Type::List:
        return QStringLiteral("list");
    case Type::Dict:
        return QStringLiteral("dict");
    }
    return {};
}

QJsonValue PyValue::toJson() const {
    switch (m_type) {
    case Type::None:
        return QJsonValue(QJsonValue::Null);
    case Type::Bool:
        return m_bool;
    case Type::Int:
        return m_int_in_range ? QJsonValue(static_cast<double>(m_int))
                              : QJsonValue(m_text.toDouble());
    case Type::Float:
        return std::isfinite(m_float) ? QJsonValue(m_float) : QJsonValue(QJsonValue::Null);
    case Type::Str:
        return m_text;
    case Type::List: {
        QJsonArray array;
        for (const PyValue& item : m_list) {
            array.append(item.toJson());
        }
        return array;
    }
    case Type::Dict: {
        QJsonObject object;
        for (const Item& item : m_dict) {
            object.insert(item.first, item.second.toJson());
        }
        return object;
    }
    }
    return {};
}

QString PyValue::toJsonText() const {
    switch (m_type) {
    case Type::None:
        return QStringLiteral("null");
    case Type::Bool:
        return m_bool ? QStringLiteral("true") : QStringLiteral("false");
    case Type::Int:
        return m_text;
    case Type::Float:
        // json.dumps writes floats with repr(), spelling the non-finite ones as JavaScript.
        return QString::fromStdString(lbm::pythonFloatRepr(m_float));
    case Type::Str: {
        QString out = QStringLiteral("\"");
        for (const QChar c : m_text) {
            switch (c.unicode()) {
            case u'"':
                out += QStringLiteral("\\\"");
                break;
            case u'\\':
                out += QStringLiteral("\\\\");
                break;
            case u'\n':
                out += QStringLiteral("\\n");
                break;
            case u'\r':
                out += QStringLiteral("\\r");
                break;
            case u'\t':
                out += QStringLiteral("\\t");
                break;
            case u'\b':
                out += QStringLiteral("\\b");
                break;
            case u'\f':
                out += QStringLiteral("\\f");
                break;
            default:
                if (c.unicode() < 0x20) {
                    out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
                } else {
                    out += c;
                }
            }
        }
        return out + QLatin1Char('"');
    }
    case Type::List: {
        QStringList parts;
        for (const PyValue& item : m_list) {
            parts.append(item.toJsonText());
        }
        return QLatin1Char('[') + parts.join(QLatin1Char(',')) + QLatin1Char(']');
    }
    case Type::Dict: {
        QStringList parts;
        for (const Item& item : m_dict) {
            parts.append(string(item.first).toJsonText() + QLatin1Char(':') +
                         item.second.toJsonText());
        }
        return QLatin1Char('{') + parts.join(QLatin1Char(',')) + QLatin1Char('}');
    }
    }
    return {};
}

} // namespace lbm::sim
