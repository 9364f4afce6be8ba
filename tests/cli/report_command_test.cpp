// `lingbot-monitor report` run as a real process on documents built from golden records.

#include "app/report/metrics_json.h"
#include "app/report/quality_json.h"
#include "app/report/session_document.h"
#include "metrics/session_metrics.h"
#include "tests/report/golden_json.h"

#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

namespace {

struct RunResult {
    int exit_code = -1;
    QString out;
    QString err;
};

RunResult runMonitor(const QStringList& arguments) {
    QProcess process;
    process.setProgram(QStringLiteral(LBM_BINARY_DIR "/lingbot-monitor"));
    process.setArguments(arguments);
    process.start();
    REQUIRE(process.waitForStarted(30000));
    REQUIRE(process.waitForFinished(60000));
    REQUIRE(process.exitStatus() == QProcess::NormalExit);
    return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

void writeJson(const QString& path, const QJsonObject& object) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(object).toJson());
}

std::string printfText(const char* format, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

// f"{label:<44}{value:>16}" built here, independently of the report code.
QString row(const std::string& label, const std::string& value) {
    std::string line = label;
    line.append(line.size() < 44 ? 44 - line.size() : 0, ' ');
    line.append(value.size() < 16 ? 16 - value.size() : 0, ' ');
    return QString::fromStdString(line + value);
}

bool hasLine(const QString& text, const QString& line) {
    return text.split(QLatin1Char('\n')).contains(line);
}

QJsonArray goldenMetrics() {
    return lbm::test::goldenGroup(QStringLiteral("metrics"));
}

std::vector<lbm::ChunkRecord> recordsOf(const QJsonObject& golden_case) {
    QJsonArray rows;
    for (const QJsonValue& record : golden_case.value(QStringLiteral("records")).toArray()) {
        QJsonObject row_object = record.toObject();
        row_object.remove(QStringLiteral("inter_arrival_s"));
        rows.append(row_object);
    }
    return lbm::report::chunkRecordsFromJson(rows, QStringLiteral("records"));
}

lbm::MetricsOptions storedOptions(const QJsonObject& golden_case) {
    const QJsonObject kwargs = golden_case.value(QStringLiteral("kwargs")).toObject();
    const QJsonObject ok = golden_case.value(QStringLiteral("ok")).toObject();
    lbm::MetricsOptions options;
    options.fps = kwargs.value(QStringLiteral("fps")).toDouble();
    options.warmup_chunks = kwargs.value(QStringLiteral("warmup_chunks")).toInt();
    options.playback_buffer_chunks = kwargs.value(QStringLiteral("playback_buffer_chunks")).toInt();
    if (!kwargs.value(QStringLiteral("slo_ms")).isNull()) {
        options.slo_ms = kwargs.value(QStringLiteral("slo_ms")).toDouble();
    }
    if (ok.contains(QStringLiteral("ttfc_ms"))) {
        options.ttfc_s = ok.value(QStringLiteral("ttfc_ms")).toDouble() / 1000.0;
    }
    options.session_wall_s = ok.value(QStringLiteral("wall_seconds")).toDouble();
    return options;
}

} // namespace

