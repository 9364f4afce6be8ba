#include "app/report/python_json.h"

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

// Shortest round-trip digits and the decimal exponent: value = 0.DIGITS * 10^decimal_point.
struct ShortestDigits {
    bool negative = false;
    std::string digits;
    int decimal_point = 0;
};

ShortestDigits shortestDigits(double value) {
    std::array<char, 64> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                      std::chars_format::scientific);
    const std::string text(buffer.data(), result.ptr);
    ShortestDigits out;
    std::size_t position = 0;
    if (text[position] == '-') {
        out.negative = true;
        ++position;
    }
    const std::size_t exponent_at = text.find('e');
    for (std::size_t i = position; i < exponent_at; ++i) {
        if (text[i] != '.') {
            out.digits.push_back(text[i]);
        }
    }
    out.decimal_point = std::stoi(text.substr(exponent_at + 1)) + 1;
    return out;
}

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
    out.append(pythonFloatRepr(value.toDouble()).toLatin1());
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

QString pythonFloatRepr(double value) {
    if (std::isnan(value)) {
        return QStringLiteral("NaN");
    }
    if (std::isinf(value)) {
        return value > 0 ? QStringLiteral("Infinity") : QStringLiteral("-Infinity");
    }
    if (value == 0.0) {
        return std::signbit(value) ? QStringLiteral("-0.0") : QStringLiteral("0.0");
    }
    const ShortestDigits parts = shortestDigits(value);
    const int digit_count = static_cast<int>(parts.digits.size());
    std::string text = parts.negative ? "-" : "";
    // CPython's repr switches to exponent form when the decimal point falls outside
    // (-4, 16] relative to the first digit.
    if (parts.decimal_point > -4 && parts.decimal_point <= 16) {
        if (parts.decimal_point <= 0) {
            text += "0." + std::string(static_cast<std::size_t>(-parts.decimal_point), '0') +
                    parts.digits;
        } else if (parts.decimal_point >= digit_count) {
            text += parts.digits +
                    std::string(static_cast<std::size_t>(parts.decimal_point - digit_count), '0') +
                    ".0";
        } else {
            text += parts.digits.substr(0, static_cast<std::size_t>(parts.decimal_point)) + "." +
                    parts.digits.substr(static_cast<std::size_t>(parts.decimal_point));
        }
    } else {
        text += parts.digits.substr(0, 1);
        if (digit_count > 1) {
            text += "." + parts.digits.substr(1);
        }
        const int exponent = parts.decimal_point - 1;
        std::array<char, 16> exponent_text{};
        std::snprintf(exponent_text.data(), exponent_text.size(), "e%c%02d",
                      exponent < 0 ? '-' : '+', std::abs(exponent));
        text += exponent_text.data();
    }
    return QString::fromLatin1(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace lbm::report
