#include "app/playback/video_frame_factory.h"

#include <QVideoFrameFormat>

#include <algorithm>
#include <cstring>

namespace lbm::playback {

QVideoFrame videoFrameFromImage(const QImage& image) {
    if (image.isNull()) {
        return {};
    }
    // QImage's RGB32 is 0xffRRGGBB in native (little-endian) order: B, G, R, X in memory.
    const bool has_alpha = image.hasAlphaChannel();
    const QImage source = image.convertToFormat(has_alpha ? QImage::Format_ARGB32_Premultiplied
                                                          : QImage::Format_RGB32);
    const auto pixel_format = has_alpha ? QVideoFrameFormat::Format_BGRA8888_Premultiplied
                                        : QVideoFrameFormat::Format_BGRX8888;
    QVideoFrame frame(QVideoFrameFormat(source.size(), pixel_format));
    if (!frame.map(QVideoFrame::WriteOnly)) {
        return {};
    }
    const int row_bytes =
        std::min<int>(static_cast<int>(source.bytesPerLine()), frame.bytesPerLine(0));
    uchar* destination = frame.bits(0);
    for (int y = 0; y < source.height(); ++y) {
        std::memcpy(destination + static_cast<qsizetype>(y) * frame.bytesPerLine(0),
                    source.constScanLine(y), static_cast<size_t>(row_bytes));
    }
    frame.unmap();
    return frame;
}

} // namespace lbm::playback
