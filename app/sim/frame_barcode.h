#pragma once
// Stamps a frame with its global frame number in a form that survives H.264 (crf 18,
// yuv420p), so a test, a screenshot or a recording can prove which frame it is looking at.
//
// Layout: a band of kBarcodeCells equal-width cells along the bottom kBarcodeBandHeight
// rows: 4 start-marker cells (white, black, white, black), 40 data bits (most significant
// first, white = 1), then a CRC-8 of the five data bytes. Cells at 832 px are 16 px wide,
// so each one covers whole 16x16 macroblocks and its centre is far from any chroma or
// deblocking bleed.

#include <QImage>

#include <cstdint>
#include <optional>

namespace lbm::sim {

inline constexpr int kBarcodeCells = 52;
inline constexpr int kBarcodeDataBits = 40;
inline constexpr int kBarcodeBandHeight = 16;

// Paints the band over the bottom rows of image (any RGB/ARGB format). frame_number must
// fit in 40 bits; higher bits are dropped.
void drawFrameBarcode(QImage& image, qint64 frame_number);
// Reads the band back from a (decoded) RGB image; nullopt when no valid band is found.
std::optional<qint64> readFrameBarcode(const QImage& image);
// The same from a luma (Y) plane, e.g. an AVFrame's data[0] / linesize[0].
std::optional<qint64> readFrameBarcodeLuma(const uint8_t* luma, int stride, int width, int height);

} // namespace lbm::sim
