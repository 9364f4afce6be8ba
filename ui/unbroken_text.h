#pragma once
// Text a word-wrapping label keeps on one line: its spaces made non-breaking ("750 ms",
// "late 3 of 15 (20.0%)"), so a narrow dock never leaves a number apart from its unit.

#include <QString>

namespace lbm::ui {

inline QString unbrokenText(QString text) {
    return text.replace(QLatin1Char(' '), QChar(0x00A0));
}

} // namespace lbm::ui
