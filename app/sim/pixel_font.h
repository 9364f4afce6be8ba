#pragma once
// A tiny built-in 5x7 bitmap font for captions burned into simulated frames. QPainter text
// needs a QGuiApplication (font database), which the headless `simulate` and `bench`
// commands never create, and frames are rendered on worker threads; a bitmap font works
// everywhere and renders identically on every machine.

#include <QColor>
#include <QImage>
#include <QPoint>
#include <QString>

namespace lbm::sim {

class PixelFont {
public:
    static constexpr int kGlyphWidth = 5;
    static constexpr int kGlyphHeight = 7;
    static constexpr int kAdvance = 6; // glyph plus one column of spacing

    // Draws text with its top-left corner at origin, each font pixel a scale x scale
    // square. Lower case is drawn as upper case; characters without a glyph as '?'.
    // Text is clipped at the image's edges.
    static void draw(QImage& image, QPoint origin, const QString& text, int scale,
                     const QColor& colour);
    static int textWidth(const QString& text, int scale) {
        return static_cast<int>(text.size()) * kAdvance * scale;
    }
    static int textHeight(int scale) { return kGlyphHeight * scale; }
};

} // namespace lbm::sim
