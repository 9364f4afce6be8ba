#include "app/sim/fmp4_encoder.h"

#include <QString>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <string>

namespace lbm::sim {
namespace {

struct CodecContextDeleter {
    void operator()(AVCodecContext* context) const { avcodec_free_context(&context); }
};
struct FrameDeleter {
    void operator()(AVFrame* frame) const { av_frame_free(&frame); }
};
struct PacketDeleter {
    void operator()(AVPacket* packet) const { av_packet_free(&packet); }
};
struct SwsDeleter {
    void operator()(SwsContext* context) const { sws_freeContext(context); }
};
struct IoContextDeleter {
    void operator()(AVIOContext* io) const {
        // The buffer may have been reallocated by avio; free the current one.
        av_freep(&io->buffer);
        avio_context_free(&io);
    }
};
struct FormatContextDeleter {
    void operator()(AVFormatContext* format) const { avformat_free_context(format); }
};
struct DictionaryDeleter {
    void operator()(AVDictionary* dictionary) const { av_dict_free(&dictionary); }
};

std::string avError(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof(text));
    return text;
}

void check(int code, const char* step) {
    if (code < 0) {
        throw Fmp4EncoderError(std::string("fMP4 encoder: ") + step + " failed: " + avError(code));
    }
}

constexpr int kIoBufferBytes = 64 * 1024;

} // namespace

struct Fmp4Encoder::State {
    QByteArray output;
    std::unique_ptr<AVCodecContext, CodecContextDeleter> codec;
    std::unique_ptr<AVFormatContext, FormatContextDeleter> format;
    std::unique_ptr<AVIOContext, IoContextDeleter> io;
    std::unique_ptr<AVFrame, FrameDeleter> frame;
    std::unique_ptr<AVPacket, PacketDeleter> packet;
    std::unique_ptr<SwsContext, SwsDeleter> scaler;
    AVStream* stream = nullptr; // owned by format

    static int writePacket(void* opaque, uint8_t* data, int size) {
        static_cast<State*>(opaque)->output.append(reinterpret_cast<const char*>(data), size);
        return size;
    }
};

Fmp4Encoder::Fmp4Encoder(int width, int height, int fps, int threads)
    : m_width(width)
    , m_height(height)
    , m_fps(fps)
    , m_state(std::make_unique<State>()) {
    if (width <= 0 || height <= 0 || width % 2 != 0 || height % 2 != 0 || fps <= 0) {
        throw Fmp4EncoderError("fMP4 encoder: width and height must be positive and even, "
                               "fps positive (got " +
                               std::to_string(width) + "x" + std::to_string(height) + " at " +
                               std::to_string(fps) + " fps)");
    }
    State& state = *m_state;
    const AVCodec* codec = avcodec_find_encoder_by_name("libx264");
    if (codec == nullptr) {
        throw Fmp4EncoderError("fMP4 encoder: libx264 is not available in this FFmpeg build; "
                               "install an FFmpeg with libx264 enabled");
    }
    state.codec.reset(avcodec_alloc_context3(codec));
    if (!state.codec) {
        throw Fmp4EncoderError("fMP4 encoder: out of memory allocating the codec context");
    }
    AVCodecContext* context = state.codec.get();
    context->width = width;
    context->height = height;
    context->pix_fmt = AV_PIX_FMT_YUV420P;
    context->time_base = AVRational{1, fps};
    context->framerate = AVRational{fps, 1};
    context->max_b_frames = 0;
    context->thread_count = threads;
    check(av_opt_set(context->priv_data, "preset", "ultrafast", 0), "setting preset");
    check(av_opt_set(context->priv_data, "tune", "zerolatency", 0), "setting tune");
    check(av_opt_set(context->priv_data, "crf", "18", 0), "setting crf");

    AVFormatContext* raw_format = nullptr;
    check(avformat_alloc_output_context2(&raw_format, nullptr, "mp4", nullptr),
          "allocating the mov muxer");
    state.format.reset(raw_format);
    if (state.format->oformat->flags & AVFMT_GLOBALHEADER) {
        context->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    }
    check(avcodec_open2(context, codec, nullptr), "opening libx264");

    state.stream = avformat_new_stream(state.format.get(), nullptr);
    if (state.stream == nullptr) {
        throw Fmp4EncoderError("fMP4 encoder: out of memory allocating the stream");
    }
    state.stream->time_base = context->time_base;
    state.stream->avg_frame_rate = context->framerate;
    check(avcodec_parameters_from_context(state.stream->codecpar, context),
          "copying codec parameters");

    auto* buffer = static_cast<unsigned char*>(av_malloc(kIoBufferBytes));
    if (buffer == nullptr) {
        throw Fmp4EncoderError("fMP4 encoder: out of memory allocating the I/O buffer");
    }
    AVIOContext* io = avio_alloc_context(buffer, kIoBufferBytes, 1, &state, nullptr,
                                         &State::writePacket, nullptr);
    if (io == nullptr) {
        av_free(buffer);
        throw Fmp4EncoderError("fMP4 encoder: out of memory allocating the I/O context");
    }
    state.io.reset(io);
    state.format->pb = io;
    state.format->flags |= AVFMT_FLAG_CUSTOM_IO;

    AVDictionary* raw_options = nullptr;
    av_dict_set(&raw_options, "movflags", "+frag_every_frame+empty_moov+default_base_moof", 0);
    const int header = avformat_write_header(state.format.get(), &raw_options);
    std::unique_ptr<AVDictionary, DictionaryDeleter> options(raw_options);
    check(header, "writing the init segment");
    avio_flush(io);

    state.frame.reset(av_frame_alloc());
    state.packet.reset(av_packet_alloc());
    if (!state.frame || !state.packet) {
        throw Fmp4EncoderError("fMP4 encoder: out of memory allocating frame buffers");
    }
    state.frame->format = AV_PIX_FMT_YUV420P;
    state.frame->width = width;
    state.frame->height = height;
    check(av_frame_get_buffer(state.frame.get(), 0), "allocating the YUV frame");
    state.scaler.reset(sws_getContext(width, height, AV_PIX_FMT_RGB32, width, height,
                                      AV_PIX_FMT_YUV420P, SWS_BILINEAR, nullptr, nullptr, nullptr));
    if (!state.scaler) {
        throw Fmp4EncoderError("fMP4 encoder: libswscale cannot convert RGB to yuv420p");
    }
}

