#include "app/protocol/python_repr.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cmath>

namespace lbm::protocol {
namespace {

QString reprString(const QString& text) {
    // Python prefers single quotes and switches to double quotes when the text holds a single
    // quote but no double quote.
    const bool use_double = text.contains(QLatin1Char('\'')) && !text.contains(QLatin1Char('"'));
    const QChar quote = use_double ? QLatin1Char('"') : QLatin1Char('\'');
    QString out = quote;
    for (const QChar c : text) {
        if (c == QLatin1Char('\\')) {
            out += QStringLiteral("\\\\");
        } else if (c == quote) {
            out += QLatin1Char('\\') + QString(c);
        } else if (c == QLatin1Char('\n')) {
            out += QStringLiteral("\\n");
        } else if (c == QLatin1Char('\r')) {
            out += QStringLiteral("\\r");
        } else if (c == QLatin1Char('\t')) {
            out += QStringLiteral("\\t");
        } else if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        } else {
            out += c;
        }
    }
    return out + quote;
}

QString reprNumber(double value) {
    // json.loads gives int for integral literals; Qt keeps only a double, so integral values
    // print as ints, which is what the server sends for counts and indices.
    if (std::isfinite(value) && value == std::floor(value) && std::abs(value) < 1e15) {
        return QString::number(static_cast<qint64>(value));
    }
    return QString::number(value, 'g', 17);
}

} // namespace

QString pythonRepr(const QJsonValue& value) {
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return QStringLiteral("None");
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("True") : QStringLiteral("False");
    case QJsonValue::Double:
        return reprNumber(value.toDouble());
    case QJsonValue::String:
        return reprString(value.toString());
    case QJsonValue::Array: {
        QStringList items;
        for (const QJsonValue& item : value.toArray()) {
            items.append(pythonRepr(item));
        }
        return QLatin1Char('[') + items.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    case QJsonValue::Object: {
        QStringList items;
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            items.append(reprString(it.key()) + QStringLiteral(": ") + pythonRepr(it.value()));
        }
        return QLatin1Char('{') + items.join(QStringLiteral(", ")) + QLatin1Char('}');
    }
    }
    return {};
}

QString pythonStringRepr(const QString& text) {
    return reprString(text);
}

} // namespace lbm::protocol
