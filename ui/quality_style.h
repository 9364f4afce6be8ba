#pragma once
// How the visual quality flags look wherever the window shows them (the quality track, the
// scrub bar, the counters, the filmstrip): one colour and one letter per flag kind, so a
// seam is the same red "S" on every surface, and the colours of the signal lines that raise
// them. Built on the shared status colours, legible on light and dark palettes.

#include "app/quality/chunk_quality.h"
#include "ui/status_colors.h"

#include <QColor>
#include <QPalette>
#include <QString>

namespace lbm::ui {

// The chroma drift line and the tint flag: an orange distinct from the amber of "near".
inline QColor tintColor(const QPalette& palette) {
    return isDarkPalette(palette) ? QColor(0xff, 0x92, 0x2b) : QColor(0xc2, 0x41, 0x0c);
}
// A transition that landed off its K chunks: the magenta of the latency chart's p99.
inline QColor transitionFlagColor(const QPalette& palette) {
    return isDarkPalette(palette) ? QColor(0xff, 0x9e, 0xd8) : QColor(0xb0, 0x1d, 0x7a);
}
// Steering: the camera command and the action flag (a teal apart from the other flags).
inline QColor steeringColor(const QPalette& palette) {
    return isDarkPalette(palette) ? QColor(0x3b, 0xd6, 0xc6) : QColor(0x0f, 0x76, 0x6e);
}
// The sharpness (blur) line and flag.
inline QColor blurColor(const QPalette& palette) {
    return stallColor(palette);
}
// Freeze marks and flag.
inline QColor freezeColor(const QPalette& palette) {
    return accentColor(palette);
}

inline QColor qualityFlagColor(quality::QualityFlag flag, const QPalette& palette) {
    switch (flag) {
    case quality::QualityFlag::Seam:
        return lateColor(palette);
    case quality::QualityFlag::Freeze:
        return freezeColor(palette);
    case quality::QualityFlag::Blur:
        return blurColor(palette);
    case quality::QualityFlag::Tint:
        return tintColor(palette);
    case quality::QualityFlag::Transition:
        return transitionFlagColor(palette);
    case quality::QualityFlag::Action:
        return steeringColor(palette);
    }
    return lateColor(palette);
}

// The badge letter: S(eam), F(reeze), B(lur), T(int), P(rompt transition off its K),
// A(ction: the picture does not follow the camera).
inline QChar qualityFlagLetter(quality::QualityFlag flag) {
    switch (flag) {
    case quality::QualityFlag::Seam:
        return QLatin1Char('S');
    case quality::QualityFlag::Freeze:
        return QLatin1Char('F');
    case quality::QualityFlag::Blur:
        return QLatin1Char('B');
    case quality::QualityFlag::Tint:
        return QLatin1Char('T');
    case quality::QualityFlag::Transition:
        return QLatin1Char('P');
    case quality::QualityFlag::Action:
        return QLatin1Char('A');
    }
    return QLatin1Char('?');
}

// The first set flag in report order (seam, freeze, blur, tint, transition).
inline std::optional<quality::QualityFlag> firstQualityFlag(quality::QualityFlags flags) {
    for (const quality::QualityFlag flag : quality::allQualityFlags()) {
        if (flags.testFlag(flag)) {
            return flag;
        }
    }
    return std::nullopt;
}

} // namespace lbm::ui