TEST_CASE("report reproduces every golden session through the command line", "[cli][report]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QJsonArray cases = goldenMetrics();
    int checked = 0;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden_case = cases.at(i).toObject();
        if (!golden_case.contains(QStringLiteral("ok"))) {
            continue;
        }
        INFO("metrics case " << i);
        const QJsonObject ok = golden_case.value(QStringLiteral("ok")).toObject();
        const QString input = dir.filePath(QStringLiteral("in-%1.json").arg(i));
        const QString output = dir.filePath(QStringLiteral("out-%1.json").arg(i));
        writeJson(input, lbm::test::benchmarkDocumentForMetricsCase(golden_case));

        const RunResult result =
            runMonitor({QStringLiteral("report"), input, QStringLiteral("--output-json"), output});
        INFO(result.err.toStdString());
        REQUIRE(result.exit_code == 0);
        const QJsonObject written = lbm::test::readJsonObject(output);
        const QJsonObject session_metrics = written.value(QStringLiteral("sessions"))
                                                .toArray()
                                                .at(0)
                                                .toObject()
                                                .value(QStringLiteral("metrics"))
                                                .toObject();
        CHECK(lbm::test::jsonDifference(ok, session_metrics).toStdString() == "");
        QJsonObject aggregate = ok;
        aggregate.insert(QStringLiteral("sessions"), 1);
        CHECK(lbm::test::jsonDifference(aggregate, written.value(QStringLiteral("metrics")))
                  .toStdString() == "");

        // The printed report shows the same numbers.
        const QString& out = result.out;
        INFO(out.toStdString());
        CHECK(hasLine(out,
                      row("VIDEO_RTF (wall s / video s, <1 real time):",
                          printfText("%.3f", ok.value(QStringLiteral("video_rtf")).toDouble()))));
        CHECK(hasLine(
            out,
            row("Chunk deadline:",
                printfText("%.1f ms", ok.value(QStringLiteral("chunk_deadline_ms")).toDouble()))));
        const QJsonObject playback = ok.value(QStringLiteral("playback")).toObject();
        CHECK(hasLine(
            out, row("Underruns:",
                     std::to_string(playback.value(QStringLiteral("underrun_count")).toInt()))));
        if (ok.contains(QStringLiteral("ttfc_ms"))) {
            CHECK(hasLine(
                out, row("TTFC (session.start -> first chunk):",
                         printfText("%.1f ms", ok.value(QStringLiteral("ttfc_ms")).toDouble()))));
        } else {
            CHECK_FALSE(out.contains(QStringLiteral("TTFC")));
        }
        CHECK(hasLine(out, QStringLiteral("Wrote ") + output));
        ++checked;
    }
    CHECK(checked > 50);
}

TEST_CASE("options override the file's config", "[cli][report]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    // A recorded run that stalled behind a one-chunk buffer, where a three-chunk buffer
    // would have hidden some of it.
    const QJsonArray cases = goldenMetrics();
    qsizetype chosen = -1;
    lbm::SessionMetrics deeper;
    for (qsizetype i = 0; i < cases.size() && chosen < 0; ++i) {
        const QJsonObject golden_case = cases.at(i).toObject();
        const QJsonObject ok = golden_case.value(QStringLiteral("ok")).toObject();
        if (ok.isEmpty() || golden_case.value(QStringLiteral("kwargs"))
                                    .toObject()
                                    .value(QStringLiteral("playback_buffer_chunks"))
                                    .toInt() != 1) {
            continue;
        }
        lbm::MetricsOptions options = storedOptions(golden_case);
        options.playback_buffer_chunks = 3;
        const lbm::SessionMetrics candidate = lbm::computeMetrics(recordsOf(golden_case), options);
        const int before = ok.value(QStringLiteral("playback"))
                               .toObject()
                               .value(QStringLiteral("underrun_count"))
                               .toInt();
        if (candidate.playback.underrun_count < before) {
            chosen = i;
            deeper = candidate;
        }
    }
    REQUIRE(chosen >= 0);
    const QJsonObject golden_case = cases.at(chosen).toObject();
    const QString input = dir.filePath(QStringLiteral("in.json"));
    writeJson(input, lbm::test::benchmarkDocumentForMetricsCase(golden_case));

    SECTION("a deeper start buffer reduces the underruns") {
        const QString output = dir.filePath(QStringLiteral("buffer3.json"));
        const RunResult result =
            runMonitor({QStringLiteral("report"), input, QStringLiteral("--playback-buffer-chunks"),
                        QStringLiteral("3"), QStringLiteral("--output-json"), output});
        INFO(result.err.toStdString());
        REQUIRE(result.exit_code == 0);
        const QJsonObject written = lbm::test::readJsonObject(output);
        CHECK(written.value(QStringLiteral("config"))
                  .toObject()
                  .value(QStringLiteral("playback_buffer_chunks"))
                  .toInt() == 3);
        CHECK(lbm::test::jsonDifference(lbm::report::toJson(deeper),
                                        written.value(QStringLiteral("sessions"))
                                            .toArray()
                                            .at(0)
                                            .toObject()
                                            .value(QStringLiteral("metrics")))
                  .toStdString() == "");
        CHECK(hasLine(result.out, row("Start buffer:", "3 chunk(s)")));
        CHECK(
            hasLine(result.out, row("Underruns:", std::to_string(deeper.playback.underrun_count))));
    }
    SECTION("watching at another fps moves the deadline and the basis") {
        const RunResult result = runMonitor(
            {QStringLiteral("report"), input, QStringLiteral("--target-fps"), QStringLiteral("12"),
             QStringLiteral("--chunk-slo-ms"), QStringLiteral("900"),
             QStringLiteral("--warmup-chunks"), QStringLiteral("2")});
        INFO(result.err.toStdString());
        REQUIRE(result.exit_code == 0);
        lbm::MetricsOptions options = storedOptions(golden_case);
        options.fps = 12;
        options.slo_ms = 900;
        options.warmup_chunks = 2;
        const lbm::SessionMetrics expected = lbm::computeMetrics(recordsOf(golden_case), options);
        CHECK(hasLine(result.out, row("Real-time basis:", "12 fps")));
        CHECK(hasLine(result.out, row("Mux label sent to server:", "16 fps")));
        CHECK(hasLine(result.out, row("Chunk deadline:", "900.0 ms")));
        CHECK(hasLine(result.out, row("VIDEO_RTF (wall s / video s, <1 real time):",
                                      printfText("%.3f", expected.video_rtf))));
        REQUIRE(expected.slo_attainment.has_value());
        CHECK(hasLine(result.out,
                      row("Steady chunks within deadline:",
                          printfText("%.1f%%", *expected.slo_attainment * 100.0) + " (" +
                              std::to_string(expected.slo_violations.value_or(-1)) + " late)")));
    }
}

