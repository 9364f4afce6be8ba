// The incremental decoder against server-faithful streams: frame counts, order (barcodes),
// chunk tags, the one-frame lag, corrupt input, abort and backpressure.

#include "app/media/stream_decoder.h"
#include "app/sim/frame_barcode.h"
#include "media_fixture.h"

#include <QElapsedTimer>
#include <QtCore/qtestsupport_core.h> // QTest::qWaitFor

#include <catch2/catch.hpp>

#include <random>

using namespace lbm::media;
using lbm::ChunkIdentity;
using lbm::ChunkKind;
using lbm::media::test::barcodeOf;
using lbm::media::test::drainFrames;
using lbm::media::test::EncodedStream;
using lbm::media::test::encodeStream;

namespace {

const EncodedStream& standardStream() {
    static const EncodedStream stream = encodeStream({9, 12, 12});
    return stream;
}

void pushAll(StreamDecoder& decoder, const EncodedStream& stream) {
    for (const auto& chunk : stream.chunks) {
        decoder.pushChunk(chunk.info, chunk.bytes);
    }
    decoder.finish();
}

// Every frame in order, numbered 0.., tagged with the chunk num_frames assigns it to.
void checkStandardFrames(const std::vector<DecodedFrame>& frames) {
    REQUIRE(frames.size() == 33);
    const int first_in_chunk[] = {0, 9, 21};
    for (size_t i = 0; i < frames.size(); ++i) {
        const FrameTag& tag = frames[i].tag();
        INFO("frame " << i);
        CHECK(barcodeOf(frames[i]) == static_cast<qint64>(i));
        CHECK(tag.global_frame_number == static_cast<qint64>(i));
        const int chunk = i < 9 ? 0 : (i < 21 ? 1 : 2);
        REQUIRE(tag.chunk.has_value());
        CHECK(tag.chunk->transport_index == chunk);
        CHECK(tag.generationIndex() == std::optional<qint64>(chunk));
        CHECK(tag.chunk->num_frames == (chunk == 0 ? 9 : 12));
        CHECK(tag.index_in_chunk == static_cast<int>(i) - first_in_chunk[chunk]);
        CHECK(tag.pts_s == Approx(static_cast<double>(i) / 16.0));
        CHECK(frames[i].width() == 832);
        CHECK(frames[i].height() == 480);
    }
    // The lag: a chunk's last frame travels in the next payload (the trailer for the last).
    CHECK(frames[8].tag().carried_by_transport_index == 1);
    CHECK(frames[7].tag().carried_by_transport_index == 0);
    CHECK(frames[20].tag().carried_by_transport_index == 2);
    CHECK(frames[32].tag().carried_by_transport_index == 3);
}

} // namespace

TEST_CASE("A 9+12+12+trailer stream pushed chunk by chunk decodes every frame in order",
          "[media][decoder]") {
    StreamDecoder decoder;
    pushAll(decoder, standardStream());
    const auto frames = drainFrames(decoder);
    checkStandardFrames(frames);
    const DecoderStats stats = decoder.stats();
    CHECK(stats.state == DecoderState::Finished);
    CHECK(stats.frames_expected == 33);
    CHECK(stats.frames_decoded == 33);
    CHECK(stats.frames_corrupt == 0);
    CHECK(stats.frames_unexpected == 0);
    CHECK(stats.error_count == 0);
    CHECK(stats.first_error.isEmpty());
    CHECK(stats.chunks_pushed == 4);
    CHECK(stats.bytes_read == standardStream().concatenated().size());
    CHECK(stats.bytes_pending == 0);
}

TEST_CASE("Bytes pushed in random small slices across box boundaries decode the same",
          "[media][decoder]") {
    std::mt19937 random(20260512);
    std::uniform_int_distribution<int> slice_bytes(1, 700);
    StreamDecoder decoder;
    for (const auto& chunk : standardStream().chunks) {
        for (qsizetype at = 0; at < chunk.bytes.size();) {
            const qsizetype size =
                std::min<qsizetype>(slice_bytes(random), chunk.bytes.size() - at);
            decoder.pushChunk(chunk.info, chunk.bytes.mid(at, size));
            at += size;
        }
    }
    decoder.finish();
    checkStandardFrames(drainFrames(decoder));
    CHECK(decoder.stats().frames_expected == 33);
    CHECK(decoder.stats().chunks_pushed == 4);
}

