// The printed report shows the numbers of the document in the benchmark's layout.

#include "app/report/metrics_json.h"
#include "app/report/session_document.h"
#include "app/report/text_report.h"
#include "tests/report/golden_json.h"

#include <QJsonDocument>

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

namespace {

// printf with the benchmark's %-format, independent of the code under test.
std::string printfText(const char* format, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

std::string row(const std::string& label, const std::string& value) {
    std::string line = label;
    if (line.size() < 44) {
        line.append(44 - line.size(), ' ');
    }
    if (value.size() < 16) {
        line.append(16 - value.size(), ' ');
    }
    return line + value;
}

bool hasLine(const QString& report, const std::string& line) {
    return report.split(QLatin1Char('\n')).contains(QString::fromStdString(line));
}

lbm::report::SessionDocument documentForCase(qsizetype index) {
    const QJsonObject golden =
        lbm::test::goldenGroup(QStringLiteral("metrics")).at(index).toObject();
    return lbm::report::sessionDocumentFromJson(lbm::test::benchmarkDocumentForMetricsCase(golden));
}

qsizetype findMetricsCase(bool (*wanted)(const QJsonObject& ok)) {
    const QJsonArray cases = lbm::test::goldenGroup(QStringLiteral("metrics"));
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject ok = cases.at(i).toObject().value(QStringLiteral("ok")).toObject();
        if (!ok.isEmpty() && wanted(ok)) {
            return i;
        }
    }
    FAIL("no golden metrics case of the wanted kind");
    return -1;
}

} // namespace

TEST_CASE("one-session report rows carry the golden numbers", "[report][text]") {
    const qsizetype index = findMetricsCase([](const QJsonObject& ok) {
        return ok.contains(QStringLiteral("ttfc_ms")) &&
               ok.value(QStringLiteral("steady_state_reached")).toBool() &&
               !ok.value(QStringLiteral("playback"))
                    .toObject()
                    .value(QStringLiteral("first_underrun_chunk"))
                    .isNull();
    });
    const lbm::report::SessionDocument document = documentForCase(index);
    const QJsonObject ok = lbm::test::goldenGroup(QStringLiteral("metrics"))
                               .at(index)
                               .toObject()
                               .value(QStringLiteral("ok"))
                               .toObject();
    const auto value = [&ok](const char* key) {
        return ok.value(QString::fromLatin1(key)).toDouble();
    };
    const QJsonObject all = ok.value(QStringLiteral("interval_all")).toObject();
    const QJsonObject steady = ok.value(QStringLiteral("interval_steady")).toObject();
    const QJsonObject playback = ok.value(QStringLiteral("playback")).toObject();
    const QString report = lbm::report::formatTextReport(document);
    INFO(report.toStdString());

    CHECK(report.startsWith(
        QStringLiteral("======== LingBot-World realtime streaming benchmark ========\n")));
    CHECK(report.endsWith(QString(60, QLatin1Char('=')) + QLatin1Char('\n')));
    CHECK(hasLine(report, "------------------------- Cadence --------------------------"));
    CHECK(hasLine(report, "------------------------ Real time -------------------------"));
    CHECK(hasLine(report, "------------------- Playback continuity --------------------"));
    CHECK(hasLine(report, row("Endpoint:", "ws://127.0.0.1:8000/v1/realtime/video")));
    CHECK(hasLine(report, row("Geometry:", "832x480")));
    CHECK(hasLine(report, row("Sessions:", "1")));
    CHECK(hasLine(report, row("TTFC (session.start -> first chunk):",
                              printfText("%.1f ms", value("ttfc_ms")))));
    CHECK(hasLine(report, "  All chunks (n=" +
                              std::to_string(all.value(QStringLiteral("count")).toInt()) + "):"));
    CHECK(hasLine(report, "  Steady state (n=" +
                              std::to_string(steady.value(QStringLiteral("count")).toInt()) +
                              "):"));
    CHECK(hasLine(
        report, row("    mean / median:",
                    printfText("%.1f", all.value(QStringLiteral("mean_ms")).toDouble()) + " / " +
                        printfText("%.1f ms", all.value(QStringLiteral("median_ms")).toDouble()))));
    CHECK(hasLine(
        report,
        row("    p90 / p95 / p99:",
            printfText("%.0f", steady.value(QStringLiteral("p90_ms")).toDouble()) + " / " +
                printfText("%.0f", steady.value(QStringLiteral("p95_ms")).toDouble()) + " / " +
                printfText("%.0f ms", steady.value(QStringLiteral("p99_ms")).toDouble()))));
    CHECK(hasLine(report, "    NOTE: fewer than 100 intervals; tail percentiles are descriptive, "
                          "not reliable tail estimates."));
    CHECK(hasLine(report, row("VIDEO_RTF (wall s / video s, <1 real time):",
                              printfText("%.3f", value("video_rtf")))));
    CHECK(hasLine(report,
                  row("VIDEO_RTFX (video s / wall s):", printfText("%.3f", value("video_rtfx")))));
    CHECK(hasLine(report,
                  row("VIDEO_RTF steady state:", printfText("%.3f", value("steady_video_rtf")))));
    CHECK(
        hasLine(report, row("Frames per second:", printfText("%.2f", value("frames_per_second")))));
    CHECK(
        hasLine(report, row("Chunk deadline:", printfText("%.1f ms", value("chunk_deadline_ms")))));
    CHECK(
        hasLine(report, row("Steady chunks within deadline:",
                            printfText("%.1f%%", value("slo_attainment") * 100.0) + " (" +
                                std::to_string(ok.value(QStringLiteral("slo_violations")).toInt()) +
                                " late)")));
    CHECK(hasLine(report,
                  row("Start buffer:",
                      std::to_string(playback.value(QStringLiteral("buffer_chunks")).toInt()) +
                          " chunk(s)")));
    CHECK(hasLine(report,
                  row("Underruns:",
                      std::to_string(playback.value(QStringLiteral("underrun_count")).toInt()))));
    CHECK(hasLine(
        report,
        row("Total stall:",
            printfText("%.1f ms", playback.value(QStringLiteral("total_stall_ms")).toDouble()))));
    CHECK(hasLine(
        report, row("Stall ratio:",
                    printfText("%.2f%%",
                               playback.value(QStringLiteral("stall_ratio")).toDouble() * 100.0))));
    CHECK(hasLine(
        report,
        row("First underrun at chunk:",
            std::to_string(playback.value(QStringLiteral("first_underrun_chunk")).toInt()))));
    CHECK_FALSE(report.contains(QStringLiteral("Across sessions")));
}