TEST_CASE("several sessions aggregate as the benchmark does", "[cli][report]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QJsonArray cases = goldenMetrics();
    QJsonObject document;
    QJsonArray sessions;
    std::vector<lbm::SessionMetrics> expected_sessions;
    for (qsizetype i = 0; i < cases.size() && sessions.size() < 3; ++i) {
        const QJsonObject golden_case = cases.at(i).toObject();
        if (!golden_case.contains(QStringLiteral("ok")) || recordsOf(golden_case).size() < 3) {
            continue;
        }
        const QJsonObject single = lbm::test::benchmarkDocumentForMetricsCase(golden_case);
        if (document.isEmpty()) {
            document = single;
        }
        QJsonObject session = single.value(QStringLiteral("sessions")).toArray().at(0).toObject();
        session.insert(QStringLiteral("session_index"), sessions.size());
        sessions.append(session);
        lbm::MetricsOptions options = storedOptions(golden_case);
        options.fps = 16;
        options.warmup_chunks = 3;
        options.slo_ms = std::nullopt;
        options.playback_buffer_chunks = 2;
        expected_sessions.push_back(lbm::computeMetrics(recordsOf(golden_case), options));
    }
    REQUIRE(sessions.size() == 3);
    document.insert(QStringLiteral("sessions"), sessions);
    QJsonObject config = document.value(QStringLiteral("config")).toObject();
    config.insert(QStringLiteral("sessions"), 3);
    config.insert(QStringLiteral("chunk_slo_ms"), QJsonValue::Null);
    document.insert(QStringLiteral("config"), config);
    const QString input = dir.filePath(QStringLiteral("three.json"));
    const QString output = dir.filePath(QStringLiteral("three-out.json"));
    writeJson(input, document);

    const RunResult result =
        runMonitor({QStringLiteral("report"), input, QStringLiteral("--target-fps"),
                    QStringLiteral("16"), QStringLiteral("--warmup-chunks"), QStringLiteral("3"),
                    QStringLiteral("--playback-buffer-chunks"), QStringLiteral("2"),
                    QStringLiteral("--output-json"), output});
    INFO(result.err.toStdString());
    REQUIRE(result.exit_code == 0);
    const lbm::AggregateMetrics expected = lbm::aggregateMetrics(expected_sessions, 16);
    const QJsonObject written = lbm::test::readJsonObject(output);
    CHECK(lbm::test::jsonDifference(lbm::report::toJson(expected),
                                    written.value(QStringLiteral("metrics")))
              .toStdString() == "");
    CHECK(hasLine(result.out,
                  QStringLiteral("--------------------- Across sessions ----------------------")));
    CHECK(hasLine(result.out, row("Sessions:", "3")));
    CHECK(hasLine(result.out, row("VIDEO_RTF mean (lower is better):",
                                  printfText("%.3f", expected.video_rtf_mean))));
    CHECK(hasLine(result.out,
                  row("Underruns (all sessions):", std::to_string(expected.underrun_count))));
    // Provenance of a recomputed file sits in our own section.
    CHECK(written.value(QStringLiteral("lingbot_monitor"))
              .toObject()
              .value(QStringLiteral("recomputed_from"))
              .toString() == input);
}

