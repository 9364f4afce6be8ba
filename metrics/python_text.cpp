#include "metrics/python_text.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace lbm {
namespace {

struct DecodedCodePoint {
    char32_t value = 0;
    std::size_t length = 1;
    bool valid = false;
};

// One UTF-8 sequence at text[pos]; an invalid lead or continuation byte decodes as a
// single invalid byte so the caller can escape it and resynchronise.
DecodedCodePoint decodeAt(std::string_view text, std::size_t pos) {
    const auto lead = static_cast<unsigned char>(text[pos]);
    if (lead < 0x80) {
        return {lead, 1, true};
    }
    std::size_t length = 0;
    char32_t value = 0;
    char32_t minimum = 0;
    if ((lead & 0xE0) == 0xC0) {
        length = 2;
        value = lead & 0x1F;
        minimum = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3;
        value = lead & 0x0F;
        minimum = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4;
        value = lead & 0x07;
        minimum = 0x10000;
    } else {
        return {};
    }
    if (pos + length > text.size()) {
        return {};
    }
    for (std::size_t i = 1; i < length; ++i) {
        const auto next = static_cast<unsigned char>(text[pos + i]);
        if ((next & 0xC0) != 0x80) {
            return {};
        }
        value = (value << 6) | (next & 0x3F);
    }
    if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
        return {};
    }
    return {value, length, true};
}

// str.isspace(): bidirectional class WS, B or S, or general category Zs.
bool isPythonSpace(char32_t c) {
    switch (c) {
    case 0x09:
    case 0x0A:
    case 0x0B:
    case 0x0C:
    case 0x0D:
    case 0x1C:
    case 0x1D:
    case 0x1E:
    case 0x1F:
    case 0x20:
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
        return true;
    default:
        return c >= 0x2000 && c <= 0x200A;
    }
}

// str.isprintable() for the characters a camera pattern or prompt realistically holds:
// controls (Cc), separators other than the ASCII space (Zs, Zl, Zp), the common format
// characters (Cf), surrogates and private use are not printable. Unassigned code points are
// not tabulated here; they are treated as printable.
bool isPythonPrintable(char32_t c) {
    if (c < 0x20 || (c >= 0x7F && c <= 0xA0)) {
        return false;
    }
    if (c != 0x20 && isPythonSpace(c)) {
        return false;
    }
    if (c == 0xAD || c == 0x61C || c == 0x180E || (c >= 0x200B && c <= 0x200F) ||
        (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F) || c == 0xFEFF ||
        (c >= 0xFFF9 && c <= 0xFFFB)) {
        return false;
    }
    if ((c >= 0xE000 && c <= 0xF8FF) || c >= 0xF0000) {
        return false;
    }
    return true;
}

void appendHexEscape(std::string& out, char prefix, unsigned value, int digits) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "\\%c%0*x", prefix, digits, value);
    out += buffer;
}

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

} // namespace

std::string pythonRepr(std::string_view text) {
    const bool has_single = text.find('\'') != std::string_view::npos;
    const bool has_double = text.find('"') != std::string_view::npos;
    const char quote = (has_single && !has_double) ? '"' : '\'';

    std::string out;
    out.reserve(text.size() + 2);
    out += quote;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const DecodedCodePoint cp = decodeAt(text, pos);
        if (!cp.valid) {
            appendHexEscape(out, 'u', 0xDC00u | static_cast<unsigned char>(text[pos]), 4);
            pos += 1;
            continue;
        }
        const char32_t c = cp.value;
        if (c == static_cast<char32_t>(quote) || c == U'\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == U'\t') {
            out += "\\t";
        } else if (c == U'\n') {
            out += "\\n";
        } else if (c == U'\r') {
            out += "\\r";
        } else if (!isPythonPrintable(c)) {
            if (c < 0x100) {
                appendHexEscape(out, 'x', static_cast<unsigned>(c), 2);
            } else if (c < 0x10000) {
                appendHexEscape(out, 'u', static_cast<unsigned>(c), 4);
            } else {
                appendHexEscape(out, 'U', static_cast<unsigned>(c), 8);
            }
        } else {
            out.append(text.substr(pos, cp.length));
        }
        pos += cp.length;
    }
    out += quote;
    return out;
}

std::string pythonListRepr(const std::vector<std::string>& items) {
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) {
            out += ", ";
        }
        out += pythonRepr(items[i]);
    }
    out += ']';
    return out;
}

bool isPythonBlank(std::string_view text) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        const DecodedCodePoint cp = decodeAt(text, pos);
        if (!cp.valid || !isPythonSpace(cp.value)) {
            return false;
        }
        pos += cp.length;
    }
    return true;
}

std::string pythonFloatRepr(double value) {
    if (std::isnan(value)) {
        return "NaN";
    }
    if (std::isinf(value)) {
        return value > 0 ? "Infinity" : "-Infinity";
    }
    if (value == 0.0) {
        return std::signbit(value) ? "-0.0" : "0.0";
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
    return text;
}

} // namespace lbm
