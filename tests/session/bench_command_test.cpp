#include "app/media/remux.h"
#include "app/report/session_document.h"
#include "app/report/text_report.h"
#include "metrics/session_metrics.h"
#include "scripted_server.h"

#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTimer>

#include <catch2/catch.hpp>

using namespace lbm;

namespace {

struct BenchRun {
    int exit_code = -1;
    QString out;
    QString err;
};

// Runs the real executable while this process's event loop keeps the server answering.
BenchRun runProgram(const QStringList& arguments) {
    QProcess process;
    QEventLoop loop;
    QObject::connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
    QObject::connect(&process, &QProcess::errorOccurred, &loop, &QEventLoop::quit);
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    process.start(QStringLiteral(LBM_BINARY_DIR "/lingbot-monitor"), arguments);
    loop.exec();
    BenchRun run;
    run.exit_code = process.state() == QProcess::NotRunning ? process.exitCode() : -1;
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        process.waitForFinished();
    }
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

BenchRun runBench(const QStringList& arguments) {
    return runProgram(QStringList{QStringLiteral("bench")} + arguments);
}

QStringList againstServer(const ScriptedServer& server, int chunks) {
    return {QStringLiteral("--port"),          QString::number(server.url().port()),
            QStringLiteral("--num-chunks"),    QString::number(chunks),
            QStringLiteral("--ping-interval"), QStringLiteral("0")};
}

QString lastLine(const QString& text) {
    return text.trimmed().split(QLatin1Char('\n')).last();
}

} // namespace

TEST_CASE("bench argument errors read like the benchmark's argparse errors", "[bench][args]") {
    const std::vector<std::pair<QStringList, QString>> cases = {
        {{QStringLiteral("--sessions"), QStringLiteral("0")},
         QStringLiteral("--sessions must be at least 1.")},
        {{QStringLiteral("--warmup-sessions"), QStringLiteral("-1")},
         QStringLiteral("--warmup-sessions must be non-negative.")},
        {{QStringLiteral("--warmup-chunks"), QStringLiteral("-2")},
         QStringLiteral("--warmup-chunks must be non-negative.")},
        {{QStringLiteral("--playback-buffer-chunks"), QStringLiteral("0")},
         QStringLiteral("--playback-buffer-chunks must be at least 1.")},
        {{QStringLiteral("--target-fps"), QStringLiteral("0")},
         QStringLiteral("--target-fps must be positive.")},
        {{QStringLiteral("--num-chunks"), QStringLiteral("0")},
         QStringLiteral("--num-chunks must be at least 1.")},
        {{QStringLiteral("--num-chunks"), QStringLiteral("381301")},
         QStringLiteral("--num-chunks must be at most 381300 (a larger session.start exceeds "
                        "the server's 4 MiB limit).")},
        {{QStringLiteral("--port"), QStringLiteral("eighty")},
         QStringLiteral("argument --port: invalid int value: 'eighty'")},
        {{QStringLiteral("--flow-shift"), QStringLiteral("x")},
         QStringLiteral("argument --flow-shift: invalid float value: 'x'")},
        {{QStringLiteral("--camera-pattern"), QStringLiteral("spiral")},
         QStringLiteral("argument --camera-pattern: invalid choice: 'spiral' (choose from "
                        "'forward', 'orbit', 'hold')")},
        {{QStringLiteral("--host")}, QStringLiteral("argument --host: expected one argument")},
        {{QStringLiteral("--bogus")}, QStringLiteral("unrecognized arguments: --bogus")},
    };
    for (const auto& [arguments, message] : cases) {
        INFO(arguments.join(QLatin1Char(' ')).toStdString());
        const BenchRun run = runBench(arguments);
        REQUIRE(run.exit_code == 2);
        REQUIRE(
            run.err.startsWith(QStringLiteral("usage: lingbot-monitor bench [-h] [--host HOST]")));
        REQUIRE(lastLine(run.err) == QStringLiteral("lingbot-monitor bench: error: ") + message);
        REQUIRE(run.out.isEmpty());
    }
}

