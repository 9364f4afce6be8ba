#include "app/sim/frame_barcode.h"

#include <QPainter>

#include <algorithm>
#include <array>
#include <functional>

namespace lbm::sim {
namespace {

constexpr std::array<int, 4> kStartMarker = {1, 0, 1, 0};
constexpr int kCrcBits = 8;
static_assert(kStartMarker.size() + kBarcodeDataBits + kCrcBits == kBarcodeCells);

uint8_t crc8(uint64_t value) {
    // CRC-8/ATM (poly 0x07) over the five data bytes, most significant first.
    uint8_t crc = 0;
    for (int byte = 4; byte >= 0; --byte) {
        crc ^= static_cast<uint8_t>((value >> (8 * byte)) & 0xFF);
        for (int bit = 0; bit < 8; ++bit) {
            crc = (crc & 0x80) ? static_cast<uint8_t>((crc << 1) ^ 0x07)
                               : static_cast<uint8_t>(crc << 1);
        }
    }
    return crc;
}

std::array<int, kBarcodeCells> cellBits(uint64_t value) {
    std::array<int, kBarcodeCells> bits{};
    int cell = 0;
    for (int marker : kStartMarker) {
        bits[cell++] = marker;
    }
    for (int bit = kBarcodeDataBits - 1; bit >= 0; --bit) {
        bits[cell++] = static_cast<int>((value >> bit) & 1);
    }
    const uint8_t crc = crc8(value);
    for (int bit = kCrcBits - 1; bit >= 0; --bit) {
        bits[cell++] = (crc >> bit) & 1;
    }
    return bits;
}

// Averages a small window around each cell centre, thresholds halfway between the
// black and white levels and checks marker and CRC; sample(x, y) returns 0..255 luma.
std::optional<qint64> decodeBand(int width, int height,
                                 const std::function<int(int, int)>& sample) {
    const int cell_width = width / kBarcodeCells;
    if (cell_width < 4 || height < kBarcodeBandHeight) {
        return std::nullopt;
    }
    const int centre_y = height - kBarcodeBandHeight / 2;
    const int half = std::max(1, cell_width / 4);
    std::array<int, kBarcodeCells> bits{};
    for (int cell = 0; cell < kBarcodeCells; ++cell) {
        const int centre_x = cell * cell_width + cell_width / 2;
        int sum = 0;
        int count = 0;
        for (int y = centre_y - half; y < centre_y + half; ++y) {
            for (int x = centre_x - half; x < centre_x + half; ++x) {
                sum += sample(x, y);
                ++count;
            }
        }
        bits[cell] = (sum / count) >= 128 ? 1 : 0;
    }
    for (size_t i = 0; i < kStartMarker.size(); ++i) {
        if (bits[i] != kStartMarker[i]) {
            return std::nullopt;
        }
    }
    uint64_t value = 0;
    for (int bit = 0; bit < kBarcodeDataBits; ++bit) {
        value = (value << 1) | static_cast<uint64_t>(bits[kStartMarker.size() + bit]);
    }
    int crc = 0;
    for (int bit = 0; bit < kCrcBits; ++bit) {
        crc = (crc << 1) | bits[kStartMarker.size() + kBarcodeDataBits + bit];
    }
    if (crc != crc8(value)) {
        return std::nullopt;
    }
    return static_cast<qint64>(value);
}

} // namespace

void drawFrameBarcode(QImage& image, qint64 frame_number) {
    const int cell_width = image.width() / kBarcodeCells;
    if (cell_width < 1 || image.height() < kBarcodeBandHeight) {
        return;
    }
    const uint64_t value =
        static_cast<uint64_t>(frame_number) & ((uint64_t{1} << kBarcodeDataBits) - 1);
    const auto bits = cellBits(value);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing, false);
    const int top = image.height() - kBarcodeBandHeight;
    // Cells cover only width / 52 * 52 pixels; the rest of the row stays black.
    painter.fillRect(QRect(0, top, image.width(), kBarcodeBandHeight), Qt::black);
    for (int cell = 0; cell < kBarcodeCells; ++cell) {
        if (bits[cell] != 0) {
            painter.fillRect(QRect(cell * cell_width, top, cell_width, kBarcodeBandHeight),
                             Qt::white);
        }
    }
}

std::optional<qint64> readFrameBarcode(const QImage& image) {
    if (image.isNull()) {
        return std::nullopt;
    }
    const QImage rgb =
        image.format() == QImage::Format_RGB32 || image.format() == QImage::Format_ARGB32
            ? image
            : image.convertToFormat(QImage::Format_RGB32);
    return decodeBand(rgb.width(), rgb.height(), [&rgb](int x, int y) {
        const QRgb pixel = rgb.pixel(x, y);
        // BT.601 luma weights, matching how the band was encoded to Y.
        return (299 * qRed(pixel) + 587 * qGreen(pixel) + 114 * qBlue(pixel)) / 1000;
    });
}

std::optional<qint64> readFrameBarcodeLuma(const uint8_t* luma, int stride, int width, int height) {
    if (luma == nullptr || stride < width) {
        return std::nullopt;
    }
    // Limited-range Y (16..235) still straddles 128, so one threshold serves both ranges.
    return decodeBand(width, height,
                      [luma, stride](int x, int y) { return int{luma[y * stride + x]}; });
}

} // namespace lbm::sim
