#pragma once
// Text a word-wrapping label keeps on one line: its spaces made non-breaking ("750 ms",
// "late 3 of 15 (20.0%)") and a word joiner after each en dash ("6–14", where line breaking
// may otherwise end a line after the dash), so a narrow dock never leaves a number apart
// from its unit or a range's end from its start.

#include <QString>

namespace lbm::ui {

inline QString unbrokenText(QString text) {
    constexpr char16_t kEnDash = 0x2013;
    constexpr char16_t kWordJoiner = 0x2060;
    text.replace(QLatin1Char(' '), QChar(0x00A0));
    const QChar joined[] = {QChar(kEnDash), QChar(kWordJoiner)};
    return text.replace(QChar(kEnDash), QString(joined, 2));
}

} // namespace lbm::ui