TEST_CASE("a bench run prints the benchmark's lines and report and writes every output",
          "[bench]") {
    ScriptedServer::Script script;
    script.chunks = 8;
    script.chunk_interval_ms = 15;
    script.real_video = true;
    ScriptedServer server(script);
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("run.json"));
    const QString mp4 = dir.filePath(QStringLiteral("run.mp4"));
    const QString raw = dir.filePath(QStringLiteral("run.m4s"));
    const QString csv = dir.filePath(QStringLiteral("run.csv"));
    const BenchRun run =
        runBench(againstServer(server, 8) +
                 QStringList{QStringLiteral("--output-json"), json, QStringLiteral("--save-video"),
                             mp4, QStringLiteral("--save-raw"), raw, QStringLiteral("--csv"), csv,
                             QStringLiteral("--print-chunks"), QStringLiteral("--warmup-chunks"),
                             QStringLiteral("2"), QStringLiteral("--prompt-update"),
                             QStringLiteral("1:2:A snowy street"), QStringLiteral("--timeline")});
    INFO(run.err.toStdString());
    INFO(run.out.toStdString());
    REQUIRE(run.exit_code == 0);
    const QString url = server.url().toString();
    REQUIRE(run.out.contains(
        QStringLiteral("First frame: the bundled 832x480 image (no --image given)\n")));
    REQUIRE(run.out.contains(QStringLiteral("Connecting to ") + url + QLatin1Char('\n')));
    REQUIRE(run.out.contains(QStringLiteral("Rollout: 8 chunks, num_frames=93, 5.81s of video\n")));
    REQUIRE(run.out.contains(QStringLiteral(
        "Real-time basis: 16 fps -> a steady 12-frame chunk is 750.0 ms of video\n")));
    REQUIRE(run.out.count(QStringLiteral("  chunk ")) == 8);
    REQUIRE(run.out.contains(QStringLiteral("chunk-1  scheduled-prompt A snowy street  sent ")));

    // The document: the benchmark's keys, metrics equal to compute_metrics on its own rows.
    const report::SessionDocument document = report::readSessionDocument(json);
    REQUIRE(document.endpoint == url);
    REQUIRE(document.sessions.size() == 1);
    const report::SessionEntry& entry = document.sessions[0];
    REQUIRE(entry.chunks.size() == 8);
    REQUIRE(entry.request_id == QStringLiteral("video_stream-test"));
    MetricsOptions options;
    options.fps = 16;
    options.warmup_chunks = 2;
    options.ttfc_s = entry.ttfc_s;
    options.session_wall_s = entry.wall_s;
    const SessionMetrics expected = computeMetrics(entry.chunks, options);
    REQUIRE(entry.metrics.has_value());
    REQUIRE(entry.metrics->chunks_received == expected.chunks_received);
    REQUIRE(entry.metrics->video_rtf == Approx(expected.video_rtf).epsilon(1e-12));
    REQUIRE(entry.metrics->interval_all->p99_ms ==
            Approx(expected.interval_all->p99_ms).epsilon(1e-12));
    REQUIRE(entry.metrics->steady_chunks == expected.steady_chunks);
    REQUIRE(entry.metrics->playback.underrun_count == expected.playback.underrun_count);
    REQUIRE(entry.monitor_extras.value(QStringLiteral("frames_decoded")).toInt() == 93);
    REQUIRE(entry.monitor_extras.value(QStringLiteral("frames_announced")).toInt() == 93);
    REQUIRE(entry.monitor_extras.value(QStringLiteral("interactions")).toArray().size() == 1);
    REQUIRE(document.monitor.has_value());
    REQUIRE(document.monitor->complete);

    // The printed report is the report of that document, byte for byte.
    REQUIRE(run.out.contains(report::formatTextReport(document)));
    REQUIRE(run.out.contains(
        QStringLiteral("======== LingBot-World realtime streaming benchmark ========\n")));
    REQUIRE(run.out.contains(report::reportRow(QStringLiteral("Endpoint:"), url)));
    REQUIRE(run.out.contains(QStringLiteral("Wrote ") + json));

    REQUIRE(run.out.contains(QStringLiteral(" playback bytes at ") + mp4));
    const media::RemuxResult again =
        media::remuxToMp4(raw, dir.filePath(QStringLiteral("again.mp4")));
    REQUIRE(again.ok);
    REQUIRE(again.packets_written == 93);
    REQUIRE(QFileInfo(mp4).size() > 0);

    QFile table(csv);
    REQUIRE(table.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(table.readAll()).trimmed().split(QLatin1Char('\n'));
    REQUIRE(lines.size() == 9);
    REQUIRE(lines[0].contains(QStringLiteral("decoded_frames")));
    REQUIRE(lines[0].contains(QStringLiteral("started_event_ids")));
    // The row of the chunk the server reported the update started in names it. Which chunk that
    // is depends on how far the server had run ahead when the update arrived (a slow sanitizer
    // build can push it from chunk 2 to chunk 3), so take it from the recorded interaction.
    const QJsonObject interaction =
        entry.monitor_extras.value(QStringLiteral("interactions")).toArray().at(0).toObject();
    const QJsonValue started = interaction.value(QStringLiteral("started_chunk"));
    REQUIRE(started.isDouble());
    const int started_chunk = started.toInt();
    REQUIRE(started_chunk >= 2);
    REQUIRE(server.startedChunkOf(QStringLiteral("chunk-1")) == started_chunk);
    const qsizetype started_column =
        lines[0].split(QLatin1Char(',')).indexOf(QStringLiteral("started_event_ids"));
    REQUIRE(started_column >= 0);
    for (int chunk = 0; chunk < 8; ++chunk) {
        INFO("csv row of chunk " << chunk << ": " << lines[chunk + 1].toStdString());
        const QStringList fields = lines[chunk + 1].split(QLatin1Char(','));
        REQUIRE(fields.size() > started_column);
        const QString started_ids = fields[started_column];
        REQUIRE(started_ids == (chunk == started_chunk ? QStringLiteral("chunk-1") : QString()));
    }
}