Fmp4Encoder::~Fmp4Encoder() = default;

QByteArray Fmp4Encoder::encode(const QImage& frame) {
    if (m_finished) {
        throw Fmp4EncoderError("fMP4 encoder: encode() called after finish()");
    }
    State& state = *m_state;
    QImage rgb = frame.format() == QImage::Format_RGB32
                     ? frame
                     : frame.convertToFormat(QImage::Format_RGB32);
    if (rgb.width() != m_width || rgb.height() != m_height) {
        rgb = rgb.scaled(m_width, m_height, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    }
    // The encoder may still reference the previous frame's buffers.
    check(av_frame_make_writable(state.frame.get()), "making the frame writable");
    const uint8_t* source[4] = {rgb.constBits(), nullptr, nullptr, nullptr};
    const int source_stride[4] = {static_cast<int>(rgb.bytesPerLine()), 0, 0, 0};
    sws_scale(state.scaler.get(), source, source_stride, 0, m_height, state.frame->data,
              state.frame->linesize);
    state.frame->pts = m_frames_encoded;
    check(avcodec_send_frame(state.codec.get(), state.frame.get()), "encoding a frame");
    ++m_frames_encoded;
    drainPackets();
    return takeOutput();
}

QByteArray Fmp4Encoder::finish() {
    if (m_finished) {
        throw Fmp4EncoderError("fMP4 encoder: finish() called twice");
    }
    m_finished = true;
    check(avcodec_send_frame(m_state->codec.get(), nullptr), "flushing libx264");
    drainPackets();
    check(av_write_trailer(m_state->format.get()), "writing the trailer");
    return takeOutput();
}

void Fmp4Encoder::drainPackets() {
    State& state = *m_state;
    for (;;) {
        const int received = avcodec_receive_packet(state.codec.get(), state.packet.get());
        if (received == AVERROR(EAGAIN) || received == AVERROR_EOF) {
            return;
        }
        check(received, "receiving a packet");
        av_packet_rescale_ts(state.packet.get(), state.codec->time_base, state.stream->time_base);
        state.packet->stream_index = state.stream->index;
        // Not av_write_frame(nullptr): that would close the open fragment early and break
        // the server's one-frame lag. Only the AVIO buffer is flushed.
        const int written = av_write_frame(state.format.get(), state.packet.get());
        av_packet_unref(state.packet.get());
        check(written, "muxing a packet");
    }
}

QByteArray Fmp4Encoder::takeOutput() {
    avio_flush(m_state->io.get());
    QByteArray bytes;
    bytes.swap(m_state->output);
    return bytes;
}

} // namespace lbm::sim