TEST_CASE("report errors explain themselves and leave no output", "[cli][report]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString output = dir.filePath(QStringLiteral("out.json"));
    const auto expectFailure = [&](const QStringList& arguments, int exit_code,
                                   const QString& message) {
        const RunResult result = runMonitor(arguments);
        INFO(result.err.toStdString());
        CHECK(result.exit_code == exit_code);
        CHECK(result.err.contains(message));
        CHECK(result.out.isEmpty());
        CHECK_FALSE(QFile::exists(output));
    };

    SECTION("missing file") {
        const QString missing = dir.filePath(QStringLiteral("nope.json"));
        expectFailure({QStringLiteral("report"), missing, QStringLiteral("--output-json"), output},
                      1, missing + QStringLiteral(" does not exist"));
    }
    SECTION("invalid JSON") {
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile file(broken);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("{\"sessions\": [}");
        file.close();
        expectFailure({QStringLiteral("report"), broken, QStringLiteral("--output-json"), output},
                      1, QStringLiteral("is not valid JSON"));
    }
    SECTION("a missing field is named") {
        QJsonObject document =
            lbm::test::benchmarkDocumentForMetricsCase(goldenMetrics().at(0).toObject());
        QJsonArray sessions = document.value(QStringLiteral("sessions")).toArray();
        QJsonObject session = sessions.at(0).toObject();
        session.remove(QStringLiteral("chunks"));
        sessions.replace(0, session);
        document.insert(QStringLiteral("sessions"), sessions);
        const QString input = dir.filePath(QStringLiteral("nochunks.json"));
        writeJson(input, document);
        expectFailure({QStringLiteral("report"), input, QStringLiteral("--output-json"), output}, 1,
                      QStringLiteral("The field \"sessions[0].chunks\" is missing."));
    }
    SECTION("a metric rule the options break gives the seed's message") {
        // The golden case whose buffer exceeds its two chunks.
        const QJsonArray cases = goldenMetrics();
        qsizetype chosen = -1;
        for (qsizetype i = 0; i < cases.size(); ++i) {
            if (cases.at(i).toObject().value(QStringLiteral("error")).toString() ==
                QStringLiteral("buffer_chunks=3 exceeds the 2 chunks received.")) {
                chosen = i;
            }
        }
        REQUIRE(chosen >= 0);
        const QString input = dir.filePath(QStringLiteral("two.json"));
        writeJson(input, lbm::test::benchmarkDocumentForMetricsCase(cases.at(chosen).toObject()));
        expectFailure({QStringLiteral("report"), input, QStringLiteral("--output-json"), output}, 1,
                      QStringLiteral("buffer_chunks=3 exceeds the 2 chunks received."));
        // The same file reports fine once the buffer fits.
        const RunResult fixed =
            runMonitor({QStringLiteral("report"), input, QStringLiteral("--playback-buffer-chunks"),
                        QStringLiteral("2")});
        CHECK(fixed.exit_code == 0);
    }
    SECTION("an existing output file survives a failed run") {
        {
            QFile existing(output);
            REQUIRE(existing.open(QIODevice::WriteOnly));
            existing.write("previous run");
        }
        const RunResult result =
            runMonitor({QStringLiteral("report"), dir.filePath(QStringLiteral("nope.json")),
                        QStringLiteral("--output-json"), output});
        CHECK(result.exit_code == 1);
        QFile existing(output);
        REQUIRE(existing.open(QIODevice::ReadOnly));
        CHECK(existing.readAll() == QByteArray("previous run"));
    }
    SECTION("usage errors exit 2 with the benchmark's words") {
        const QString input = dir.filePath(QStringLiteral("any.json"));
        writeJson(input,
                  lbm::test::benchmarkDocumentForMetricsCase(goldenMetrics().at(0).toObject()));
        expectFailure({QStringLiteral("report"), input, QStringLiteral("--target-fps"),
                       QStringLiteral("0"), QStringLiteral("--output-json"), output},
                      2, QStringLiteral("--target-fps must be positive."));
        expectFailure({QStringLiteral("report"), input, QStringLiteral("--playback-buffer-chunks"),
                       QStringLiteral("0")},
                      2, QStringLiteral("--playback-buffer-chunks must be at least 1."));
        expectFailure({QStringLiteral("report"), input, QStringLiteral("--warmup-chunks"),
                       QStringLiteral("-1")},
                      2, QStringLiteral("--warmup-chunks must be non-negative."));
        expectFailure({QStringLiteral("report"), input, QStringLiteral("--warmup-chunks"),
                       QStringLiteral("many")},
                      2, QStringLiteral("--warmup-chunks expects a whole number, got 'many'."));
        expectFailure({QStringLiteral("report")}, 2,
                      QStringLiteral("give the session document to report on."));
        expectFailure({QStringLiteral("report"), input, QStringLiteral("--bogus")}, 2,
                      QStringLiteral("Unknown option 'bogus'."));
    }
}