TEST_CASE("a failed bench session: one-line reason, exit 1, playable partial recording and an "
          "incomplete document",
          "[bench][faults]") {
    ScriptedServer::Script script;
    script.chunks = 6;
    script.real_video = true;
    script.before_chunk = [](QWebSocket* socket, int chunk) {
        if (chunk == 3) {
            socket->abort();
            return false;
        }
        return true;
    };
    ScriptedServer server(script);
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("partial.json"));
    const QString raw = dir.filePath(QStringLiteral("partial.m4s"));
    const BenchRun run =
        runBench(againstServer(server, 6) + QStringList{QStringLiteral("--output-json"), json,
                                                        QStringLiteral("--save-raw"), raw});
    REQUIRE(run.exit_code == 1);
    REQUIRE(lastLine(run.err).startsWith(
        QStringLiteral("ERROR: The server closed the connection after 3 chunk(s)")));
    const report::SessionDocument document = report::readSessionDocument(json);
    REQUIRE(document.monitor.has_value());
    REQUIRE_FALSE(document.monitor->complete);
    REQUIRE(document.monitor->incomplete_reason.startsWith(QStringLiteral("The server closed")));
    REQUIRE(document.sessions.size() == 1);
    REQUIRE(document.sessions[0].chunks.size() == 3);
    const media::RemuxResult partial =
        media::remuxToMp4(raw, dir.filePath(QStringLiteral("p.mp4")));
    INFO(partial.error.toStdString());
    REQUIRE(partial.ok);
    // 9 + 12 + 12 announced; the last frame of chunk 2 needs chunk 3's bytes (one-frame lag).
    REQUIRE(partial.packets_written == 32);
}

TEST_CASE("bench against a port nothing listens on fails with a clear message", "[bench]") {
    quint16 port = 0;
    {
        QTcpServer probe;
        REQUIRE(probe.listen(QHostAddress::LocalHost, 0));
        port = probe.serverPort();
    }
    const BenchRun run = runBench({QStringLiteral("--port"), QString::number(port),
                                   QStringLiteral("--num-chunks"), QStringLiteral("3")});
    REQUIRE(run.exit_code == 1);
    REQUIRE(run.err.contains(QStringLiteral(
        "WARNING: --warmup-chunks=6 leaves no nonterminal steady-state chunk in a 3-chunk "
        "rollout; steady-state metrics will be empty.")));
    REQUIRE(lastLine(run.err).startsWith(
        QStringLiteral("ERROR: Could not connect to ws://127.0.0.1:%1/v1/realtime/video")
            .arg(port)));
}

