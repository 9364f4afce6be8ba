#include "app/sim/frame_renderer.h"

#include "app/sim/frame_barcode.h"
#include "app/sim/pixel_font.h"

#include <QBrush>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace lbm::sim {
namespace {

constexpr int kCaptionScale = 2;
constexpr int kCaptionMargin = 6;

constexpr int kBoxPasses = 3; // blurBoxRadii's array
constexpr int kChannels = 4;  // RGB32 is stored as four bytes per pixel

// Box radii whose three passes have the variance of a Gaussian of sigma (the usual
// "boxes for Gauss" split: some passes one box width narrower than the others).
std::array<int, kBoxPasses> boxRadiiForSigma(double sigma) {
    const double ideal = std::sqrt(12.0 * sigma * sigma / kBoxPasses + 1.0);
    int lower = static_cast<int>(std::floor(ideal));
    if (lower % 2 == 0) {
        --lower;
    }
    const int upper = lower + 2;
    const double narrow_passes = (12.0 * sigma * sigma - kBoxPasses * lower * lower -
                                  4.0 * kBoxPasses * lower - 3.0 * kBoxPasses) /
                                 (-4.0 * lower - 4.0);
    const int narrow = static_cast<int>(std::lround(narrow_passes));
    std::array<int, kBoxPasses> radii{};
    for (int pass = 0; pass < kBoxPasses; ++pass) {
        radii[pass] = ((pass < narrow ? lower : upper) - 1) / 2;
    }
    return radii;
}

// A box's rounded mean for every sum its taps can reach: (sum + taps / 2) / taps looked up,
// because an integer division per sample was most of a blurred frame's cost (42% of a blur
// session's CPU under perf), and a table gives the same bytes.
std::vector<uchar> boxMeans(int taps) {
    std::vector<uchar> means(static_cast<size_t>(255 * taps + 1));
    for (size_t sum = 0; sum < means.size(); ++sum) {
        means[sum] = static_cast<uchar>((static_cast<int>(sum) + taps / 2) / taps);
    }
    return means;
}

// One horizontal box pass over every row, edges replicated. Plain index arithmetic in the
// inner loops: the simulator also runs in unoptimised sanitizer builds, where a helper call
// per sample costs more than the sample.
void boxRows(const QImage& source, QImage& target, int radius) {
    const int width = source.width();
    const int taps = 2 * radius + 1;
    const int last = width - 1;
    const std::vector<uchar> means = boxMeans(taps);
    const uchar* mean = means.data();
    for (int y = 0; y < source.height(); ++y) {
        const uchar* in = source.constScanLine(y);
        uchar* out = target.scanLine(y);
        // The four channels' sums run side by side: independent additions the CPU overlaps,
        // and each pixel written whole.
        std::array<int, kChannels> sums{};
        for (int channel = 0; channel < kChannels; ++channel) {
            sums[channel] = (radius + 1) * in[channel];
            for (int k = 1; k <= radius; ++k) {
                sums[channel] += in[(k < last ? k : last) * kChannels + channel];
            }
        }
        for (int x = 0; x < width; ++x) {
            const uchar* entering =
                in + (x + radius + 1 < last ? x + radius + 1 : last) * kChannels;
            const uchar* leaving = in + (x - radius > 0 ? x - radius : 0) * kChannels;
            uchar* pixel = out + x * kChannels;
            for (int channel = 0; channel < kChannels; ++channel) {
                pixel[channel] = mean[sums[channel]];
                sums[channel] += entering[channel] - leaving[channel];
            }
        }
    }
}

// One vertical box pass: running column sums, so memory is walked row by row.
void boxColumns(const QImage& source, QImage& target, int radius) {
    const int height = source.height();
    const int bytes = source.width() * kChannels;
    const std::vector<uchar> means = boxMeans(2 * radius + 1);
    const uchar* mean = means.data();
    const auto row = [&](int y) { return source.constScanLine(std::clamp(y, 0, height - 1)); };
    std::vector<int> sum_storage(static_cast<size_t>(bytes), 0);
    int* sums = sum_storage.data();
    for (int k = -radius; k <= radius; ++k) {
        const uchar* in = row(k);
        for (int i = 0; i < bytes; ++i) {
            sums[i] += in[i];
        }
    }
    for (int y = 0; y < height; ++y) {
        uchar* out = target.scanLine(y);
        const uchar* entering = row(y + radius + 1);
        const uchar* leaving = row(y - radius);
        for (int i = 0; i < bytes; ++i) {
            out[i] = mean[sums[i]];
            sums[i] += entering[i] - leaving[i];
        }
    }
}

} // namespace