TEST_CASE(
    "Frames leave the decoder as their bytes land, and a chunk's last frame waits for the next "
    "payload",
    "[media][decoder]") {
    const EncodedStream& stream = standardStream();
    StreamDecoder decoder;
    std::vector<DecodedFrame> frames;
    const auto collect = [&](size_t count) {
        while (frames.size() < count) {
            auto frame = decoder.popFrame(20000);
            REQUIRE(frame.has_value());
            frames.push_back(*frame);
        }
    };
    // Chunk 0 alone yields its first 8 frames without finish(): the decoder is incremental.
    decoder.pushChunk(stream.chunks[0].info, stream.chunks[0].bytes);
    collect(8);
    CHECK_FALSE(decoder.popFrame(300).has_value());
    decoder.pushChunk(stream.chunks[1].info, stream.chunks[1].bytes);
    collect(20);
    CHECK(frames[8].tag().chunk->transport_index == 0);
    CHECK(frames[8].tag().index_in_chunk == 8);
    CHECK_FALSE(decoder.popFrame(300).has_value());
    decoder.pushChunk(stream.chunks[2].info, stream.chunks[2].bytes);
    collect(32);
    CHECK_FALSE(decoder.popFrame(300).has_value());
    decoder.pushChunk(stream.chunks[3].info, stream.chunks[3].bytes);
    collect(33);
    CHECK(frames[32].tag().chunk->transport_index == 2);
    CHECK(frames[32].tag().index_in_chunk == 11);
    decoder.finish();
    CHECK_FALSE(decoder.popFrame(20000).has_value());
    CHECK(decoder.stats().state == DecoderState::Finished);
    for (size_t i = 0; i < frames.size(); ++i) {
        CHECK(barcodeOf(frames[i]) == static_cast<qint64>(i));
    }
}

TEST_CASE("A broken box structure in chunk N stops decoding with an error naming chunk N",
          "[media][decoder]") {
    const EncodedStream& stream = standardStream();
    StreamDecoder decoder;
    QStringList errors;
    QObject::connect(
        &decoder, &StreamDecoder::errorOccurred, &decoder,
        [&](const QString& message) { errors << message; }, Qt::DirectConnection);
    for (const auto& chunk : stream.chunks) {
        QByteArray bytes = chunk.bytes;
        if (chunk.info.transport_index == 2) {
            bytes.replace(0, 16, QByteArray(16, '\x5a'));
        }
        decoder.pushChunk(chunk.info, bytes);
    }
    decoder.finish();
    const auto frames = drainFrames(decoder);
    REQUIRE(decoder.waitForEnd(20000));
    const DecoderStats stats = decoder.stats();
    CHECK(stats.state == DecoderState::Failed);
    INFO(stats.first_error.toStdString());
    CHECK(stats.first_error.startsWith(
        QStringLiteral("chunk 2: Invalid data found when processing input")));
    CHECK(stats.first_error.contains(QStringLiteral("'ZZZZ'")));
    REQUIRE_FALSE(errors.isEmpty());
    CHECK(errors.front() == stats.first_error);
    // Everything carried before the damage still came out, in order.
    CHECK(frames.size() == 20);
    for (size_t i = 0; i < frames.size(); ++i) {
        CHECK(barcodeOf(frames[i]) == static_cast<qint64>(i));
    }
}

TEST_CASE("Damaged H.264 data in chunk N is reported against chunk N and decoding goes on",
          "[media][decoder]") {
    const EncodedStream& stream = standardStream();
    StreamDecoder decoder;
    for (const auto& chunk : stream.chunks) {
        QByteArray bytes = chunk.bytes;
        if (chunk.info.transport_index == 1) {
            // Overwrite the slice data of every fragment's mdat with noise, keeping boxes intact.
            std::mt19937 random(7);
            for (qsizetype at = bytes.indexOf("mdat"); at >= 0;
                 at = bytes.indexOf("mdat", at + 4)) {
                for (int i = 12; i < 400 && at + i < bytes.size(); ++i) {
                    bytes[at + i] = static_cast<char>(random() & 0xff);
                }
            }
        }
        decoder.pushChunk(chunk.info, bytes);
    }
    decoder.finish();
    const auto frames = drainFrames(decoder);
    const DecoderStats stats = decoder.stats();
    INFO(stats.first_error.toStdString());
    CHECK(stats.state == DecoderState::Finished);
    CHECK(stats.frames_corrupt > 0);
    CHECK(stats.first_error.startsWith(QStringLiteral("chunk 1: ")));
    // Chunk 0's fragments were intact.
    REQUIRE(frames.size() >= 8);
    for (size_t i = 0; i < 8; ++i) {
        CHECK(barcodeOf(frames[i]) == static_cast<qint64>(i));
    }
}

