#pragma once
// One unit style for a duration on every surface (banner, title, HUD, counters, chart), so the
// same fact reads the same everywhere: under a second in whole milliseconds ("742 ms"), from a
// second on in seconds with one decimal ("8.4 s").

#include <QString>

namespace lbm::ui {

inline QString durationText(double ms) {
    if (ms < 999.5) {
        return QStringLiteral("%1 ms").arg(ms, 0, 'f', 0);
    }
    return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 1);
}

} // namespace lbm::ui