TEST_CASE("bench --simulate runs against the in-process simulator with the bundled frame",
          "[bench][sim]") {
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("sim.json"));
    // Measuring flags with values no default produces: each is given once, on the command line.
    const BenchRun run = runBench({QStringLiteral("--simulate"), QStringLiteral("--num-chunks"),
                                   QStringLiteral("4"), QStringLiteral("--warmup-chunks"),
                                   QStringLiteral("1"), QStringLiteral("--chunk-slo-ms"),
                                   QStringLiteral("432.5"), QStringLiteral("--target-fps"),
                                   QStringLiteral("20"), QStringLiteral("--playback-buffer-chunks"),
                                   QStringLiteral("2"), QStringLiteral("--output-json"), json});
    INFO(run.err.toStdString());
    REQUIRE(run.exit_code == 0);
    REQUIRE(run.out.contains(
        QStringLiteral("First frame: the bundled 832x480 image (no --image given)\n")));
    REQUIRE(run.out.contains(QStringLiteral("Simulator: built-in, profile fast\n")));
    REQUIRE(run.out.contains(QStringLiteral("Connecting to ws://127.0.0.1:")));
    REQUIRE(run.out.contains(
        QStringLiteral("------------------------- Cadence --------------------------\n")));
    const report::SessionDocument document = report::readSessionDocument(json);
    REQUIRE(document.sessions.at(0).chunks.size() == 4);
    // They reach the document's config and the metrics the engine measured live.
    CHECK(document.config.chunk_slo_ms == std::optional<double>(432.5));
    CHECK(document.config.warmup_chunks == 1);
    CHECK(document.config.target_fps == 20.0);
    CHECK(document.config.playback_buffer_chunks == 2);
    REQUIRE(document.sessions[0].metrics.has_value());
    CHECK(document.sessions[0].metrics->chunk_deadline_ms == 432.5);
    CHECK(document.sessions[0].metrics->warmup_chunks == 1);
    CHECK(document.sessions[0].metrics->playback_buffer_chunks == 2);
    REQUIRE(document.monitor->extras.value(QStringLiteral("simulator_profile")).toString() ==
            QStringLiteral("fast"));
    REQUIRE(document.sessions[0].monitor_extras.value(QStringLiteral("frames_decoded")).toInt() ==
            document.sessions[0].monitor_extras.value(QStringLiteral("frames_announced")).toInt());
}

TEST_CASE("bench --simulate with an unknown profile names the profiles", "[bench][sim]") {
    const BenchRun run = runBench(
        {QStringLiteral("--simulate=warp"), QStringLiteral("--num-chunks"), QStringLiteral("2")});
    REQUIRE(run.exit_code == 1);
    REQUIRE(lastLine(run.err).startsWith(
        QStringLiteral("ERROR: --simulate=warp: the built-in simulator did not start: ")));
    REQUIRE(run.err.contains(QStringLiteral("fast")));
}

TEST_CASE("bench --quality with simulator faults flags them in the report, CSV and document",
          "[bench][sim][quality]") {
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("quality.json"));
    const QString csv = dir.filePath(QStringLiteral("quality.csv"));
    const BenchRun run = runBench(
        {QStringLiteral("--simulate"), QStringLiteral("--num-chunks"), QStringLiteral("8"),
         QStringLiteral("--camera-pattern"), QStringLiteral("orbit"), QStringLiteral("--fault"),
         QStringLiteral("seam@3"), QStringLiteral("--fault=freeze@5"), QStringLiteral("--quality"),
         QStringLiteral("--csv"), csv, QStringLiteral("--output-json"), json});
    INFO(run.err.toStdString());
    INFO(run.out.toStdString());
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.contains(QStringLiteral("Simulator: built-in, profile fast, faults seam@3 "
                                          "freeze@5\n")));
    // Ours after the benchmark's sections, which end as they always did.
    const qsizetype benchmark_end = run.out.indexOf(QStringLiteral("Stall ratio:"));
    const qsizetype quality_start = run.out.indexOf(QStringLiteral(" Visual quality "));
    REQUIRE(benchmark_end > 0);
    CHECK(quality_start > benchmark_end);
    // The CSV: quality_flags names each fault on its own chunk row, empty on clean ones.
    QFile file(csv);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split(QLatin1Char('\n'));
    REQUIRE(lines.size() == 9);
    const QStringList header = lines[0].split(QLatin1Char(','));
    const qsizetype flags_column = header.indexOf(QStringLiteral("quality_flags"));
    REQUIRE(flags_column > 0);
    CHECK(header.contains(QStringLiteral("seam_score")));
    QStringList flags;
    for (qsizetype row = 1; row < lines.size(); ++row) {
        flags.append(lines[row].split(QLatin1Char(',')).value(flags_column));
    }
    CHECK(flags == QStringList{QString(), QString(), QString(), QStringLiteral("seam"), QString(),
                               QStringLiteral("freeze"), QString(), QString()});
    // The document: the per-chunk analysis under our key, and `report` prints it again.
    const report::SessionDocument document = report::readSessionDocument(json);
    const QJsonObject stored =
        document.sessions.at(0).monitor_extras.value(QStringLiteral("quality")).toObject();
    CHECK(stored.value(QStringLiteral("chunks")).toArray().size() == 8);
    const BenchRun report = runProgram({QStringLiteral("report"), json});
    CHECK(report.exit_code == 0);
    const qsizetype quality_end = run.out.indexOf(QStringLiteral("Wrote "), quality_start);
    CHECK(report.out.contains(run.out.mid(quality_start, quality_end - quality_start)));
}