TEST_CASE("Bytes that are not fragmented MP4 fail at once with the reason", "[media][decoder]") {
    StreamDecoder decoder;
    decoder.pushChunk(ChunkIdentity{0, 0, 9, ChunkKind::Media},
                      QByteArray("<html>502 Bad Gateway</html>"));
    REQUIRE(decoder.waitForEnd(20000));
    CHECK(decoder.stats().state == DecoderState::Failed);
    CHECK(decoder.stats().first_error.contains(QStringLiteral("does not start with an ftyp box")));
    CHECK_FALSE(decoder.popFrame(0).has_value());
}

TEST_CASE("A stream cut inside a fragment keeps its whole frames and says it was cut",
          "[media][decoder]") {
    const EncodedStream& stream = standardStream();
    StreamDecoder decoder;
    decoder.pushChunk(stream.chunks[0].info, stream.chunks[0].bytes);
    const QByteArray& second = stream.chunks[1].bytes;
    decoder.pushChunk(stream.chunks[1].info, second.left(second.size() / 2));
    decoder.finish();
    const auto frames = drainFrames(decoder);
    const DecoderStats stats = decoder.stats();
    INFO(stats.first_error.toStdString());
    CHECK(stats.state == DecoderState::Finished);
    CHECK(frames.size() > 8);
    CHECK(frames.size() < 20);
    for (size_t i = 0; i < frames.size(); ++i) {
        CHECK(barcodeOf(frames[i]) == static_cast<qint64>(i));
    }
    CHECK(stats.first_error.startsWith(QStringLiteral("chunk 1: the stream ended inside a box")));
}

TEST_CASE("abort() while the decoder waits for bytes returns promptly", "[media][decoder]") {
    const EncodedStream& stream = standardStream();
    StreamDecoder decoder;
    decoder.pushChunk(stream.chunks[0].info, stream.chunks[0].bytes);
    for (int i = 0; i < 8; ++i) {
        REQUIRE(decoder.popFrame(20000).has_value());
    }
    // Now the read callback is blocked waiting for chunk 1.
    CHECK(decoder.stats().state == DecoderState::Running);
    QElapsedTimer timer;
    timer.start();
    decoder.abort();
    REQUIRE(decoder.waitForEnd(5000));
    CHECK(timer.elapsed() < 5000);
    CHECK(decoder.stats().state == DecoderState::Aborted);
    CHECK(decoder.stats().first_error.isEmpty());
    CHECK_FALSE(decoder.popFrame(0).has_value());
    // Later pushes are ignored rather than resurrecting the stream.
    decoder.pushChunk(stream.chunks[1].info, stream.chunks[1].bytes);
    CHECK(decoder.stats().chunks_pushed == 1);
}

TEST_CASE("abort() releases a decoder blocked on a full frame queue", "[media][decoder]") {
    DecoderOptions options;
    options.frame_queue_capacity = 2;
    StreamDecoder decoder(options);
    pushAll(decoder, standardStream());
    // Nobody pops: the decoder fills the queue and blocks.
    REQUIRE(QTest::qWaitFor([&] { return decoder.stats().frames_queued == 2; }, 10000));
    CHECK_FALSE(decoder.waitForEnd(200));
    // Every push returned although nothing was popped: the backlog sits in bytes, measured.
    CHECK(decoder.stats().chunks_pushed == 4);
    CHECK(decoder.stats().bytes_pending > 0);
    decoder.abort();
    REQUIRE(decoder.waitForEnd(5000));
    CHECK(decoder.stats().state == DecoderState::Aborted);
}

