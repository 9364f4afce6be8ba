// The raw recording: appended and flushed per chunk, playable after a "crash", and clear
// about the errors a user can cause (missing directory, full disk).

#include "app/media/recorder.h"
#include "app/media/remux.h"
#include "app/media/stream_decoder.h"
#include "media_fixture.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

using namespace lbm::media;
using lbm::ChunkIdentity;
using lbm::ChunkKind;
using lbm::media::test::barcodeOf;
using lbm::media::test::drainFrames;
using lbm::media::test::encodeStream;

TEST_CASE("Each appended chunk is on disk at once, before the recorder is closed",
          "[media][recorder]") {
    const auto stream = encodeStream({9, 12});
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("live.m4s"));
    Recorder recorder;
    REQUIRE(recorder.open(path));
    qint64 expected = 0;
    for (const auto& chunk : stream.chunks) {
        REQUIRE(recorder.append(chunk.bytes));
        expected += chunk.bytes.size();
        // Another reader (a player, or the file after a crash) sees every byte already.
        QFile reader(path);
        REQUIRE(reader.open(QIODevice::ReadOnly));
        CHECK(reader.size() == expected);
    }
    CHECK(recorder.bytesWritten() == expected);
    recorder.close();
    QFile written(path);
    REQUIRE(written.open(QIODevice::ReadOnly));
    CHECK(written.readAll() == stream.concatenated());
}

TEST_CASE("A recording cut mid-stream still decodes and remuxes to the frames received",
          "[media][recorder]") {
    const auto stream = encodeStream({9, 12, 12});
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString raw = dir.filePath(QStringLiteral("crashed.m4s"));
    {
        Recorder recorder;
        REQUIRE(recorder.open(raw));
        REQUIRE(recorder.append(stream.chunks[0].bytes));
        REQUIRE(recorder.append(stream.chunks[1].bytes));
        // The process "dies" while chunk 2 is half written: the file simply ends there.
        const QByteArray& third = stream.chunks[2].bytes;
        REQUIRE(recorder.append(third.left(third.size() / 2 + 7)));
    }
    QFile file(raw);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QByteArray partial = file.readAll();

    // What a viewer gets from the partial file: every whole fragment, in order.
    StreamDecoder decoder;
    decoder.pushChunk(ChunkIdentity{0, 0, 33, ChunkKind::Media}, partial);
    decoder.finish();
    const auto frames = drainFrames(decoder);
    REQUIRE(frames.size() > 20);
    REQUIRE(frames.size() < 32);
    for (size_t i = 0; i < frames.size(); ++i) {
        CHECK(barcodeOf(frames[i]) == static_cast<qint64>(i));
    }

    const QString mp4 = dir.filePath(QStringLiteral("crashed.mp4"));
    const RemuxResult remuxed = remuxToMp4(raw, mp4);
    INFO(remuxed.error.toStdString());
    REQUIRE(remuxed.ok);
    CHECK(remuxed.input_truncated);
    CHECK(remuxed.input_bytes_used < remuxed.input_bytes_total);
    CHECK(remuxed.packets_written == static_cast<qint64>(frames.size()));
    const auto reference = lbm::media::test::decodeFile(mp4);
    REQUIRE(reference.error.isEmpty());
    REQUIRE(reference.luma_checksums.size() == frames.size());
    for (size_t i = 0; i < frames.size(); ++i) {
        CHECK(reference.luma_checksums[i] == frames[i].lumaChecksum());
    }
}

TEST_CASE("Opening a recording in a missing directory names the path and the fix",
          "[media][recorder]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("no-such-dir/run.m4s"));
    Recorder recorder;
    CHECK_FALSE(recorder.open(path));
    INFO(recorder.errorString().toStdString());
    CHECK(recorder.errorString().contains(path));
    CHECK(recorder.errorString().contains(QStringLiteral("does not exist")));
    CHECK_FALSE(recorder.append(QByteArray("abc")));
}

TEST_CASE("A full disk fails the append with the path and the fix, and stays failed",
          "[media][recorder]") {
    if (!QFileInfo::exists(QStringLiteral("/dev/full"))) {
        WARN("/dev/full is not available; skipping the full-disk check");
        return;
    }
    Recorder recorder;
    REQUIRE(recorder.open(QStringLiteral("/dev/full")));
    CHECK_FALSE(recorder.append(QByteArray(4096, 'x')));
    INFO(recorder.errorString().toStdString());
    CHECK(recorder.errorString().contains(QStringLiteral("/dev/full")));
    CHECK(recorder.errorString().contains(QStringLiteral("No space left on device")));
    CHECK(recorder.errorString().contains(QStringLiteral("free some disk space")));
    CHECK_FALSE(recorder.append(QByteArray(1, 'x')));
}
