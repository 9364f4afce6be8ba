#include "app/report/python_json.h"

#include "metrics/python_text.h"

#include <QCborValue>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

namespace lbm::report {
namespace {

void appendEscapedString(QByteArray& out, const QString& text) {
    out.append('"');
    for (const QChar character : text) {
        const char16_t unit = character.unicode();
        switch (unit) {
        case u'"':
            out.append("\\\"");
            break;
        case u'\\':
            out.append("\\\\");
            break;
        case u'\n':
            out.append("\\n");
            break;
        case u'\r':
            out.append("\\r");
            break;
        case u'\t':
            out.append("\\t");
            break;
        case u'\b':
            out.append("\\b");
            break;
        case u'\f':
            out.append("\\f");
            break;
        default:
            // ensure_ascii=True: everything outside printable ASCII as \uXXXX (UTF-16 units,
            // so astral characters become surrogate pairs, as Python writes them).
            if (unit < 0x20 || unit > 0x7e) {
                std::array<char, 8> escaped{};
                std::snprintf(escaped.data(), escaped.size(), "\\u%04x", unsigned{unit});
                out.append(escaped.data());
            } else {
                out.append(static_cast<char>(unit));
            }
        }
    }
    out.append('"');
}

void appendNumber(QByteArray& out, const QJsonValue& value) {
    const QCborValue cbor = QCborValue::fromJsonValue(value);
    if (cbor.isInteger()) {
        out.append(QByteArray::number(cbor.toInteger()));
        return;
    }
    out.append(QByteArray::fromStdString(lbm::pythonFloatRepr(value.toDouble())));
}

void appendNewline(QByteArray& out, int indent, int depth) {
    out.append('\n');
    out.append(QByteArray(indent * depth, ' '));
}

void appendValue(QByteArray& out, const QJsonValue& value, int indent, int depth) {
    const bool pretty = indent >= 0;
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        out.append("null");
        return;
    case QJsonValue::Bool:
        out.append(value.toBool() ? "true" : "false");
        return;
    case QJsonValue::Double:
        appendNumber(out, value);
        return;
    case QJsonValue::String:
        appendEscapedString(out, value.toString());
        return;
    case QJsonValue::Array: {
        const QJsonArray array = value.toArray();
        if (array.isEmpty()) {
            out.append("[]");
            return;
        }
        out.append('[');
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (i > 0) {
                out.append(pretty ? "," : ", ");
            }
            if (pretty) {
                appendNewline(out, indent, depth + 1);
            }
            appendValue(out, array.at(i), indent, depth + 1);
        }
        if (pretty) {
            appendNewline(out, indent, depth);
        }
        out.append(']');
        return;
    }
    case QJsonValue::Object: {
        const QJsonObject object = value.toObject();
        if (object.isEmpty()) {
            out.append("{}");
            return;
        }
        // sort_keys=True compares code points; UTF-16 order agrees outside surrogates.
        QStringList keys = object.keys();
        std::sort(keys.begin(), keys.end());
        out.append('{');
        bool first = true;
        for (const QString& key : keys) {
            if (!first) {
                out.append(pretty ? "," : ", ");
            }
            first = false;
            if (pretty) {
                appendNewline(out, indent, depth + 1);
            }
            appendEscapedString(out, key);
            out.append(": ");
            appendValue(out, object.value(key), indent, depth + 1);
        }
        if (pretty) {
            appendNewline(out, indent, depth);
        }
        out.append('}');
        return;
    }
    }
}

} // namespace

QByteArray toPythonJson(const QJsonValue& value, int indent) {
    QByteArray out;
    appendValue(out, value, indent, 0);
    return out;
}

} // namespace lbm::report