TEST_CASE("a session without steady chunks says what to change", "[report][text]") {
    const qsizetype index = findMetricsCase([](const QJsonObject& ok) {
        return !ok.value(QStringLiteral("steady_state_reached")).toBool();
    });
    const lbm::report::SessionDocument document = documentForCase(index);
    const QString report = lbm::report::formatTextReport(document);
    INFO(report.toStdString());
    CHECK(hasLine(report, "  NOTE: no chunk reached the steady state; the attention window needs " +
                              std::to_string(document.config.warmup_chunks) +
                              " chunks. Raise --num-chunks."));
    CHECK_FALSE(report.contains(QStringLiteral("Steady chunks within deadline")));
    CHECK_FALSE(report.contains(QStringLiteral("VIDEO_RTF steady state")));
}

TEST_CASE("several sessions get the Across sessions section", "[report][text]") {
    const QJsonArray cases = lbm::test::goldenGroup(QStringLiteral("aggregate"));
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        const QJsonObject ok = golden.value(QStringLiteral("ok")).toObject();
        if (ok.value(QStringLiteral("sessions")).toInt() < 2) {
            continue;
        }
        INFO("aggregate case " << i);
        lbm::report::SessionDocument document;
        document.endpoint = QStringLiteral("ws://127.0.0.1:8000/v1/realtime/video");
        document.workload = QJsonObject{{QStringLiteral("num_chunks"), 16},
                                        {QStringLiteral("num_frames"), 189},
                                        {QStringLiteral("width"), 832},
                                        {QStringLiteral("height"), 480},
                                        {QStringLiteral("fps"), 16}};
        document.config.target_fps = golden.value(QStringLiteral("fps")).toDouble();
        document.sessions.resize(
            static_cast<std::size_t>(ok.value(QStringLiteral("sessions")).toInt()));
        document.metrics = lbm::report::aggregateMetricsFromJson(ok, QStringLiteral("metrics"));
        const QString report = lbm::report::formatTextReport(document);
        INFO(report.toStdString());
        CHECK(hasLine(report, "--------------------- Across sessions ----------------------"));
        CHECK(hasLine(report, row("Sessions:",
                                  std::to_string(ok.value(QStringLiteral("sessions")).toInt()))));
        CHECK(hasLine(
            report, row("Video seconds per session:",
                        printfText("%.2f", 189.0 / document.config.target_fps) + " (189 frames)")));
        CHECK(hasLine(
            report,
            row("VIDEO_RTF mean (lower is better):",
                printfText("%.3f", ok.value(QStringLiteral("video_rtf_mean")).toDouble()))));
        CHECK(hasLine(
            report,
            row("VIDEO_RTF best / worst:",
                printfText("%.3f", ok.value(QStringLiteral("video_rtf_best")).toDouble()) + " / " +
                    printfText("%.3f", ok.value(QStringLiteral("video_rtf_worst")).toDouble()))));
        CHECK(hasLine(report,
                      row("Underruns (all sessions):",
                          std::to_string(ok.value(QStringLiteral("underrun_count")).toInt()))));
        const QJsonValue ttfc_mean = ok.value(QStringLiteral("ttfc_ms_mean"));
        if (ttfc_mean.isNull()) {
            CHECK_FALSE(report.contains(QStringLiteral("TTFC mean / max:")));
        } else {
            CHECK(hasLine(report,
                          row("TTFC mean / max:",
                              printfText("%.1f", ttfc_mean.toDouble()) + " / " +
                                  printfText("%.1f ms",
                                             ok.value(QStringLiteral("ttfc_ms_max")).toDouble()))));
        }
        CHECK_FALSE(report.contains(QStringLiteral("Cadence")));
    }
}

