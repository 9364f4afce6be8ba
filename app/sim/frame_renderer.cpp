#include "app/sim/frame_renderer.h"

#include "app/sim/frame_barcode.h"
#include "app/sim/pixel_font.h"

#include <QBrush>
#include <QPainter>
#include <QTransform>

#include <algorithm>
#include <cmath>

namespace lbm::sim {
namespace {

constexpr int kCaptionScale = 2;
constexpr int kCaptionMargin = 6;
// How strongly the prompt's grade tints the picture: visible, but the image stays readable.
constexpr int kGradeAlpha = 80;
// Forward motion of 1.0 (20 latent frames of 'w') zooms by e^0.9, about 2.5x.
constexpr double kZoomPerUnit = 0.9;
// Strafing by 1.0 pans by 60% of the frame width.
constexpr double kPanPerUnit = 0.6;

} // namespace

FrameRenderer::FrameRenderer(const QImage& first_frame, int width, int height)
    : m_width(width)
    , m_height(height) {
    QImage base = first_frame.isNull() ? QImage(width, height, QImage::Format_RGB32)
                                       : first_frame.convertToFormat(QImage::Format_RGB32);
    if (first_frame.isNull()) {
        base.fill(QColor(40, 40, 40));
    }
    base = base.scaled(width, height, Qt::KeepAspectRatioByExpanding, Qt::SmoothTransformation);
    base = base.copy((base.width() - width) / 2, (base.height() - height) / 2, width, height);
    m_tile = QImage(2 * width, 2 * height, QImage::Format_RGB32);
    QPainter painter(&m_tile);
    painter.drawImage(0, 0, base);
    painter.drawImage(width, 0, base.mirrored(true, false));
    painter.drawImage(0, height, base.mirrored(false, true));
    painter.drawImage(width, height, base.mirrored(true, true));
}

QImage FrameRenderer::render(const FrameState& state) const {
    QImage frame(m_width, m_height, QImage::Format_RGB32);
    QPainter painter(&frame);
    // One tile width per full turn, so the view wraps seamlessly at +-180 deg of yaw.
    const double pixels_per_degree = m_tile.width() / 360.0;
    const double pan_x =
        state.pose.yawDeg() * pixels_per_degree + state.pose.position.x() * kPanPerUnit * m_width;
    const double pan_y = -state.pose.pitchDeg() * pixels_per_degree -
                         state.pose.position.y() * kPanPerUnit * m_width;
    const double zoom = std::clamp(std::exp(kZoomPerUnit * state.pose.position.z()), 0.25, 8.0);
    QTransform view;
    view.translate(m_width / 2.0, m_height / 2.0);
    view.scale(zoom, zoom);
    view.rotate(-state.pose.rollDeg());
    view.translate(-m_width / 2.0 - pan_x, -m_height / 2.0 - pan_y);
    QBrush texture(m_tile);
    texture.setTransform(view);
    painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
    painter.fillRect(frame.rect(), texture);

    QColor tint = state.grade;
    tint.setAlpha(kGradeAlpha);
    painter.fillRect(frame.rect(), tint);
    painter.end();

    const int caption_height = PixelFont::textHeight(kCaptionScale) + 2 * kCaptionMargin;
    QPainter boxes(&frame);
    boxes.fillRect(0, 0, m_width, caption_height, QColor(0, 0, 0, 170));
    boxes.end();
    const QString chunk_text = QStringLiteral("CHUNK %1  FRAME %2")
                                   .arg(state.generation_chunk_index)
                                   .arg(state.frame_number);
    const int chunk_width = PixelFont::textWidth(chunk_text, kCaptionScale);
    const int caption_room = std::max(0, m_width - chunk_width - 4 * kCaptionMargin);
    const int caption_chars = caption_room / (PixelFont::kAdvance * kCaptionScale);
    QString caption = state.caption;
    if (caption.size() > caption_chars) {
        caption = caption.left(std::max(0, caption_chars - 3)) + QStringLiteral("...");
    }
    PixelFont::draw(frame, QPoint(kCaptionMargin, kCaptionMargin), caption, kCaptionScale,
                    Qt::white);
    PixelFont::draw(frame, QPoint(m_width - chunk_width - kCaptionMargin, kCaptionMargin),
                    chunk_text, kCaptionScale, QColor(255, 230, 90));
    drawFrameBarcode(frame, state.frame_number);
    return frame;
}

QColor FrameRenderer::gradeForPrompt(const QString& prompt) {
    // FNV-1a over UTF-8: qHash is seeded per process, this must not be.
    quint32 hash = 2166136261u;
    for (const char byte : prompt.toUtf8()) {
        hash ^= static_cast<quint8>(byte);
        hash *= 16777619u;
    }
    return QColor::fromHsv(static_cast<int>(hash % 360), 170, 255);
}

QColor FrameRenderer::blend(const QColor& from, const QColor& to, double t) {
    const double clamped = std::clamp(t, 0.0, 1.0);
    const auto mix = [clamped](int a, int b) {
        return static_cast<int>(std::lround(a + (b - a) * clamped));
    };
    return QColor(mix(from.red(), to.red()), mix(from.green(), to.green()),
                  mix(from.blue(), to.blue()));
}

} // namespace lbm::sim
