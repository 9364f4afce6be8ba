// Session documents: what we write reads back unchanged, the benchmark's own files read, and
// every way a file can be wrong produces a message naming the problem.

#include "app/report/metrics_json.h"
#include "app/report/python_json.h"
#include "app/report/report_error.h"
#include "app/report/session_document.h"
#include "metrics/python_text.h"
#include "tests/report/golden_json.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

using lbm::report::readSessionDocument;
using lbm::report::ReportError;
using lbm::report::SessionDocument;
using lbm::report::writeSessionDocument;

namespace {

QJsonObject goldenMetricsCase(qsizetype index) {
    return lbm::test::goldenGroup(QStringLiteral("metrics")).at(index).toObject();
}

void writeBytes(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

void writeJson(const QString& path, const QJsonObject& object) {
    writeBytes(path, QJsonDocument(object).toJson());
}

QString readError(const QString& path) {
    try {
        readSessionDocument(path);
    } catch (const ReportError& error) {
        return error.message();
    }
    return QStringLiteral("<no error>");
}

} // namespace

TEST_CASE("a benchmark-written document reads with every field", "[report][document]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QJsonObject golden_case = goldenMetricsCase(1); // has ttfc_s, slo_ms and a wall time
    const QJsonObject benchmark_json = lbm::test::benchmarkDocumentForMetricsCase(golden_case);
    const QString path = dir.filePath(QStringLiteral("bench.json"));
    writeJson(path, benchmark_json);

    const SessionDocument document = readSessionDocument(path);
    const QJsonObject kwargs = golden_case.value(QStringLiteral("kwargs")).toObject();
    CHECK(document.endpoint == QStringLiteral("ws://127.0.0.1:8000/v1/realtime/video"));
    CHECK(document.hostname == QStringLiteral("gpu-box"));
    CHECK_FALSE(document.git_revision.has_value());
    CHECK_FALSE(document.monitor.has_value());
    CHECK(document.read_warnings.isEmpty());
    CHECK(document.config.warmup_chunks == kwargs.value(QStringLiteral("warmup_chunks")).toInt());
    CHECK(document.config.chunk_slo_ms == kwargs.value(QStringLiteral("slo_ms")).toDouble());
    CHECK(document.config.target_fps == kwargs.value(QStringLiteral("fps")).toDouble());
    REQUIRE(document.sessions.size() == 1);
    const lbm::report::SessionEntry& session = document.sessions.front();
    CHECK(session.request_id == QStringLiteral("req-0"));
    CHECK(session.video_start_ms == 12.5);
    CHECK(session.chunks.size() ==
          static_cast<std::size_t>(golden_case.value(QStringLiteral("records")).toArray().size()));
    REQUIRE(session.ttfc_s.has_value());
    CHECK(*session.ttfc_s ==
          Approx(kwargs.value(QStringLiteral("ttfc_s")).toDouble()).epsilon(1e-12));
    CHECK(session.wall_s == kwargs.value(QStringLiteral("session_wall_s")).toDouble());
    REQUIRE(session.metrics.has_value());
    REQUIRE(document.metrics.has_value());
    CHECK(document.metrics->single_session.has_value());
    // Nothing is lost: our JSON of what we read equals the benchmark's file.
    CHECK(lbm::test::jsonDifference(benchmark_json, lbm::report::toJson(document)).toStdString() ==
          "");
}

TEST_CASE("what we write reads back unchanged", "[report][document]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString source = dir.filePath(QStringLiteral("bench.json"));
    writeJson(source, lbm::test::benchmarkDocumentForMetricsCase(goldenMetricsCase(0)));
    SessionDocument document = readSessionDocument(source);
    document.git_revision = QStringLiteral("0123abcd");
    document.config.workload_file = QStringLiteral("/tmp/w.json");
    document.monitor = lbm::report::MonitorSection{};
    document.monitor->complete = false;
    document.monitor->incomplete_reason = QStringLiteral("stopped by the user");
    document.monitor->extras.insert(QStringLiteral("profile"), QStringLiteral("jittery"));
    document.sessions[0].monitor_extras.insert(QStringLiteral("decoded_frames"), 417);

    const QString path = dir.filePath(QStringLiteral("ours.json"));
    writeSessionDocument(document, path);
    const SessionDocument again = readSessionDocument(path);
    CHECK(lbm::test::jsonDifference(lbm::report::toJson(document), lbm::report::toJson(again))
              .toStdString() == "");
    REQUIRE(again.monitor.has_value());
    CHECK_FALSE(again.monitor->complete);
    CHECK(again.monitor->incomplete_reason == QStringLiteral("stopped by the user"));
    CHECK(again.monitor->extras.value(QStringLiteral("profile")).toString() ==
          QStringLiteral("jittery"));
    CHECK(again.sessions[0].monitor_extras.value(QStringLiteral("decoded_frames")).toInt() == 417);

    SECTION("the file has json.dumps(indent=2, sort_keys=True)'s layout") {
        QFile file(path);
        REQUIRE(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        CHECK(
            bytes.startsWith("{\n  \"benchmark\": \"lingbot_world_realtime\",\n  \"config\": {\n"));
        CHECK(bytes.endsWith("\n}\n"));
        // Our section sits under its own key, after the benchmark's "hostname" in key order.
        CHECK(bytes.indexOf("\"hostname\"") < bytes.indexOf("\"lingbot_monitor\""));
        CHECK(bytes.indexOf("\"lingbot_monitor\"") < bytes.indexOf("\"metrics\""));
    }
}

TEST_CASE("writing is atomic: a failed write leaves no file", "[report][document]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    SessionDocument document;
    const QString path = dir.filePath(QStringLiteral("missing-dir/out.json"));
    CHECK_THROWS_WITH(writeSessionDocument(document, path), Catch::Contains("Cannot write"));
    CHECK_FALSE(QFile::exists(path));
    CHECK(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
}

TEST_CASE("broken documents are rejected with the field or the reason", "[report][document]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QJsonObject good = lbm::test::benchmarkDocumentForMetricsCase(goldenMetricsCase(0));
    const QString path = dir.filePath(QStringLiteral("doc.json"));

    SECTION("missing file") {
        CHECK(readError(path).contains(QStringLiteral("does not exist")));
    }
    SECTION("invalid JSON") {
        writeBytes(path, "{\"sessions\": [");
        const QString message = readError(path);
        CHECK(message.contains(path));
        CHECK(message.contains(QStringLiteral("not valid JSON")));
    }
    SECTION("not an object") {
        writeBytes(path, "[]");
        CHECK(readError(path).contains(QStringLiteral("not a session document")));
    }
    SECTION("a chunk row without arrival_s") {
        QJsonObject broken = good;
        QJsonArray sessions = broken.value(QStringLiteral("sessions")).toArray();
        QJsonObject session = sessions.at(0).toObject();
        QJsonArray chunks = session.value(QStringLiteral("chunks")).toArray();
        QJsonObject row = chunks.at(3).toObject();
        row.remove(QStringLiteral("arrival_s"));
        chunks.replace(3, row);
        session.insert(QStringLiteral("chunks"), chunks);
        sessions.replace(0, session);
        broken.insert(QStringLiteral("sessions"), sessions);
        writeJson(path, broken);
        CHECK(readError(path).toStdString() ==
              QString(path + QStringLiteral(": The field \"sessions[0].chunks[3].arrival_s\" is "
                                            "missing."))
                  .toStdString());
    }
    SECTION("no workload") {
        QJsonObject broken = good;
        broken.remove(QStringLiteral("workload"));
        writeJson(path, broken);
        CHECK(readError(path).contains(QStringLiteral("\"workload\" is missing")));
    }
    SECTION("sessions is not a list") {
        QJsonObject broken = good;
        broken.insert(QStringLiteral("sessions"), 3);
        writeJson(path, broken);
        CHECK(readError(path).contains(QStringLiteral("\"sessions\" must be a list")));
    }
}

TEST_CASE("incomplete stored metrics are ignored with a warning", "[report][document]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    QJsonObject json = lbm::test::benchmarkDocumentForMetricsCase(goldenMetricsCase(1));
    QJsonArray sessions = json.value(QStringLiteral("sessions")).toArray();
    QJsonObject session = sessions.at(0).toObject();
    const QJsonObject full = session.value(QStringLiteral("metrics")).toObject();
    session.insert(
        QStringLiteral("metrics"),
        QJsonObject{{QStringLiteral("ttfc_ms"), full.value(QStringLiteral("ttfc_ms"))},
                    {QStringLiteral("wall_seconds"), full.value(QStringLiteral("wall_seconds"))}});
    sessions.replace(0, session);
    json.insert(QStringLiteral("sessions"), sessions);
    json.remove(QStringLiteral("metrics"));
    json.remove(QStringLiteral("config"));
    QJsonObject workload = json.value(QStringLiteral("workload")).toObject();
    workload.insert(QStringLiteral("fps"), 24);
    json.insert(QStringLiteral("workload"), workload);
    const QString path = dir.filePath(QStringLiteral("partial.json"));
    writeJson(path, json);

    const SessionDocument document = readSessionDocument(path);
    REQUIRE(document.sessions.size() == 1);
    CHECK_FALSE(document.sessions[0].metrics.has_value());
    CHECK(document.sessions[0].ttfc_s.has_value());
    CHECK(document.sessions[0].wall_s == full.value(QStringLiteral("wall_seconds")).toDouble());
    REQUIRE(document.read_warnings.size() == 1);
    CHECK(document.read_warnings.front().contains(QStringLiteral("sessions[0].metrics")));
    // No config: the benchmark's defaults, with the fps the workload sent as the basis.
    CHECK(document.config.warmup_chunks == 6);
    CHECK(document.config.playback_buffer_chunks == 1);
    CHECK(document.config.mux_fps == 24);
    CHECK(document.config.target_fps == 24.0);
}

TEST_CASE("timestamps are written as Python's isoformat()", "[report][document]") {
    using lbm::report::isoTimestampUtc;
    const QDate day(2026, 12, 2);
    CHECK(isoTimestampUtc(QDateTime(day, QTime(11, 41, 49, 123), Qt::UTC)) ==
          QStringLiteral("2026-12-02T11:41:49.123000+00:00"));
    CHECK(isoTimestampUtc(QDateTime(day, QTime(11, 41, 49), Qt::UTC)) ==
          QStringLiteral("2026-12-02T11:41:49+00:00"));
    // A local time is converted, not relabelled.
    const QDateTime plus_two(day, QTime(13, 41, 49, 5), Qt::OffsetFromUTC, 7200);
    CHECK(isoTimestampUtc(plus_two) == QStringLiteral("2026-12-02T11:41:49.005000+00:00"));
}

TEST_CASE("Python's JSON text and float repr", "[report][python_json]") {
    const auto pythonFloatRepr = [](double value) {
        return QString::fromStdString(lbm::pythonFloatRepr(value));
    };
    CHECK(pythonFloatRepr(0.1) == QStringLiteral("0.1"));
    CHECK(pythonFloatRepr(1e-05) == QStringLiteral("1e-05"));
    CHECK(pythonFloatRepr(0.0001) == QStringLiteral("0.0001"));
    CHECK(pythonFloatRepr(1e16) == QStringLiteral("1e+16"));
    CHECK(pythonFloatRepr(9999999999999998.0) == QStringLiteral("9999999999999998.0"));
    CHECK(pythonFloatRepr(123456789012345680.0) == QStringLiteral("1.2345678901234568e+17"));
    CHECK(pythonFloatRepr(5.0) == QStringLiteral("5.0"));
    CHECK(pythonFloatRepr(-0.5) == QStringLiteral("-0.5"));
    CHECK(pythonFloatRepr(2.5e-7) == QStringLiteral("2.5e-07"));
    CHECK(pythonFloatRepr(2728.832321556252) == QStringLiteral("2728.832321556252"));

    const QJsonObject value{
        {QStringLiteral("b"), QJsonArray{1, 2.5, QJsonObject()}},
        {QStringLiteral("a"), QJsonObject{{QStringLiteral("x"), QJsonValue::Null},
                                          {QStringLiteral("y"), true},
                                          {QStringLiteral("z"), QJsonArray()}}},
        {QStringLiteral("s"), QString::fromUtf8("\xc3\xa9\"\n")},
    };
    // json.dumps(value, indent=2, sort_keys=True) as CPython prints it.
    CHECK(lbm::report::toPythonJson(value).toStdString() ==
          "{\n  \"a\": {\n    \"x\": null,\n    \"y\": true,\n    \"z\": []\n  },\n  \"b\": [\n"
          "    1,\n    2.5,\n    {}\n  ],\n  \"s\": \"\\u00e9\\\"\\n\"\n}");
}
