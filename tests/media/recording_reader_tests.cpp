// Random access into a recording: any frame, in any order, is the frame the stream decoder
// delivered at that position (same luma, same barcode); a partial recording gives what it
// holds; stepping back costs one decode once the neighbourhood is decoded; errors say what.

#include "app/media/recording_reader.h"
#include "media_fixture.h"

#include <QFile>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

using namespace lbm::media;
using lbm::media::test::barcodeOf;
using lbm::media::test::encodeStream;

namespace {

QString writeRecording(const QTemporaryDir& dir, const QByteArray& bytes) {
    const QString path = dir.filePath(QStringLiteral("stream.m4s"));
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    REQUIRE(file.write(bytes) == bytes.size());
    return path;
}

} // namespace

TEST_CASE("a recording gives back any frame, in any order, as the stream decoded it",
          "[media][recording]") {
    const auto stream = encodeStream({9, 12, 12, 12});
    QTemporaryDir dir;
    RecordingReader reader;
    REQUIRE(reader.open(writeRecording(dir, stream.concatenated())));
    REQUIRE(reader.frameCount() == stream.total_frames);
    for (const int index : {44, 0, 17, 16, 3, 44, 30, 29, 28}) {
        INFO("frame " << index);
        const auto frame = reader.frame(index);
        REQUIRE(frame);
        CHECK(barcodeOf(*frame) == index);
        CHECK(frame->globalFrameNumber() == index);
    }
    // Backwards one frame at a time from a decoded position costs no new decodes.
    REQUIRE(reader.frame(40));
    const auto decoded = reader.framesDecoded();
    for (int index = 39; index >= 20; --index) {
        REQUIRE(reader.frame(index));
    }
    CHECK(reader.framesDecoded() == decoded);
}

TEST_CASE("a recording cut mid-fragment gives every whole frame", "[media][recording]") {
    const auto stream = encodeStream({9, 12, 12});
    QByteArray bytes = stream.concatenated();
    bytes.chop(bytes.size() / 3); // a crash during the third chunk
    QTemporaryDir dir;
    RecordingReader reader;
    REQUIRE(reader.open(writeRecording(dir, bytes)));
    REQUIRE(reader.frameCount() > 0);
    REQUIRE(reader.frameCount() < stream.total_frames);
    const int last = reader.frameCount() - 1;
    const auto frame = reader.frame(last);
    REQUIRE(frame);
    CHECK(barcodeOf(*frame) == last);
    CHECK_FALSE(reader.frame(last + 1));
    CHECK(reader.errorString().contains(QStringLiteral("is not in the recording")));
}

TEST_CASE("a recording that cannot be read says which file and why", "[media][recording]") {
    RecordingReader reader;
    CHECK_FALSE(reader.open(QStringLiteral("/nonexistent/stream.m4s")));
    CHECK(reader.errorString().contains(QStringLiteral("/nonexistent/stream.m4s")));
    QTemporaryDir dir;
    CHECK_FALSE(reader.open(writeRecording(dir, QByteArray("not a video at all"))));
    CHECK_FALSE(reader.errorString().isEmpty());
}
