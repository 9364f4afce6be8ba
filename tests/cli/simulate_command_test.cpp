// `lingbot-monitor simulate` as a real server process on 127.0.0.1, driven by a second
// process (`lingbot-monitor bench`), with the simulator's send log as the ground truth.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

namespace {

const QString kMonitor = QStringLiteral(LBM_BINARY_DIR "/lingbot-monitor");

// Starts `simulate --port 0` and returns the URL it printed.
QString startSimulator(QProcess& simulator, const QStringList& extra_arguments) {
    simulator.setProgram(kMonitor);
    simulator.setArguments(
        QStringList{QStringLiteral("simulate"), QStringLiteral("--port"), QStringLiteral("0")} +
        extra_arguments);
    simulator.start();
    REQUIRE(simulator.waitForStarted(30000));
    const QRegularExpression url_pattern(
        QStringLiteral("(ws://127\\.0\\.0\\.1:\\d+/v1/realtime/video)"));
    QString printed;
    for (int attempt = 0; attempt < 100; ++attempt) {
        simulator.waitForReadyRead(200);
        printed += QString::fromUtf8(simulator.readAllStandardOutput());
        const auto match = url_pattern.match(printed);
        if (match.hasMatch()) {
            return match.captured(1);
        }
    }
    FAIL("simulate printed no URL: " << printed.toStdString());
    return {};
}

QJsonObject readJsonObject(const QString& path) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

TEST_CASE("simulate serves bench over loopback and its send log matches bench's records",
          "[cli][simulate]") {
    QTemporaryDir dir;
    const QString log_path = dir.filePath(QStringLiteral("send.jsonl"));
    const QString document_path = dir.filePath(QStringLiteral("run.json"));

    QProcess simulator;
    const QString url =
        startSimulator(simulator, {QStringLiteral("--profile"), QStringLiteral("fast"),
                                   QStringLiteral("--log"), log_path});

    QProcess bench;
    bench.start(kMonitor, {QStringLiteral("bench"), QStringLiteral("--base-url"), url,
                           QStringLiteral("--num-chunks"), QStringLiteral("8"),
                           QStringLiteral("--output-json"), document_path});
    REQUIRE(bench.waitForFinished(120000));
    const QString bench_out = QString::fromUtf8(bench.readAllStandardOutput());
    INFO(bench_out.toStdString() << QString::fromUtf8(bench.readAllStandardError()).toStdString());
    REQUIRE(bench.exitCode() == 0);
    CHECK(bench_out.contains(QStringLiteral("Connecting to ") + url));
    simulator.terminate();
    simulator.waitForFinished(10000);

    const QJsonArray chunks =
        readJsonObject(document_path)[QStringLiteral("sessions")][0][QStringLiteral("chunks")]
            .toArray();
    REQUIRE(chunks.size() == 8);

    // The server's own send times of each media binary frame.
    QFile log(log_path);
    REQUIRE(log.open(QIODevice::ReadOnly));
    std::vector<double> sent_ms;
    std::vector<qint64> sent_bytes;
    bool saw_metadata_for_next_binary = false;
    while (!log.atEnd()) {
        const QJsonObject entry = QJsonDocument::fromJson(log.readLine()).object();
        const QString type = entry[QStringLiteral("type")].toString();
        if (type == QStringLiteral("video.chunk_metadata")) {
            saw_metadata_for_next_binary =
                entry[QStringLiteral("kind")].toString() == QStringLiteral("media");
        } else if (type == QStringLiteral("binary") && saw_metadata_for_next_binary) {
            sent_ms.push_back(entry[QStringLiteral("t_ms")].toDouble());
            sent_bytes.push_back(entry[QStringLiteral("byte_length")].toInteger());
            saw_metadata_for_next_binary = false;
        }
    }
    REQUIRE(sent_ms.size() == 8);
    for (qsizetype k = 0; k < chunks.size(); ++k) {
        const QJsonObject row = chunks[k].toObject();
        CHECK(row[QStringLiteral("byte_length")].toInteger() == sent_bytes[k]);
        if (k > 0) {
            // Client stamps follow the server's send clock; the margin only absorbs a loaded
            // two-core CI machine (the fidelity itself is measured in benchmarks/session).
            const double server_interval_ms = sent_ms[k] - sent_ms[k - 1];
            CHECK(std::abs(row[QStringLiteral("inter_arrival_ms")].toDouble() -
                           server_interval_ms) < 50.0);
        }
    }
}

TEST_CASE("simulate refuses a malformed fault with the accepted forms", "[cli][simulate]") {
    QProcess simulator;
    simulator.start(kMonitor,
                    {QStringLiteral("simulate"), QStringLiteral("--port"), QStringLiteral("0"),
                     QStringLiteral("--fault"), QStringLiteral("explode@3")});
    REQUIRE(simulator.waitForFinished(30000));
    CHECK(simulator.exitCode() == 2);
    const QString error = QString::fromUtf8(simulator.readAllStandardError());
    INFO(error.toStdString());
    CHECK(error.contains(QStringLiteral("explode")));
    CHECK(error.contains(QStringLiteral("stall")));
}
