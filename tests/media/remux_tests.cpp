// The stream copy into a progressive, fast-start MP4: same frames bit for bit, moov first,
// written atomically, clear errors.

#include "app/media/fmp4_box_scanner.h"
#include "app/media/remux.h"
#include "app/media/stream_decoder.h"
#include "media_fixture.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

#include <sys/stat.h>

using namespace lbm::media;
using lbm::media::test::drainFrames;
using lbm::media::test::encodeStream;

namespace {

QStringList topLevelBoxes(const QString& path) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    Fmp4BoxScanner scanner(true);
    scanner.consume(reinterpret_cast<const uint8_t*>(bytes.constData()), bytes.size());
    QStringList types;
    for (const auto& box : scanner.boxes()) {
        types << box.typeName();
    }
    return types;
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

} // namespace

TEST_CASE("A full recording remuxes to a progressive MP4 with the very same frames",
          "[media][remux]") {
    const auto stream = encodeStream({9, 12, 12});
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString raw = dir.filePath(QStringLiteral("session.m4s"));
    REQUIRE(writeFile(raw, stream.concatenated()));
    const QString mp4 = dir.filePath(QStringLiteral("session.mp4"));
    REQUIRE(writeFile(mp4, QByteArray("an older file that must be replaced")));

    const RemuxResult result = remuxToMp4(raw, mp4);
    INFO(result.error.toStdString());
    REQUIRE(result.ok);
    CHECK(result.packets_written == 33);
    CHECK_FALSE(result.input_truncated);
    CHECK(result.input_bytes_used == result.input_bytes_total);

    const QStringList boxes = topLevelBoxes(mp4);
    INFO(boxes.join(QLatin1Char(' ')).toStdString());
    REQUIRE(boxes.contains(QStringLiteral("moov")));
    REQUIRE(boxes.contains(QStringLiteral("mdat")));
    CHECK(boxes.indexOf(QStringLiteral("moov")) < boxes.indexOf(QStringLiteral("mdat")));
    CHECK_FALSE(boxes.contains(QStringLiteral("moof"))); // progressive, not fragmented
    // Only the finished file is left: the staging file was renamed, not copied.
    CHECK(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size() == 2);

    StreamDecoder decoder;
    for (const auto& chunk : stream.chunks) {
        decoder.pushChunk(chunk.info, chunk.bytes);
    }
    decoder.finish();
    const auto frames = drainFrames(decoder);
    REQUIRE(frames.size() == 33);
    const auto reference = lbm::media::test::decodeFile(mp4);
    REQUIRE(reference.error.isEmpty());
    REQUIRE(reference.luma_checksums.size() == 33);
    for (size_t i = 0; i < frames.size(); ++i) {
        INFO("frame " << i);
        CHECK(reference.barcodes[i] == static_cast<qint64>(i));
        CHECK(reference.luma_checksums[i] == frames[i].lumaChecksum());
    }
}

TEST_CASE("Remux errors say what is wrong and leave no partial output", "[media][remux]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString missing = dir.filePath(QStringLiteral("missing.m4s"));
    RemuxResult result = remuxToMp4(missing, dir.filePath(QStringLiteral("out.mp4")));
    CHECK_FALSE(result.ok);
    CHECK(result.error.contains(missing));

    const QString init_only = dir.filePath(QStringLiteral("init.m4s"));
    const auto stream = encodeStream({9});
    REQUIRE(writeFile(init_only, stream.chunks[0].bytes.left(700)));
    result = remuxToMp4(init_only, dir.filePath(QStringLiteral("out.mp4")));
    CHECK_FALSE(result.ok);
    CHECK(result.error.contains(QStringLiteral("no complete video fragment")));

    const QString raw = dir.filePath(QStringLiteral("ok.m4s"));
    REQUIRE(writeFile(raw, stream.concatenated()));
    const QString unwritable = dir.filePath(QStringLiteral("no-such-dir/out.mp4"));
    result = remuxToMp4(raw, unwritable);
    CHECK_FALSE(result.ok);
    INFO(result.error.toStdString());
    CHECK(result.error.contains(unwritable));
    CHECK_FALSE(QFile::exists(dir.filePath(QStringLiteral("out.mp4"))));
}

TEST_CASE("The saved MP4 gets the user's umask, not a temporary file's 0600", "[media][remux]") {
    const auto stream = encodeStream({9, 12});
    QTemporaryDir dir;
    const QString raw = dir.filePath(QStringLiteral("stream.m4s"));
    REQUIRE(writeFile(raw, stream.concatenated()));
    for (const auto& [mask, expected] : {std::pair{0022u, QFile::ReadOwner | QFile::WriteOwner |
                                                              QFile::ReadGroup | QFile::ReadOther},
                                         std::pair{0077u, QFile::ReadOwner | QFile::WriteOwner}}) {
        const mode_t previous = ::umask(mask);
        const QString mp4 = dir.filePath(QStringLiteral("out-%1.mp4").arg(mask, 3, 8));
        const RemuxResult result = remuxToMp4(raw, mp4);
        ::umask(previous);
        REQUIRE(result.ok);
        // QFile reports the owner's bits twice (as "user" and "owner"): compare those kinds.
        const auto permissions =
            QFile::permissions(mp4) & (QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                       QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup |
                                       QFile::ReadOther | QFile::WriteOther | QFile::ExeOther);
        CHECK(permissions == expected);
    }
}