TEST_CASE("report --help lists every option with its default", "[cli][report]") {
    const RunResult result = runMonitor({QStringLiteral("report"), QStringLiteral("--help")});
    CHECK(result.exit_code == 0);
    const QString& help = result.out;
    INFO(help.toStdString());
    CHECK(help.startsWith(QStringLiteral("Usage: lingbot-monitor report [options] FILE.json")));
    for (const char* option : {"--target-fps <F>", "--warmup-chunks <N>", "--chunk-slo-ms <MS>",
                               "--playback-buffer-chunks <B>", "--output-json <OUT>"}) {
        CHECK(help.contains(QString::fromLatin1(option)));
    }
    // One "Default:" per option that takes a value.
    CHECK(help.count(QStringLiteral("Default:")) == 5);
}

TEST_CASE("report prints the Visual quality section again from a document that has it",
          "[cli][report][quality]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QJsonArray cases = goldenMetrics();
    QJsonObject document;
    for (qsizetype i = 0; i < cases.size() && document.isEmpty(); ++i) {
        if (cases.at(i).toObject().contains(QStringLiteral("ok"))) {
            document = lbm::test::benchmarkDocumentForMetricsCase(cases.at(i).toObject());
        }
    }
    REQUIRE_FALSE(document.isEmpty());
    const QString plain = dir.filePath(QStringLiteral("plain.json"));
    writeJson(plain, document);
    const RunResult before = runMonitor({QStringLiteral("report"), plain});
    INFO(before.err.toStdString());
    REQUIRE(before.exit_code == 0);
    CHECK_FALSE(before.out.contains(QStringLiteral("Visual quality")));

    // The same document with an analysis stored under our key: a seam at chunk 2.
    lbm::report::SessionQuality analysis;
    for (qint64 index = 0; index < 4; ++index) {
        lbm::quality::ChunkQuality chunk;
        chunk.generation_index = index;
        chunk.frame_count = index == 0 ? 9 : 12;
        chunk.sharpness_ratio = 1.0;
        chunk.is_final = true;
        if (index > 0) {
            chunk.seam_score = index == 2 ? 9.25 : 1.0;
        }
        if (index == 2) {
            chunk.flags = lbm::quality::QualityFlag::Seam;
        }
        analysis.chunks.push_back(chunk);
    }
    QJsonArray sessions = document.value(QStringLiteral("sessions")).toArray();
    QJsonObject session = sessions.at(0).toObject();
    QJsonObject ours = session.value(lbm::report::kMonitorKey).toObject();
    ours.insert(lbm::report::kQualityKey, lbm::report::qualityToJson(analysis));
    session.insert(lbm::report::kMonitorKey, ours);
    sessions.replace(0, session);
    document.insert(QStringLiteral("sessions"), sessions);
    const QString analysed = dir.filePath(QStringLiteral("analysed.json"));
    const QString rewritten = dir.filePath(QStringLiteral("rewritten.json"));
    writeJson(analysed, document);
    const RunResult after = runMonitor(
        {QStringLiteral("report"), analysed, QStringLiteral("--output-json"), rewritten});
    INFO(after.err.toStdString());
    REQUIRE(after.exit_code == 0);
    INFO(after.out.toStdString());
    // The benchmark's sections unchanged, then ours.
    REQUIRE(after.out.startsWith(before.out));
    const QString added = after.out.mid(before.out.size());
    CHECK(added.startsWith(QStringLiteral("====================== Visual quality "
                                          "======================\n")));
    CHECK(hasLine(added, row("  seam (score >= 3.0):", "2")));
    CHECK(hasLine(added, row("Worst seam score:", "9.25 (chunk 2)")));
    // The rewritten document keeps the analysis.
    const QJsonObject written = lbm::test::readJsonObject(rewritten);
    CHECK(written.value(QStringLiteral("sessions"))
              .toArray()
              .at(0)
              .toObject()
              .value(lbm::report::kMonitorKey)
              .toObject()
              .contains(lbm::report::kQualityKey));
}
