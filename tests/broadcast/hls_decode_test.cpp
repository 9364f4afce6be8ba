// FFmpeg reads the broadcast's HLS URL back as any player would and decodes every frame of a
// finished simulator session: the count and every frame's barcode (the simulator burns the
// global frame number into each frame) must be the session's, in order.
#include "app/sim/frame_barcode.h"
#include "tests/broadcast/broadcast_fixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>

#include <catch2/catch.hpp>

using namespace lbm::broadcast;
using namespace lbm::broadcast::test;

namespace {

QByteArray runTool(const QString& tool, const QStringList& arguments) {
    const QString program = QStandardPaths::findExecutable(tool);
    INFO(tool.toStdString() << " not found: apt-get install ffmpeg (scripts/quickstart.sh does)");
    REQUIRE_FALSE(program.isEmpty());
    QProcess process;
    process.start(program, arguments);
    REQUIRE(process.waitForStarted(10'000));
    QByteArray output;
    while (!process.waitForFinished(100)) {
        output += process.readAllStandardOutput();
        REQUIRE(process.state() == QProcess::Running);
    }
    output += process.readAllStandardOutput();
    INFO(process.readAllStandardError().toStdString());
    REQUIRE(process.exitStatus() == QProcess::NormalExit);
    REQUIRE(process.exitCode() == 0);
    return output;
}

} // namespace

TEST_CASE("ffmpeg decodes every frame of a finished session from the HLS URL", "[broadcast]") {
    LiveBroadcast live;
    live.start(simulatorSettings(8));
    REQUIRE(live.waitForFinished(60'000));
    REQUIRE(live.engine.result()->ok);
    const qint64 frames_sent = live.engine.framesAnnounced();
    REQUIRE(waitUntil(
        [&] {
            return httpGet(live.port(), live.path(QStringLiteral("s1/live.m3u8")))
                .body.contains("#EXT-X-ENDLIST");
        },
        5000));
    const QString url = live.broadcaster.playlistUrl().toString();

    const QJsonObject probe =
        QJsonDocument::fromJson(
            runTool(QStringLiteral("ffprobe"),
                    {QStringLiteral("-v"), QStringLiteral("error"), QStringLiteral("-show_entries"),
                     QStringLiteral("stream=codec_name,width,height"), QStringLiteral("-of"),
                     QStringLiteral("json"), url}))
            .object();
    const QJsonObject stream = probe.value(QStringLiteral("streams")).toArray().at(0).toObject();
    CHECK(stream.value(QStringLiteral("codec_name")).toString() == QStringLiteral("h264"));
    CHECK(stream.value(QStringLiteral("width")).toInt() == 832);
    CHECK(stream.value(QStringLiteral("height")).toInt() == 480);

    // Luma only: enough for the barcode, a third of the bytes.
    const QByteArray luma =
        runTool(QStringLiteral("ffmpeg"),
                {QStringLiteral("-v"), QStringLiteral("error"), QStringLiteral("-i"), url,
                 QStringLiteral("-fps_mode"), QStringLiteral("passthrough"), QStringLiteral("-f"),
                 QStringLiteral("rawvideo"), QStringLiteral("-pix_fmt"), QStringLiteral("gray"),
                 QStringLiteral("-")});
    constexpr qint64 kFrameBytes = 832 * 480;
    REQUIRE(luma.size() % kFrameBytes == 0);
    const qint64 frames = luma.size() / kFrameBytes;
    CHECK(frames == frames_sent);
    for (qint64 i = 0; i < frames; ++i) {
        const auto* plane = reinterpret_cast<const uint8_t*>(luma.constData() + i * kFrameBytes);
        INFO("frame " << i);
        CHECK(lbm::sim::readFrameBarcodeLuma(plane, 832, 832, 480) == std::optional<qint64>(i));
    }
}