TEST_CASE("header lines printed before connecting", "[report][text]") {
    using namespace lbm::report;
    CHECK(connectingLine(QStringLiteral("ws://h:1/v1/realtime/video")) ==
          QStringLiteral("Connecting to ws://h:1/v1/realtime/video"));
    CHECK(rolloutLine(16, 189, 189.0 / 16.0).toStdString() ==
          "Rollout: 16 chunks, num_frames=189, " + printfText("%.2f", 189.0 / 16.0) + "s of video");
    CHECK(realTimeBasisLine(12.5, 16).toStdString() ==
          "Real-time basis: 12.5 fps -> a steady 12-frame chunk is " +
              printfText("%.1f", 12.0 / 12.5 * 1000.0) + " ms of video (mux label stays 16 fps)");
    CHECK(realTimeBasisLine(16, std::nullopt).toStdString() ==
          "Real-time basis: 16 fps -> a steady 12-frame chunk is " +
              printfText("%.1f", 12.0 / 16.0 * 1000.0) + " ms of video");
    CHECK(leavesNoSteadyChunk(6, 7));
    CHECK_FALSE(leavesNoSteadyChunk(6, 8));
    CHECK(leavesNoSteadyChunk(0, 2)); // max(1, 0) = 1 >= 1
    CHECK(noSteadyChunkWarning(6, 7) ==
          QStringLiteral("WARNING: --warmup-chunks=6 leaves no nonterminal steady-state chunk in a "
                         "7-chunk rollout; steady-state metrics will be empty."));
    CHECK(reportRuler(QStringLiteral(" Cadence "), QLatin1Char('-')).size() == 60);
    const lbm::ChunkRecord record{7, 12.3456, 0.7501, 123456, 12};
    CHECK(chunkProgressLine(record).toStdString() ==
          "  chunk   7  t=" + printfText("%8.3f", 12.3456) +
              "s  interval=" + printfText("%8.1f", 750.1) + "ms  frames= 12  bytes=123456");
    CHECK(savedVideoLine(10, 12, QStringLiteral("/tmp/v.mp4")) ==
          QStringLiteral("Saved 10 streamed bytes -> 12 playback bytes at /tmp/v.mp4"));
}
