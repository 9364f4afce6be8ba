#include "app/media/decoded_frame.h"

#include "app/media/av_ptr.h"

namespace lbm::media {

DecodedFrame::DecodedFrame(const AVFrame* frame, const FrameTag& tag)
    : m_tag(tag) {
    AvFramePtr reference(av_frame_alloc());
    if (reference && av_frame_ref(reference.get(), frame) >= 0) {
        m_frame = std::shared_ptr<const AVFrame>(reference.release(), [](const AVFrame* f) {
            auto* owned = const_cast<AVFrame*>(f);
            av_frame_free(&owned);
        });
    }
}

int DecodedFrame::width() const {
    return m_frame ? m_frame->width : 0;
}

int DecodedFrame::height() const {
    return m_frame ? m_frame->height : 0;
}

const uint8_t* DecodedFrame::lumaData() const {
    return m_frame ? m_frame->data[0] : nullptr;
}

int DecodedFrame::lumaStride() const {
    return m_frame ? m_frame->linesize[0] : 0;
}

quint64 DecodedFrame::lumaChecksum() const {
    quint64 hash = 1469598103934665603ULL;
    if (!m_frame) {
        return hash;
    }
    for (int y = 0; y < m_frame->height; ++y) {
        const uint8_t* row =
            m_frame->data[0] + static_cast<std::ptrdiff_t>(y) * m_frame->linesize[0];
        for (int x = 0; x < m_frame->width; ++x) {
            hash = (hash ^ row[x]) * 1099511628211ULL;
        }
    }
    return hash;
}

QImage DecodedFrame::toImage() const {
    return toImage(QSize(width(), height()));
}

QImage DecodedFrame::toImage(const QSize& size) const {
    if (!m_frame || size.isEmpty()) {
        return {};
    }
    // One cached scaler per thread: each view converts on a thread of its own.
    thread_local SwsContextPtr scaler;
    SwsContext* context = sws_getCachedContext(scaler.release(), m_frame->width, m_frame->height,
                                               static_cast<AVPixelFormat>(m_frame->format),
                                               size.width(), size.height(), AV_PIX_FMT_RGB32,
                                               SWS_BILINEAR, nullptr, nullptr, nullptr);
    scaler.reset(context);
    if (context == nullptr) {
        return {};
    }
    QImage image(size, QImage::Format_RGB32);
    if (image.isNull()) {
        return {};
    }
    uint8_t* destination[4] = {image.bits(), nullptr, nullptr, nullptr};
    const int destination_stride[4] = {static_cast<int>(image.bytesPerLine()), 0, 0, 0};
    sws_scale(context, m_frame->data, m_frame->linesize, 0, m_frame->height, destination,
              destination_stride);
    return image;
}

} // namespace lbm::media
