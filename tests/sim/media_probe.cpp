#include "tests/sim/media_probe.h"

#include "app/sim/frame_barcode.h"

#include <QtEndian>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
}

#include <algorithm>
#include <cstring>
#include <memory>

namespace lbm::sim::test {
namespace {

struct MemoryReader {
    const QByteArray* bytes;
    qint64 position = 0;

    static int read(void* opaque, uint8_t* buffer, int size) {
        auto* reader = static_cast<MemoryReader*>(opaque);
        const qint64 left = reader->bytes->size() - reader->position;
        if (left <= 0) {
            return AVERROR_EOF;
        }
        const int count = static_cast<int>(std::min<qint64>(left, size));
        std::memcpy(buffer, reader->bytes->constData() + reader->position, count);
        reader->position += count;
        return count;
    }
    static int64_t seek(void* opaque, int64_t offset, int whence) {
        auto* reader = static_cast<MemoryReader*>(opaque);
        if (whence == AVSEEK_SIZE) {
            return reader->bytes->size();
        }
        whence &= ~AVSEEK_FORCE;
        const qint64 base = whence == SEEK_SET
                                ? 0
                                : (whence == SEEK_CUR ? reader->position : reader->bytes->size());
        const qint64 target = base + offset;
        if (target < 0 || target > reader->bytes->size()) {
            return AVERROR(EINVAL);
        }
        reader->position = target;
        return target;
    }
};

struct InputDeleter {
    void operator()(AVFormatContext* format) const { avformat_close_input(&format); }
};
struct IoDeleter {
    void operator()(AVIOContext* io) const {
        av_freep(&io->buffer);
        avio_context_free(&io);
    }
};
struct CodecDeleter {
    void operator()(AVCodecContext* codec) const { avcodec_free_context(&codec); }
};
struct FrameDeleter {
    void operator()(AVFrame* frame) const { av_frame_free(&frame); }
};
struct PacketDeleter {
    void operator()(AVPacket* packet) const { av_packet_free(&packet); }
};

QString avText(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof(text));
    return QString::fromUtf8(text);
}

} // namespace

QStringList topLevelBoxes(const QByteArray& bytes) {
    QStringList boxes;
    qint64 offset = 0;
    while (offset + 8 <= bytes.size()) {
        const auto* data = reinterpret_cast<const uchar*>(bytes.constData() + offset);
        qint64 size = qFromBigEndian<quint32>(data);
        if (size == 1 && offset + 16 <= bytes.size()) {
            size = static_cast<qint64>(qFromBigEndian<quint64>(data + 8));
        } else if (size == 0) {
            size = bytes.size() - offset;
        }
        if (size < 8 || offset + size > bytes.size()) {
            break;
        }
        boxes.append(QString::fromLatin1(bytes.constData() + offset + 4, 4));
        offset += size;
    }
    return boxes;
}

int countBoxes(const QStringList& boxes, const QString& type) {
    return static_cast<int>(std::count(boxes.cbegin(), boxes.cend(), type));
}

DecodedStream decodeStream(const QByteArray& bytes, bool keep_luma) {
    DecodedStream result;
    MemoryReader reader{&bytes};
    constexpr int kBufferBytes = 32 * 1024;
    auto* buffer = static_cast<unsigned char*>(av_malloc(kBufferBytes));
    std::unique_ptr<AVIOContext, IoDeleter> io(avio_alloc_context(
        buffer, kBufferBytes, 0, &reader, &MemoryReader::read, nullptr, &MemoryReader::seek));
    AVFormatContext* raw_format = avformat_alloc_context();
    raw_format->pb = io.get();
    raw_format->flags |= AVFMT_FLAG_CUSTOM_IO;
    if (const int opened = avformat_open_input(&raw_format, nullptr, nullptr, nullptr);
        opened < 0) {
        result.error = QStringLiteral("open: ") + avText(opened);
        return result;
    }
    std::unique_ptr<AVFormatContext, InputDeleter> format(raw_format);
    if (const int info = avformat_find_stream_info(format.get(), nullptr); info < 0) {
        result.error = QStringLiteral("stream info: ") + avText(info);
        return result;
    }
    const AVCodec* decoder = nullptr;
    const int stream_index =
        av_find_best_stream(format.get(), AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (stream_index < 0 || decoder == nullptr) {
        result.error = QStringLiteral("no video stream");
        return result;
    }
    std::unique_ptr<AVCodecContext, CodecDeleter> codec(avcodec_alloc_context3(decoder));
    avcodec_parameters_to_context(codec.get(), format->streams[stream_index]->codecpar);
    if (const int opened = avcodec_open2(codec.get(), decoder, nullptr); opened < 0) {
        result.error = QStringLiteral("decoder: ") + avText(opened);
        return result;
    }
    std::unique_ptr<AVFrame, FrameDeleter> frame(av_frame_alloc());
    std::unique_ptr<AVPacket, PacketDeleter> packet(av_packet_alloc());
    const auto receiveAll = [&]() {
        while (avcodec_receive_frame(codec.get(), frame.get()) >= 0) {
            result.width = frame->width;
            result.height = frame->height;
            const auto value = readFrameBarcodeLuma(frame->data[0], frame->linesize[0],
                                                    frame->width, frame->height);
            result.barcodes.push_back(value.value_or(-1));
            if (keep_luma) {
                const int step = DecodedStream::kLumaStep;
                result.luma_width = frame->width / step;
                result.luma_height = frame->height / step;
                std::vector<quint8> small(static_cast<size_t>(result.luma_width) *
                                          static_cast<size_t>(result.luma_height));
                for (int y = 0; y < result.luma_height; ++y) {
                    const quint8* row =
                        frame->data[0] + static_cast<ptrdiff_t>(y) * step * frame->linesize[0];
                    for (int x = 0; x < result.luma_width; ++x) {
                        small[static_cast<size_t>(y * result.luma_width + x)] = row[x * step];
                    }
                }
                result.luma.push_back(std::move(small));
            }
            av_frame_unref(frame.get());
        }
    };
    while (av_read_frame(format.get(), packet.get()) >= 0) {
        if (packet->stream_index == stream_index) {
            avcodec_send_packet(codec.get(), packet.get());
            receiveAll();
        }
        av_packet_unref(packet.get());
    }
    avcodec_send_packet(codec.get(), nullptr);
    receiveAll();
    return result;
}

} // namespace lbm::sim::test
