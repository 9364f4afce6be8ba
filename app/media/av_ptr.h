#pragma once
// unique_ptr aliases that pair every FFmpeg object the media layer owns with its matching
// free function, so an early return or an exception can never leak a context or a frame.

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/frame.h>
#include <libavutil/mem.h>
#include <libswscale/swscale.h>
}

#include <memory>

namespace lbm::media {

struct AvFrameDeleter {
    void operator()(AVFrame* frame) const { av_frame_free(&frame); }
};
struct AvPacketDeleter {
    void operator()(AVPacket* packet) const { av_packet_free(&packet); }
};
struct AvCodecContextDeleter {
    void operator()(AVCodecContext* context) const { avcodec_free_context(&context); }
};
// For contexts opened with avformat_open_input (it also frees the context).
struct AvInputFormatContextDeleter {
    void operator()(AVFormatContext* context) const { avformat_close_input(&context); }
};
// For muxer contexts: closes the file avio_open opened unless the caller owns the I/O.
struct AvOutputFormatContextDeleter {
    void operator()(AVFormatContext* context) const {
        if (context->pb != nullptr && !(context->flags & AVFMT_FLAG_CUSTOM_IO) &&
            !(context->oformat->flags & AVFMT_NOFILE)) {
            avio_closep(&context->pb);
        }
        avformat_free_context(context);
    }
};
// avio may replace the buffer it was given, so the current one is freed, not the original.
struct AvIoContextDeleter {
    void operator()(AVIOContext* io) const {
        av_freep(&io->buffer);
        avio_context_free(&io);
    }
};
struct AvDictionaryDeleter {
    void operator()(AVDictionary* dictionary) const { av_dict_free(&dictionary); }
};
struct SwsContextDeleter {
    void operator()(SwsContext* context) const { sws_freeContext(context); }
};

using AvFramePtr = std::unique_ptr<AVFrame, AvFrameDeleter>;
using AvPacketPtr = std::unique_ptr<AVPacket, AvPacketDeleter>;
using AvCodecContextPtr = std::unique_ptr<AVCodecContext, AvCodecContextDeleter>;
using AvInputFormatContextPtr = std::unique_ptr<AVFormatContext, AvInputFormatContextDeleter>;
using AvOutputFormatContextPtr = std::unique_ptr<AVFormatContext, AvOutputFormatContextDeleter>;
using AvIoContextPtr = std::unique_ptr<AVIOContext, AvIoContextDeleter>;
using AvDictionaryPtr = std::unique_ptr<AVDictionary, AvDictionaryDeleter>;
using SwsContextPtr = std::unique_ptr<SwsContext, SwsContextDeleter>;

} // namespace lbm::media
