#pragma once
// One decoded picture and where it came from. The pixels stay in FFmpeg's reference-counted
// YUV buffers (no copy on the decoder thread, cheap luma access for barcodes and checksums);
// toImage() converts to an RGB32 QImage with libswscale when a view needs one. Copies share
// the same immutable buffers, so a DecodedFrame can cross threads freely.

#include "app/media/frame_tag.h"

#include <QImage>
#include <QtGlobal>

#include <cstdint>
#include <memory>

struct AVFrame;

namespace lbm::media {

class DecodedFrame {
public:
    DecodedFrame() = default;
    // Takes a reference to frame's buffers (av_frame_ref), never a pixel copy.
    DecodedFrame(const AVFrame* frame, const FrameTag& tag);
    // A placed frame without a picture: what schedules and queues are tested with.
    explicit DecodedFrame(const FrameTag& tag)
        : m_tag(tag) {}

    const FrameTag& tag() const { return m_tag; }
    qint64 globalFrameNumber() const { return m_tag.global_frame_number; }

    bool isNull() const { return !m_frame; }
    int width() const;
    int height() const;
    // The Y plane (8-bit, yuv420p as the server encodes); valid while this object lives.
    const uint8_t* lumaData() const;
    int lumaStride() const;
    // FNV-1a over the visible luma samples: equal for bit-identical decodes, so it proves a
    // stream copy did not re-encode.
    quint64 lumaChecksum() const;
    // How toImage(size) scales. ViaYuv scales the yuv420p planes, then converts at the new
    // size: both steps have libswscale's SIMD code, where scaling straight to RGB runs its C
    // output path. It needs an even target size and falls back to Direct otherwise.
    // lbm_decode_benchmark prints the ratio (ViaYuv 2-3x cheaper at 640-1280 px wide).
    enum class ScalePath { ViaYuv, Direct };
    // An RGB32 copy at the frame's size, or scaled to size (libswscale, bilinear). Views call
    // it on a thread of their own at display rate, never the decoder's.
    QImage toImage() const;
    QImage toImage(const QSize& size, ScalePath path = ScalePath::ViaYuv) const;
    const AVFrame* avFrame() const { return m_frame.get(); }

private:
    FrameTag m_tag;
    std::shared_ptr<const AVFrame> m_frame;
};

} // namespace lbm::media