TEST_CASE("With a slow consumer the frame queue never exceeds its capacity", "[media][decoder]") {
    DecoderOptions options;
    options.frame_queue_capacity = 4;
    StreamDecoder decoder(options);
    pushAll(decoder, standardStream());
    std::vector<DecodedFrame> frames;
    int max_seen = 0;
    // The slowest consumer: it takes a frame only once the decoder has filled the queue or
    // decoded all there is, so the decoder is always ahead, whatever the machine's load (a
    // consumer that slept 15 ms a frame found at most 2 queued on a loaded 2-core machine).
    const auto decoderAhead = [&] {
        const DecoderStats now = decoder.stats();
        return now.frames_queued >= 4 || now.state != DecoderState::Running ||
               (now.frames_expected > 0 && now.frames_decoded == now.frames_expected);
    };
    for (;;) {
        REQUIRE(QTest::qWaitFor(decoderAhead, 10000));
        max_seen = std::max(max_seen, decoder.stats().frames_queued);
        auto frame = decoder.popFrame(20000);
        if (!frame) {
            break;
        }
        frames.push_back(*frame);
    }
    const DecoderStats stats = decoder.stats();
    CHECK(frames.size() == 33);
    CHECK(max_seen <= 4);
    CHECK(stats.frames_queued_high_water == 4); // the decoder did get ahead and was held back
    CHECK(stats.frame_queue_capacity == 4);
    CHECK(stats.bytes_pending_high_water > 0);
    CHECK(stats.state == DecoderState::Finished);
    for (size_t i = 0; i < frames.size(); ++i) {
        CHECK(barcodeOf(frames[i]) == static_cast<qint64>(i));
    }
}

TEST_CASE("framesAvailable and ended signals drive a consumer on another thread",
          "[media][decoder]") {
    StreamDecoder decoder;
    std::vector<DecodedFrame> frames;
    bool ended = false;
    QObject receiver;
    QObject::connect(&decoder, &StreamDecoder::framesAvailable, &receiver, [&] {
        while (auto frame = decoder.popFrame(0)) {
            frames.push_back(*frame);
        }
    });
    QObject::connect(&decoder, &StreamDecoder::ended, &receiver, [&] { ended = true; });
    pushAll(decoder, standardStream());
    // What the wait found is checked below, frame by frame.
    static_cast<void>(QTest::qWaitFor(
        [&] {
            while (auto frame = decoder.popFrame(0)) {
                frames.push_back(*frame);
            }
            return ended && decoder.isDrained();
        },
        20000));
    REQUIRE(frames.size() == 33);
    CHECK(ended);
    const QImage image = frames[5].toImage();
    CHECK(image.format() == QImage::Format_RGB32);
    CHECK(image.size() == QSize(832, 480));
    CHECK(lbm::sim::readFrameBarcode(image) == std::optional<qint64>(5));
    // Scaled in the same pass, as a view asks for it at its own size.
    const QImage scaled = frames[5].toImage(QSize(416, 240));
    CHECK(scaled.size() == QSize(416, 240));
    CHECK(lbm::sim::readFrameBarcode(scaled.scaled(832, 480)) == std::optional<qint64>(5));

    // Scaling in YUV first (what views use) shows the same picture as scaling straight to
    // RGB, within rounding; an odd size takes the direct path and still converts.
    using Path = lbm::media::DecodedFrame::ScalePath;
    // 1002 px: not a multiple of 8, where the SIMD converter writes past a row.
    for (const QSize size : {QSize(640, 368), QSize(1002, 578), QSize(641, 369)}) {
        INFO(size.width() << "x" << size.height());
        const QImage via_yuv = frames[5].toImage(size, Path::ViaYuv);
        const QImage direct = frames[5].toImage(size, Path::Direct);
        REQUIRE(via_yuv.size() == size);
        REQUIRE(direct.size() == size);
        double difference = 0.0;
        for (int y = 0; y < size.height(); ++y) {
            const auto* a = reinterpret_cast<const QRgb*>(via_yuv.constScanLine(y));
            const auto* b = reinterpret_cast<const QRgb*>(direct.constScanLine(y));
            for (int x = 0; x < size.width(); ++x) {
                difference += std::abs(qRed(a[x]) - qRed(b[x])) +
                              std::abs(qGreen(a[x]) - qGreen(b[x])) +
                              std::abs(qBlue(a[x]) - qBlue(b[x]));
            }
        }
        const double mean = difference / (3.0 * size.width() * size.height());
        CHECK(mean < 2.0); // 8-bit levels
        CHECK(lbm::sim::readFrameBarcode(via_yuv.scaled(832, 480)) == std::optional<qint64>(5));
    }
}
