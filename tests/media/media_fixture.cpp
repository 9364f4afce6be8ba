#include "media_fixture.h"

#include "app/media/av_ptr.h"
#include "app/sim/fmp4_encoder.h"
#include "app/sim/frame_barcode.h"

#include <QFile>
#include <QImage>
#include <QPainter>

#include <catch2/catch.hpp>

#include <chrono>

namespace lbm::media::test {
namespace {

// A moving picture, so P-frames carry real residuals like generated video does.
QImage makeFrame(qint64 number) {
    QImage image(832, 480, QImage::Format_RGB32);
    for (int y = 0; y < image.height(); ++y) {
        auto* row = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            row[x] =
                qRgb((x + static_cast<int>(number) * 5) & 0xff, (y * 2) & 0xff, (x + y) & 0xff);
        }
    }
    QPainter painter(&image);
    painter.fillRect(static_cast<int>(40 + number * 11) % 700, 120, 90, 90, QColor(240, 200, 30));
    painter.end();
    sim::drawFrameBarcode(image, number);
    return image;
}

quint64 lumaChecksum(const AVFrame* frame) {
    quint64 hash = 1469598103934665603ULL;
    for (int y = 0; y < frame->height; ++y) {
        const uint8_t* row = frame->data[0] + static_cast<std::ptrdiff_t>(y) * frame->linesize[0];
        for (int x = 0; x < frame->width; ++x) {
            hash = (hash ^ row[x]) * 1099511628211ULL;
        }
    }
    return hash;
}

} // namespace

QByteArray EncodedStream::concatenated() const {
    QByteArray all;
    for (const EncodedChunk& chunk : chunks) {
        all += chunk.bytes;
    }
    return all;
}

EncodedStream encodeStream(const std::vector<int>& frames_per_chunk) {
    // libx264's banner and the decoder's complaints about deliberately damaged input are
    // noise here; the tests check the messages the media layer itself produces.
    av_log_set_level(AV_LOG_QUIET);
    sim::Fmp4Encoder encoder(832, 480, 16);
    EncodedStream stream;
    qint64 number = 0;
    for (size_t index = 0; index < frames_per_chunk.size(); ++index) {
        EncodedChunk chunk;
        chunk.info.transport_index = static_cast<qint64>(index);
        chunk.info.generation_index = static_cast<qint64>(index);
        chunk.info.num_frames = frames_per_chunk[index];
        chunk.info.kind = ChunkKind::Media;
        for (int i = 0; i < frames_per_chunk[index]; ++i) {
            chunk.bytes += encoder.encode(makeFrame(number++));
        }
        stream.chunks.push_back(chunk);
    }
    EncodedChunk trailer;
    trailer.info.transport_index = static_cast<qint64>(frames_per_chunk.size());
    trailer.info.num_frames = 0;
    trailer.info.kind = ChunkKind::Trailer;
    trailer.bytes = encoder.finish();
    stream.chunks.push_back(trailer);
    stream.total_frames = number;
    return stream;
}

std::vector<DecodedFrame> drainFrames(StreamDecoder& decoder, int timeout_ms) {
    std::vector<DecodedFrame> frames;
    for (;;) {
        auto frame = decoder.popFrame(timeout_ms);
        if (!frame) {
            INFO("decoder state " << static_cast<int>(decoder.stats().state));
            CHECK((decoder.isDrained() || decoder.stats().state != DecoderState::Running));
            return frames;
        }
        frames.push_back(*frame);
    }
}

qint64 barcodeOf(const DecodedFrame& frame) {
    return sim::readFrameBarcodeLuma(frame.lumaData(), frame.lumaStride(), frame.width(),
                                     frame.height())
        .value_or(-1);
}

FileDecode decodeFile(const QString& path) {
    FileDecode result;
    AVFormatContext* raw = nullptr;
    const QByteArray name = QFile::encodeName(path);
    if (avformat_open_input(&raw, name.constData(), nullptr, nullptr) < 0) {
        result.error = QStringLiteral("cannot open ") % path;
        return result;
    }
    AvInputFormatContextPtr format(raw);
    const int index = av_find_best_stream(format.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (index < 0) {
        result.error = QStringLiteral("no video stream");
        return result;
    }
    const AVCodec* decoder = avcodec_find_decoder(format->streams[index]->codecpar->codec_id);
    AvCodecContextPtr codec(avcodec_alloc_context3(decoder));
    avcodec_parameters_to_context(codec.get(), format->streams[index]->codecpar);
    codec->thread_count = 1;
    if (avcodec_open2(codec.get(), decoder, nullptr) < 0) {
        result.error = QStringLiteral("cannot open decoder");
        return result;
    }
    AvPacketPtr packet(av_packet_alloc());
    AvFramePtr frame(av_frame_alloc());
    const auto receive = [&] {
        while (avcodec_receive_frame(codec.get(), frame.get()) >= 0) {
            result.luma_checksums.push_back(lumaChecksum(frame.get()));
            result.barcodes.push_back(sim::readFrameBarcodeLuma(frame->data[0], frame->linesize[0],
                                                                frame->width, frame->height)
                                          .value_or(-1));
            av_frame_unref(frame.get());
        }
    };
    while (av_read_frame(format.get(), packet.get()) >= 0) {
        if (packet->stream_index == index) {
            avcodec_send_packet(codec.get(), packet.get());
            receive();
        }
        av_packet_unref(packet.get());
    }
    avcodec_send_packet(codec.get(), nullptr);
    receive();
    return result;
}

} // namespace lbm::media::test