FrameRenderer::FrameRenderer(const QImage& first_frame, int width, int height, quint64 seed,
                             Realism realism)
    : m_width(width)
    , m_height(height)
    , m_realism(realism)
    , m_world(seed, width, height) {
    QImage base = first_frame.isNull() ? QImage(width, height, QImage::Format_RGB32)
                                       : first_frame.convertToFormat(QImage::Format_RGB32);
    if (first_frame.isNull()) {
        base.fill(QColor(40, 40, 40));
    }
    base = base.scaled(width, height, Qt::KeepAspectRatioByExpanding, Qt::SmoothTransformation);
    m_first_frame =
        base.copy((base.width() - width) / 2, (base.height() - height) / 2, width, height);
}

void FrameRenderer::warmUp() {
    WorldRenderer::warmUp();
    RealismPass warm;
    Q_UNUSED(warm);
}

QImage FrameRenderer::render(const FrameState& state) const {
    QImage frame;
    renderInto(frame, state);
    return frame;
}

void FrameRenderer::renderInto(QImage& frame, const FrameState& state) const {
    if (frame.width() != m_width || frame.height() != m_height ||
        frame.format() != QImage::Format_RGB32 || !frame.isDetached()) {
        frame = QImage(m_width, m_height, QImage::Format_RGB32);
    }
    if (state.first_frame_mix < 1.0) {
        if (state.seam_jump) {
            FrameState jumped = state;
            jumped.pose.position += QVector3D(kSeamJumpRightUnits, 0.0f, kSeamJumpAheadUnits);
            m_world.render(frame, jumped);
        } else {
            m_world.render(frame, state);
        }
    }
    if (state.first_frame_mix > 0.0) {
        QPainter painter(&frame);
        painter.setOpacity(std::min(1.0, state.first_frame_mix));
        painter.drawImage(0, 0, m_first_frame);
    }
    // The client's own image is shown as sent; the world after it has the look of video.
    if (state.first_frame_mix < 1.0) {
        m_realism_pass.apply(frame, m_realism, state.world_time_s);
    }
    if (state.blur_sigma_px > 0.0) {
        blurImage(frame, state.blur_sigma_px);
    }
    if (state.warm_cast != 0.0) {
        castImage(frame, state.warm_cast);
    }

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
}

std::array<int, 3> FrameRenderer::blurBoxRadii(double sigma_px) {
    return boxRadiiForSigma(sigma_px);
}

void FrameRenderer::blurImage(QImage& image, double sigma_px) {
    if (sigma_px <= 0.0 || image.isNull()) {
        return;
    }
    Q_ASSERT(image.depth() == 32);
    QImage scratch(image.size(), image.format());
    for (const int radius : blurBoxRadii(sigma_px)) {
        if (radius > 0) {
            boxRows(image, scratch, radius);
            boxColumns(scratch, image, radius);
        }
    }
}

void FrameRenderer::castImage(QImage& image, double cast) {
    const int shift = static_cast<int>(std::lround(cast));
    if (shift == 0 || image.isNull()) {
        return;
    }
    Q_ASSERT(image.format() == QImage::Format_RGB32 || image.format() == QImage::Format_ARGB32);
    // 0xAARRGGBB words: red is bits 16-23, blue bits 0-7.
    for (int y = 0; y < image.height(); ++y) {
        auto* pixels = reinterpret_cast<quint32*>(image.scanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            const quint32 pixel = pixels[x];
            int red = static_cast<int>((pixel >> 16) & 0xFF) + shift;
            int blue = static_cast<int>(pixel & 0xFF) - shift;
            red = red < 0 ? 0 : (red > 255 ? 255 : red);
            blue = blue < 0 ? 0 : (blue > 255 ? 255 : blue);
            pixels[x] = (pixel & 0xFF00FF00u) | (static_cast<quint32>(red) << 16) |
                        static_cast<quint32>(blue);
        }
    }
}

} // namespace lbm::sim