TEST_CASE("bench --fault needs --simulate and a known fault", "[bench][args]") {
    const BenchRun without_simulator =
        runBench({QStringLiteral("--fault"), QStringLiteral("seam@3")});
    CHECK(without_simulator.exit_code == 2);
    CHECK(lastLine(without_simulator.err).contains(QStringLiteral("add --simulate")));
    const BenchRun unknown = runBench(
        {QStringLiteral("--simulate"), QStringLiteral("--fault"), QStringLiteral("smear@3")});
    CHECK(unknown.exit_code == 2);
    CHECK(lastLine(unknown.err).contains(QStringLiteral("Unknown fault 'smear'")));
}

TEST_CASE("bench settles a superseded transition in --timeline, the CSV, the document and "
          "report",
          "[bench][sim]") {
    // Against the simulator, which keeps one pending prompt as the real handler does: the
    // update sent after chunk 0 (K = 3) is under way when the one sent after chunk 1 starts.
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("run.json"));
    const QString csv = dir.filePath(QStringLiteral("run.csv"));
    const BenchRun run =
        runBench({QStringLiteral("--simulate"), QStringLiteral("--num-chunks"), QStringLiteral("6"),
                  QStringLiteral("--prompt-update"), QStringLiteral("0:3:A snowy street"),
                  QStringLiteral("--prompt-update"), QStringLiteral("1:0:A desert road"),
                  QStringLiteral("--timeline"), QStringLiteral("--csv"), csv,
                  QStringLiteral("--output-json"), json, QStringLiteral("--ping-interval"),
                  QStringLiteral("0")});
    INFO(run.err.toStdString());
    INFO(run.out.toStdString());
    REQUIRE(run.exit_code == 0);
    const report::SessionDocument document = report::readSessionDocument(json);
    const QJsonArray interactions =
        document.sessions.at(0).monitor_extras.value(QStringLiteral("interactions")).toArray();
    REQUIRE(interactions.size() == 2);
    const QJsonObject older = interactions.at(0).toObject();
    const QJsonObject newer = interactions.at(1).toObject();
    REQUIRE(older.value(QStringLiteral("state")) == QStringLiteral("superseded"));
    REQUIRE(older.value(QStringLiteral("superseded_by")) == QStringLiteral("chunk-1"));
    const int chunk = newer.value(QStringLiteral("started_chunk")).toInt();
    REQUIRE(older.value(QStringLiteral("superseded_chunk")).toInt() == chunk);
    const QString settled = QStringLiteral("superseded by chunk-1 at chunk %1").arg(chunk);
    REQUIRE(run.out.contains(settled));

    QFile table(csv);
    REQUIRE(table.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(table.readAll()).trimmed().split(QLatin1Char('\n'));
    REQUIRE(lines[0].endsWith(QStringLiteral(",superseded_event_ids")));
    REQUIRE(lines.at(chunk + 1).endsWith(QStringLiteral(",chunk-0 (by chunk-1)")));

    QProcess report;
    report.start(QStringLiteral(LBM_BINARY_DIR "/lingbot-monitor"),
                 {QStringLiteral("report"), json});
    REQUIRE(report.waitForFinished(60000));
    const QString printed = QString::fromUtf8(report.readAllStandardOutput());
    REQUIRE(report.exitCode() == 0);
    REQUIRE(printed.contains(QStringLiteral("Session 1:\n")));
    REQUIRE(printed.contains(QStringLiteral("Interaction chunk-0  scheduled-prompt")));
    REQUIRE(printed.contains(settled));
}

TEST_CASE("bench takes a one-chunk session whose chunk has no generation index", "[bench][sim]") {
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("one.json"));
    const BenchRun run = runBench({QStringLiteral("--simulate"), QStringLiteral("--num-chunks"),
                                   QStringLiteral("1"), QStringLiteral("--output-json"), json,
                                   QStringLiteral("--ping-interval"), QStringLiteral("0")});
    INFO(run.err.toStdString());
    REQUIRE(run.exit_code == 0);
    const report::SessionDocument document = report::readSessionDocument(json);
    REQUIRE(document.sessions.at(0).chunks.size() == 1);
    REQUIRE(document.sessions.at(0).chunks.at(0).index == 0);
    REQUIRE(document.sessions.at(0)
                .monitor_extras.value(QStringLiteral("chunks_numbered_by_position"))
                .toArray() == QJsonArray{0});
    REQUIRE(
        document.sessions.at(0).monitor_extras.value(QStringLiteral("frames_decoded")).toInt() ==
        9);
}
