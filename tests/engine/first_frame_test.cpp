#include "app/engine/first_frame.h"
#include "app/protocol/client_messages.h"
#include "app/protocol/session_start_message.h"
#include "app/report/workload_json.h"
#include "resources/bundled_resources.h"

#include <QImage>
#include <QImageReader>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

using namespace lbm;
using namespace lbm::engine;

namespace {

// Noise does not compress, so a PNG of it is as large as a real photograph gets.
QImage noiseImage(int width, int height) {
    QImage image(width, height, QImage::Format_RGB32);
    QRandomGenerator random(7);
    for (int y = 0; y < height; ++y) {
        auto* line = reinterpret_cast<quint32*>(image.scanLine(y));
        for (int x = 0; x < width; ++x) {
            line[x] = 0xff000000u | (random.generate() & 0xffffffu);
        }
    }
    return image;
}

} // namespace

TEST_CASE("URLs pass through and local files become data URLs", "[session][first-frame]") {
    REQUIRE(resolveFirstFrame(QStringLiteral("https://example.org/a.jpg")) ==
            QStringLiteral("https://example.org/a.jpg"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("frame.png"));
    REQUIRE(noiseImage(64, 32).save(path));
    REQUIRE(resolveFirstFrame(path).startsWith(QStringLiteral("data:image/png;base64,")));
}

TEST_CASE("unusable first frames are refused before connecting, with the reason",
          "[session][first-frame]") {
    QTemporaryDir dir;
    SECTION("missing file: the benchmark's words") {
        const QString path = dir.filePath(QStringLiteral("missing.png"));
        try {
            resolveFirstFrame(path);
            FAIL("no error");
        } catch (const FirstFrameError& error) {
            REQUIRE(error.message() ==
                    QStringLiteral("--image is neither a URL nor a readable file: ") + path);
        }
    }
    SECTION("not an image") {
        const QString path = dir.filePath(QStringLiteral("notes.png"));
        QFile file(path);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("this is text");
        file.close();
        REQUIRE_THROWS_WITH(resolveFirstFrame(path), Catch::Contains("not an image"));
    }
    SECTION("over 4096x4096, checked from the header") {
        const QString path = dir.filePath(QStringLiteral("huge.png"));
        QImage huge(4097, 16, QImage::Format_Grayscale8);
        huge.fill(0);
        REQUIRE(huge.save(path));
        REQUIRE_THROWS_WITH(resolveFirstFrame(path),
                            Catch::Contains("4097x16") && Catch::Contains("at most 4096x4096"));
    }
}

TEST_CASE("a session.start over 4 MiB is re-encoded until it fits", "[session][first-frame]") {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.png"));
    REQUIRE(noiseImage(2400, 1600).save(path));
    Workload workload = defaultWorkload(resolveFirstFrame(path).toStdString(), 16);
    const QString model = QStringLiteral("m");
    const qsizetype before =
        protocol::toWireText(protocol::sessionStartMessage(workload, model)).size();
    REQUIRE(before > protocol::kMaxSessionStartChars);
    const FitResult fit = fitSessionStart(workload, model);
    REQUIRE(fit.changed);
    REQUIRE(fit.original_chars == before);
    const qsizetype after =
        protocol::toWireText(protocol::sessionStartMessage(workload, model)).size();
    REQUIRE(after == fit.final_chars);
    REQUIRE(after <= protocol::kMaxSessionStartChars);
    REQUIRE(QString::fromStdString(workload.image_reference)
                .startsWith(QStringLiteral("data:image/jpeg;base64,")));
    REQUIRE(fit.note.contains(QStringLiteral("2400x1600")));
    // The picture is still the picture, aspect ratio kept.
    QImage decoded;
    const QString url = QString::fromStdString(workload.image_reference);
    REQUIRE(decoded.loadFromData(
        QByteArray::fromBase64(url.mid(url.indexOf(QLatin1Char(',')) + 1).toLatin1())));
    REQUIRE(decoded.width() * 2 == decoded.height() * 3);
}

TEST_CASE("a session.start that fits is left alone", "[session][first-frame]") {
    Workload workload = defaultWorkload(bundledFirstFrameDataUrl().toStdString(), 4);
    const std::string before = workload.image_reference;
    const FitResult fit = fitSessionStart(workload, QStringLiteral("m"));
    REQUIRE_FALSE(fit.changed);
    REQUIRE(fit.note.isEmpty());
    REQUIRE(workload.image_reference == before);
}
