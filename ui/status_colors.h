#pragma once
// The few status colours every panel shares (on time, near the limit, late, neutral
// accents), chosen for legibility on both light and dark palettes.

#include <QColor>
#include <QPalette>

namespace lbm::ui {

inline bool isDarkPalette(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}
inline QColor onTimeColor(const QPalette& palette) {
    return isDarkPalette(palette) ? QColor(0x4c, 0xc3, 0x7a) : QColor(0x2e, 0x8b, 0x57);
}
inline QColor nearLimitColor(const QPalette& palette) {
    return isDarkPalette(palette) ? QColor(0xf0, 0xb4, 0x29) : QColor(0xc7, 0x7c, 0x02);
}
inline QColor lateColor(const QPalette& palette) {
    return isDarkPalette(palette) ? QColor(0xff, 0x6b, 0x6b) : QColor(0xd0, 0x2f, 0x2f);
}
inline QColor accentColor(const QPalette& palette) {
    return isDarkPalette(palette) ? QColor(0x6e, 0xa8, 0xfe) : QColor(0x1f, 0x5f, 0xbf);
}
inline QColor stallColor(const QPalette& palette) {
    return isDarkPalette(palette) ? QColor(0xe0, 0x7b, 0xff) : QColor(0x8e, 0x24, 0xaa);
}
inline QColor mutedColor(const QPalette& palette) {
    QColor color = palette.color(QPalette::WindowText);
    color.setAlphaF(0.55f);
    return color;
}
// `over` laid at weight/255 over `under`, opaque: for what must not show through (a banner
// over the picture) or cannot take alpha (a swatch in rich text).
inline QColor mixedOver(const QColor& over, const QColor& under, int weight) {
    const auto mix = [weight](int a, int b) { return (a * weight + b * (255 - weight)) / 255; };
    return QColor(mix(over.red(), under.red()), mix(over.green(), under.green()),
                  mix(over.blue(), under.blue()));
}

} // namespace lbm::ui
