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

namespace {

// Converts (and scales, when sizes differ) source to an RGB32 image of size with a scaler
// cached per thread and per slot: each view converts on a thread of its own.
QImage toRgb(const AVFrame& source, const QSize& size, SwsContextPtr& scaler) {
    SwsContext* context = sws_getCachedContext(
        scaler.release(), source.width, source.height, static_cast<AVPixelFormat>(source.format),
        size.width(), size.height(), AV_PIX_FMT_RGB32, SWS_BILINEAR, nullptr, nullptr, nullptr);
    scaler.reset(context);
    if (context == nullptr) {
        return {};
    }
    // libswscale's SIMD converters write whole blocks of 8 pixels: past the end of a row
    // whose width is not a multiple of 8, and past the end of the last row (valgrind showed
    // it overrunning a plain QImage). Rows are padded to 16 pixels, with a block to spare.
    const int stride = ((size.width() + 15) & ~15) * 4;
    const std::size_t bytes = static_cast<std::size_t>(stride) * size.height() + 64;
    auto* pixels = static_cast<uchar*>(av_malloc(bytes));
    if (pixels == nullptr) {
        return {};
    }
    QImage image(pixels, size.width(), size.height(), stride, QImage::Format_RGB32, av_free,
                 pixels);
    uint8_t* destination[4] = {pixels, nullptr, nullptr, nullptr};
    const int destination_stride[4] = {stride, 0, 0, 0};
    sws_scale(context, source.data, source.linesize, 0, source.height, destination,
              destination_stride);
    return image;
}

// The source's planes scaled to size in yuv420p (into a buffer reused per thread), or null.
const AVFrame* scaledYuv(const AVFrame& source, const QSize& size) {
    thread_local SwsContextPtr scaler;
    thread_local AvFramePtr scaled;
    if (!scaled || scaled->width != size.width() || scaled->height != size.height()) {
        scaled.reset(av_frame_alloc());
        if (!scaled) {
            return nullptr;
        }
        scaled->format = AV_PIX_FMT_YUV420P;
        scaled->width = size.width();
        scaled->height = size.height();
        if (av_frame_get_buffer(scaled.get(), 0) < 0) {
            scaled.reset();
            return nullptr;
        }
    }
    SwsContext* context = sws_getCachedContext(
        scaler.release(), source.width, source.height, static_cast<AVPixelFormat>(source.format),
        size.width(), size.height(), AV_PIX_FMT_YUV420P, SWS_BILINEAR, nullptr, nullptr, nullptr);
    scaler.reset(context);
    if (context == nullptr) {
        return nullptr;
    }
    sws_scale(context, source.data, source.linesize, 0, source.height, scaled->data,
              scaled->linesize);
    return scaled.get();
}

} // namespace

QImage DecodedFrame::toImage(const QSize& size, ScalePath path) const {
    if (!m_frame || size.isEmpty()) {
        return {};
    }
    thread_local SwsContextPtr direct_scaler;
    thread_local SwsContextPtr native_converter;
    thread_local SwsContextPtr scaled_converter;
    const bool scales = size != QSize(m_frame->width, m_frame->height);
    // libswscale's SIMD yuv420p-to-RGB converter takes even sizes only.
    const bool via_yuv = path == ScalePath::ViaYuv && scales &&
                         m_frame->format == AV_PIX_FMT_YUV420P && size.width() % 2 == 0 &&
                         size.height() % 2 == 0;
    if (via_yuv) {
        if (const AVFrame* scaled = scaledYuv(*m_frame, size)) {
            return toRgb(*scaled, size, scaled_converter);
        }
    }
    return toRgb(*m_frame, size, scales ? direct_scaler : native_converter);
}

} // namespace lbm::media
