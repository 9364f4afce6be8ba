// The fault matrix: every way the server or the network can fail, against both clients
// (`lingbot-monitor bench` as a process, and the window's session engine in-process).
// Each cell checks what a user would notice: one clear line naming the problem, no crash,
// an end within the configured timeouts, a partial recording that still plays and a
// consistent partial document. Every server listens on 127.0.0.1 only; the DNS cells run in
// a network namespace of their own (run_in_netns.sh), hidden from the normal run.

#include "app/engine/session_engine.h"
#include "app/report/session_document.h"
#include "app/sim/simulator_server.h"
#include "fault_support.h"
#include "raw_ws_server.h"
#include "tests/session/scripted_server.h"
#include "ui/main_window.h"
#include "ui/session_form.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QSettings>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <catch2/catch.hpp>

#include <cstdio>
#include <functional>
#include <memory>

using namespace faults;

namespace {

enum class Client { Bench, Gui };

// A running misbehaving server (or none) and the URL the client is pointed at.
struct Endpoint {
    std::shared_ptr<QObject> server;
    QUrl url;
};

struct Cell {
    QString name;
    std::function<Endpoint()> serve;
    bool expect_ok = false;
    QStringList message; // the one-line error (or, on success, a warning) contains each
    int chunks = 0;      // media chunks the client records
    qint64 min_frames = 0;
    bool trailer = false;
    // Timeouts are 4 s before the first chunk, 3 s between chunks, 10 s to connect; every
    // cell's stream or failure comes well inside that, plus a process start.
    double max_elapsed_s = 12.0;
    bool insecure = false;
    QString gui_problem; // a problem() line the GUI engine must show
};

// The bench flags every cell uses: 4 chunks, short timeouts, frequent pings.
const double kFirstChunkTimeoutS = 4.0;
// Longer than the 3-D simulator takes for a chunk in a sanitizer build on a loaded 2-core
// machine (0.5-1.2 s measured under ASan with another test beside it), short enough that the
// stall cells end in seconds.
const double kChunkTimeoutS = 3.0;
const double kPingIntervalS = 0.3;
// The faults are in the transport and the protocol, not the pixels: a quarter of the default
// picture keeps the 3-D simulator's chunk well inside the chunk timeout under the sanitizers.
// (The scripted servers send their own 832x480 stream whatever the session asks.)
const int kFaultWidth = 416;
const int kFaultHeight = 240;

Endpoint simulator(const QString& fault, int stall_timeout_ms = 60000) {
    lbm::sim::SimulatorConfig config;
    config.stall_timeout_ms = stall_timeout_ms;
    config.width = kFaultWidth; // the geometry it serves, as a deploy's fixed cache geometry
    config.height = kFaultHeight;
    if (!fault.isEmpty()) {
        QString problem;
        const auto spec = lbm::sim::FaultSpec::parse(fault, &problem);
        REQUIRE(spec.has_value());
        config.faults = {*spec};
    }
    auto server = std::make_shared<lbm::sim::SimulatorServer>(config);
    REQUIRE(server->listen(QHostAddress::LocalHost, 0));
    return {server, server->url()};
}

QJsonObject videoStart(const QJsonObject& config = {}) {
    return {{QStringLiteral("type"), QStringLiteral("video.start")},
            {QStringLiteral("request_id"), QStringLiteral("video_stream-raw")},
            {QStringLiteral("format"), QStringLiteral("m4s")},
            {QStringLiteral("config"), config}};
}

QJsonObject done(int chunks) {
    return {{QStringLiteral("type"), QStringLiteral("session.done")},
            {QStringLiteral("request_id"), QStringLiteral("video_stream-raw")},
            {QStringLiteral("chunks"), chunks},
            {QStringLiteral("stopped"), false}};
}

QByteArray chunkPair(int index, const QByteArray& bytes, qint64 announced_length = -1) {
    return RawWsServer::jsonFrame(ScriptedServer::metadata(
               index, announced_length < 0 ? bytes.size() : announced_length)) +
           RawWsServer::binaryFrame(bytes);
}

QByteArray trailerPair() {
    const QByteArray& tail = testStream().trailer;
    QJsonObject metadata = ScriptedServer::metadata(kChunks, tail.size());
    metadata.insert(QStringLiteral("kind"), QStringLiteral("trailer"));
    metadata.insert(QStringLiteral("generation_chunk_index"), QJsonValue::Null);
    metadata.insert(QStringLiteral("num_frames"), 0);
    return RawWsServer::jsonFrame(metadata) + RawWsServer::binaryFrame(tail);
}

// video.start, then `steps` 20 ms apart.
Endpoint raw(std::vector<QByteArray> steps, bool close_at_end,
             const QJsonObject& start_config = {}) {
    std::vector<RawWsServer::Step> plan{{10, RawWsServer::jsonFrame(videoStart(start_config))}};
    for (QByteArray& bytes : steps) {
        plan.push_back({20, std::move(bytes)});
    }
    auto server = std::make_shared<RawWsServer>(std::move(plan), close_at_end);
    return {server, server->url()};
}

// A TCP server on a wss:// URL that answers the first bytes (the TLS ClientHello) with
// `reply` and closes: a plain HTTP server, or (empty reply) one that hangs up mid-handshake.
Endpoint replyAndClose(const QByteArray& reply) {
    auto server = std::make_shared<QTcpServer>();
    REQUIRE(server->listen(QHostAddress::LocalHost, 0));
    QTcpServer* listening = server.get();
    QObject::connect(listening, &QTcpServer::newConnection, listening, [listening, reply] {
        QTcpSocket* socket = listening->nextPendingConnection();
        QObject::connect(socket, &QTcpSocket::readyRead, socket, [socket, reply] {
            socket->readAll();
            if (!reply.isEmpty()) {
                socket->write(reply);
            }
            socket->disconnectFromHost();
        });
    });
    return {server,
            QUrl(QStringLiteral("wss://127.0.0.1:%1/v1/realtime/video").arg(server->serverPort()))};
}

Endpoint tlsServer() {
    QString problem;
    const auto tls = selfSignedServerTls(&problem);
    INFO(problem.toStdString());
    REQUIRE(tls.has_value());
    ScriptedServer::Script script;
    script.chunks = kChunks;
    script.real_video = true;
    script.tls = tls;
    auto server = std::make_shared<ScriptedServer>(script);
    return {server, server->url()};
}

std::vector<Cell> cells() {
    const TestStream& stream = testStream();
    const auto& c = stream.chunks;
    std::vector<Cell> table;
    const auto simulatorFault = [&](const QString& kind, const QString& message) {
        Cell cell;
        cell.name = QStringLiteral("simulator fault %1@2").arg(kind);
        cell.serve = [kind] { return simulator(QStringLiteral("%1@2").arg(kind)); };
        cell.message = {message};
        cell.chunks = 2;
        cell.min_frames = playableFrames(2);
        return cell;
    };
    table.push_back(simulatorFault(QStringLiteral("stall"),
                                   QStringLiteral("No media chunk for %1 s after 2 chunk(s); the "
                                                  "server may still be loading")
                                       .arg(kChunkTimeoutS)));
    table.push_back(simulatorFault(
        QStringLiteral("error"),
        QStringLiteral(
            "Server rejected the session after 2 chunk(s): Generation failed at chunk 2: "
            "RuntimeError: CUDA error")));
    table.push_back(
        simulatorFault(QStringLiteral("disconnect"),
                       QStringLiteral("The server closed the connection after 2 chunk(s) without "
                                      "session.done (no close frame: the connection dropped).")));
    table.push_back(simulatorFault(QStringLiteral("garbage"),
                                   QStringLiteral("The server sent a text frame that is not valid "
                                                  "JSON")));
    table.push_back(simulatorFault(
        QStringLiteral("orphan-binary"),
        QStringLiteral("Received a binary frame with no preceding video.chunk_metadata event.")));
    table.push_back(simulatorFault(QStringLiteral("truncate"),
                                   QStringLiteral("The binary frame of chunk 2 holds ")));
    {
        // The first chunk comes 2 s after session.start, past the server's 1 s stall clock:
        // the client's pings keep the session alive, as they must on a compiling server.
        Cell cell;
        cell.name = QStringLiteral("simulator fault slow-start (pinged)");
        cell.serve = [] { return simulator(QStringLiteral("slow-start@0"), 1000); };
        cell.expect_ok = true;
        cell.chunks = kChunks;
        cell.min_frames = kFramesInStream;
        cell.trailer = true;
        table.push_back(cell);
    }
    {
        Cell cell;
        cell.name = QStringLiteral("connection refused");
        cell.serve = [] {
            return Endpoint{
                nullptr,
                QUrl(QStringLiteral("ws://127.0.0.1:%1/v1/realtime/video").arg(unusedPort()))};
        };
        cell.message = {QStringLiteral("Could not connect to ws://127.0.0.1:"),
                        QStringLiteral("Connection refused. Nothing is listening there: start the "
                                       "server, or fix --host/--port (or --base-url).")};
        table.push_back(cell);
    }
    {
        // A wss:// URL for a plain HTTP server: it answers the ClientHello with a 400.
        Cell cell;
        cell.name = QStringLiteral("TLS failure: plain HTTP server on a wss:// URL");
        cell.serve = [] {
            return replyAndClose(QByteArrayLiteral("HTTP/1.1 400 Bad Request\r\nContent-Length: "
                                                   "0\r\nConnection: close\r\n\r\n"));
        };
        cell.message = {QStringLiteral("TLS handshake with wss://127.0.0.1:"),
                        QStringLiteral("failed: Error during SSL handshake: "),
                        QStringLiteral("Check that the server serves TLS on this port (a plain "
                                       "server needs ws:// or http://).")};
        table.push_back(cell);
    }
    {
        Cell cell;
        cell.name = QStringLiteral("TLS failure: server hangs up during the TLS handshake");
        cell.serve = [] { return replyAndClose({}); };
        cell.message = {QStringLiteral("Could not connect to wss://127.0.0.1:"),
                        QStringLiteral("The remote host closed the connection. It hung up during "
                                       "the TLS or WebSocket handshake: check that the server "
                                       "serves TLS on this port (a plain server needs ws:// or "
                                       "http://).")};
        table.push_back(cell);
    }
    {
        Cell cell;
        cell.name = QStringLiteral("TLS: self-signed certificate");
        cell.serve = tlsServer;
        cell.message = {QStringLiteral("TLS handshake with wss://127.0.0.1:"),
                        QStringLiteral("self-signed"), QStringLiteral("pass --insecure")};
        table.push_back(cell);
    }
    {
        Cell cell;
        cell.name = QStringLiteral("TLS: self-signed certificate with --insecure");
        cell.serve = tlsServer;
        cell.insecure = true;
        cell.expect_ok = true;
        cell.message = {QStringLiteral("WARNING: --insecure: TLS certificate verification is OFF")};
        cell.chunks = kChunks;
        cell.min_frames = kFramesInStream;
        cell.trailer = true;
        table.push_back(cell);
    }
    {
        Cell cell;
        cell.name = QStringLiteral("server closes mid-binary");
        cell.serve = [c] {
            const QByteArray cut = RawWsServer::binaryFrame(c[2]);
            return raw({chunkPair(0, c[0]), chunkPair(1, c[1]),
                        RawWsServer::jsonFrame(ScriptedServer::metadata(2, c[2].size())) +
                            cut.left(cut.size() / 2)},
                       true);
        };
        cell.message = {QStringLiteral("The server closed the connection after 2 chunk(s) while "
                                       "waiting for the bytes of its announced chunk without "
                                       "session.done (no close frame: the connection dropped).")};
        cell.chunks = 2;
        cell.min_frames = playableFrames(2);
        table.push_back(cell);
    }
    {
        // A server that gives up with a close frame and a reason: both reach the user.
        Cell cell;
        cell.name = QStringLiteral("server closes with code 1011 mid-session");
        cell.serve = [] {
            ScriptedServer::Script script;
            script.chunks = kChunks;
            script.real_video = true;
            script.before_chunk = [](QWebSocket* socket, int chunk) {
                if (chunk == 2) {
                    socket->close(QWebSocketProtocol::CloseCodeBadOperation,
                                  QStringLiteral("internal error"));
                    return false;
                }
                return true;
            };
            auto server = std::make_shared<ScriptedServer>(script);
            return Endpoint{server, server->url()};
        };
        cell.message = {QStringLiteral("The server closed the connection after 2 chunk(s) without "
                                       "session.done (close code 1011: internal error).")};
        cell.chunks = 2;
        cell.min_frames = playableFrames(2);
        table.push_back(cell);
    }
    {
        // video.start echoes the request, base64 first frame included: multi-MiB is normal.
        Cell cell;
        cell.name = QStringLiteral("5 MiB text frame (video.start)");
        cell.serve = [c] {
            const QJsonObject config{
                {QStringLiteral("padding"), QString(5 * 1024 * 1024, QLatin1Char('x'))}};
            return raw({chunkPair(0, c[0]), chunkPair(1, c[1]), chunkPair(2, c[2]),
                        chunkPair(3, c[3]), trailerPair(), RawWsServer::jsonFrame(done(5))},
                       false, config);
        };
        cell.expect_ok = true;
        cell.chunks = kChunks;
        cell.min_frames = kFramesInStream;
        cell.trailer = true;
        table.push_back(cell);
    }
    const auto lyingLength = [&](const QString& name, qint64 delta) {
        Cell cell;
        cell.name = name;
        cell.serve = [c, delta] {
            return raw({chunkPair(0, c[0]), chunkPair(1, c[1], c[1].size() + delta)}, false);
        };
        cell.message = {QStringLiteral("The binary frame of chunk 1 holds %1 bytes but its "
                                       "video.chunk_metadata announced byte_length %2; the "
                                       "stream is corrupt.")
                            .arg(c[1].size())
                            .arg(c[1].size() + delta)};
        cell.chunks = 1;
        cell.min_frames = playableFrames(1);
        return cell;
    };
    table.push_back(lyingLength(QStringLiteral("byte_length says more than sent"), 4096));
    table.push_back(lyingLength(QStringLiteral("byte_length says fewer than sent"), -4096));
    {
        Cell cell;
        cell.name = QStringLiteral("chunk index goes backwards");
        cell.serve = [c] {
            return raw({chunkPair(0, c[0]), chunkPair(1, c[1]), chunkPair(2, c[2]),
                        chunkPair(1, c[3]), trailerPair(), RawWsServer::jsonFrame(done(5))},
                       false);
        };
        cell.message = {QStringLiteral("Chunk indices are not contiguous from zero: [0, 1, 2, 1]")};
        cell.gui_problem = QStringLiteral("Simulated playback stopped: Chunk 1 arrived after chunk "
                                          "2;");
        cell.chunks = kChunks;
        cell.min_frames = kFramesInStream;
        cell.trailer = true;
        table.push_back(cell);
    }
    {
        Cell cell;
        cell.name = QStringLiteral("session.done before any chunk");
        cell.serve = [] { return raw({RawWsServer::jsonFrame(done(0))}, false); };
        cell.message = {
            QStringLiteral("The session finished without delivering a single media chunk.")};
        table.push_back(cell);
    }
    {
        Cell cell;
        cell.name = QStringLiteral("error after the last chunk");
        cell.serve = [c] {
            const QJsonObject error{{QStringLiteral("type"), QStringLiteral("error")},
                                    {QStringLiteral("message"),
                                     QStringLiteral("Generation failed after the last chunk")}};
            return raw({chunkPair(0, c[0]), chunkPair(1, c[1]), chunkPair(2, c[2]),
                        chunkPair(3, c[3]), trailerPair(), RawWsServer::jsonFrame(error)},
                       true);
        };
        cell.message = {QStringLiteral("Server rejected the session after 4 chunk(s): Generation "
                                       "failed after the last chunk (requested 4 chunks = "
                                       "num_frames 45)")};
        cell.chunks = kChunks;
        cell.min_frames = kFramesInStream;
        cell.trailer = true;
        table.push_back(cell);
    }
    return table;
}

Cell dnsCell() {
    Cell cell;
    cell.name = QStringLiteral("DNS failure");
    cell.serve = [] {
        return Endpoint{nullptr,
                        QUrl(QStringLiteral("ws://no-such-host.invalid:8000/v1/realtime/video"))};
    };
    cell.message = {QStringLiteral("Could not connect to ws://no-such-host.invalid:8000/v1/"
                                   "realtime/video: "),
                    QStringLiteral("The host name does not resolve: check --host / --base-url.")};
    return cell;
}

void requireMessage(const QString& line, const Cell& cell) {
    INFO("message: " << line.toStdString());
    REQUIRE_FALSE(line.contains(QLatin1Char('\n')));
    for (const QString& part : cell.message) {
        REQUIRE(line.contains(part));
    }
}

qint64 sumBytes(const std::vector<lbm::ChunkRecord>& records) {
    qint64 total = 0;
    for (const lbm::ChunkRecord& record : records) {
        total += record.byte_length;
    }
    return total;
}

void checkRecording(const QString& raw_path, qint64 received_bytes, const Cell& cell) {
    const qint64 size = QFileInfo(raw_path).size();
    // Every byte the client accepted is on disk, nothing else.
    REQUIRE(size == received_bytes);
    if (cell.min_frames == 0) {
        REQUIRE(size == 0);
        return;
    }
    QTemporaryDir dir;
    const lbm::media::RemuxResult remux =
        lbm::media::remuxToMp4(raw_path, dir.filePath(QStringLiteral("partial.mp4")));
    INFO(remux.error.toStdString());
    REQUIRE(remux.ok);
    REQUIRE(remux.packets_written >= cell.min_frames);
}

// LBM_FAULT_TABLE=1 prints one markdown row per cell (for docs/reliability.md).
void tableRow(const char* client, const Cell& cell, const QString& outcome, double elapsed_s) {
    if (qEnvironmentVariableIsSet("LBM_FAULT_TABLE")) {
        std::printf("| %s | %s | %s | %.2f s |\n", qPrintable(cell.name), client,
                    qPrintable(outcome), elapsed_s);
    }
}

void runBenchCell(const Cell& cell) {
    const Endpoint endpoint = cell.serve();
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("run.json"));
    const QString raw_path = dir.filePath(QStringLiteral("run.m4s"));
    QStringList arguments{QStringLiteral("--base-url"),
                          endpoint.url.toString(),
                          QStringLiteral("--num-chunks"),
                          QString::number(kChunks),
                          QStringLiteral("--warmup-chunks"),
                          QStringLiteral("1"),
                          QStringLiteral("--first-chunk-timeout"),
                          QString::number(kFirstChunkTimeoutS),
                          QStringLiteral("--chunk-timeout"),
                          QString::number(kChunkTimeoutS),
                          QStringLiteral("--ping-interval"),
                          QString::number(kPingIntervalS),
                          QStringLiteral("--width"),
                          QString::number(kFaultWidth),
                          QStringLiteral("--height"),
                          QString::number(kFaultHeight),
                          QStringLiteral("--output-json"),
                          json,
                          QStringLiteral("--save-raw"),
                          raw_path};
    if (cell.insecure) {
        arguments.append(QStringLiteral("--insecure"));
    }
    const BenchRun run = runBench(arguments);
    tableRow("bench", cell,
             QStringLiteral("exit %1: `%2`").arg(run.exit_code).arg(lastLine(run.err)),
             run.elapsed_s);
    INFO("stderr: " << run.err.toStdString());
    INFO("elapsed " << run.elapsed_s << " s");
    REQUIRE_FALSE(run.crashed);
    REQUIRE(run.elapsed_s < cell.max_elapsed_s);
    const lbm::report::SessionDocument document = lbm::report::readSessionDocument(json);
    REQUIRE(document.monitor.has_value());
    REQUIRE(document.sessions.size() == 1);
    const auto& chunks = document.sessions[0].chunks;
    REQUIRE(chunks.size() == static_cast<std::size_t>(cell.chunks));
    const bool trailer =
        document.sessions[0].monitor_extras.value(QStringLiteral("trailer_received")).toBool();
    REQUIRE(trailer == cell.trailer);
    if (cell.expect_ok) {
        REQUIRE(run.exit_code == 0);
        REQUIRE(document.monitor->complete);
        REQUIRE(document.sessions[0].metrics.has_value());
        for (const QString& warning : cell.message) {
            REQUIRE(run.err.contains(warning));
        }
    } else {
        REQUIRE(run.exit_code == 1);
        const QString line = lastLine(run.err);
        REQUIRE(line.startsWith(QStringLiteral("ERROR: ")));
        requireMessage(line, cell);
        REQUIRE_FALSE(document.monitor->complete);
        REQUIRE(QStringLiteral("ERROR: ") + document.monitor->incomplete_reason == line);
        REQUIRE(run.err.contains(QStringLiteral("Partial recording kept at %1 (%2 bytes)")
                                     .arg(raw_path)
                                     .arg(QFileInfo(raw_path).size())));
    }
    const qint64 media = sumBytes(chunks);
    const qint64 trailer_bytes = cell.trailer ? QFileInfo(raw_path).size() - media : 0;
    REQUIRE(trailer_bytes >= 0);
    checkRecording(raw_path, media + trailer_bytes, cell);
}

void runGuiCell(const Cell& cell) {
    const Endpoint endpoint = cell.serve();
    GuiOptions options;
    options.url = endpoint.url;
    options.insecure = cell.insecure;
    options.first_chunk_timeout_s = kFirstChunkTimeoutS;
    options.chunk_timeout_s = kChunkTimeoutS;
    options.ping_interval_s = kPingIntervalS;
    options.width = kFaultWidth;
    options.height = kFaultHeight;
    const GuiRun run = runGuiEngine(options);
    tableRow("GUI engine", cell,
             run.result.ok
                 ? QStringLiteral("ok%1").arg(
                       run.problems.isEmpty()
                           ? QString()
                           : QStringLiteral(": `%1`").arg(run.problems.join(QStringLiteral(" / "))))
                 : QStringLiteral("`%1`").arg(run.result.error),
             run.elapsed_s);
    INFO("problems: " << run.problems.join(QStringLiteral(" | ")).toStdString());
    INFO("elapsed " << run.elapsed_s << " s");
    REQUIRE(run.started);
    REQUIRE(run.finished);
    REQUIRE(run.elapsed_s < cell.max_elapsed_s);
    const lbm::session::SessionResult& result = run.result;
    REQUIRE(result.ok == cell.expect_ok);
    if (cell.expect_ok) {
        for (const QString& warning : cell.message) {
            REQUIRE(run.problems.filter(warning).size() == 1);
        }
    } else {
        requireMessage(result.error, cell);
    }
    if (!cell.gui_problem.isEmpty()) {
        REQUIRE(run.problems.filter(cell.gui_problem).size() == 1);
    }
    // The engine's records are the session's, in order.
    REQUIRE(run.records.size() == static_cast<std::size_t>(cell.chunks));
    REQUIRE(result.records.size() == run.records.size());
    for (std::size_t n = 0; n < run.records.size(); ++n) {
        REQUIRE(run.records[n].index == result.records[n].index);
        REQUIRE(run.records[n].byte_length == result.records[n].byte_length);
    }
    REQUIRE(result.trailer_received == cell.trailer);
    REQUIRE(result.media_bytes == sumBytes(run.records));
    // Every byte received is in the recording, and it plays.
    REQUIRE(run.recording_bytes == result.media_bytes + result.trailer_bytes);
    if (cell.min_frames == 0) {
        REQUIRE(run.recording_bytes == 0);
    } else {
        REQUIRE(run.remux.has_value());
        INFO(run.remux->error.toStdString());
        REQUIRE(run.remux->ok);
        REQUIRE(run.remux->packets_written >= cell.min_frames);
    }
}

void runCell(Client client, const Cell& cell) {
    if (client == Client::Bench) {
        runBenchCell(cell);
    } else {
        runGuiCell(cell);
    }
}

} // namespace

TEST_CASE("the Qt TLS backend loads", "[faults][tls]") {
    INFO("backends: " << QSslSocket::availableBackends().join(QStringLiteral(", ")).toStdString());
    REQUIRE(QSslSocket::supportsSsl());
    REQUIRE_FALSE(QSslSocket::activeBackend().isEmpty());
}

// One case per client, so CTest runs the two side by side (each cell waits for its fault).
TEST_CASE("fault matrix: bench against every fault", "[faults][matrix][paced]") {
    for (const Cell& cell : cells()) {
        DYNAMIC_SECTION("bench x " << cell.name.toStdString()) {
            runCell(Client::Bench, cell);
        }
    }
}

TEST_CASE("fault matrix: the GUI engine against every fault", "[faults][matrix][paced]") {
    for (const Cell& cell : cells()) {
        DYNAMIC_SECTION("GUI engine x " << cell.name.toStdString()) {
            runCell(Client::Gui, cell);
        }
    }
}

// Hidden: a lookup must fail locally, so these run only inside `unshare -rn` (a network
// namespace with no route anywhere), registered as their own CTest test.
TEST_CASE("fault matrix: DNS failure", "[.dns]") {
    for (const Client client : {Client::Bench, Client::Gui}) {
        DYNAMIC_SECTION((client == Client::Bench ? "bench" : "GUI engine") << " x DNS failure") {
            runCell(client, dnsCell());
        }
    }
}

// The window itself, as a user meets a self-signed wss:// server: without the form's
// "Skip certificate check" the banner names the certificate problem and the way out; with it
// the session streams to the end.
TEST_CASE("the window against a self-signed wss:// server, with and without the certificate "
          "check",
          "[faults][tls][window]") {
    QSettings().clear();
    for (const bool skip_check : {false, true}) {
        DYNAMIC_SECTION((skip_check ? "skip" : "check") << " the certificate") {
            const Endpoint endpoint = tlsServer();
            lbm::ui::MainWindow window;
            window.show();
            lbm::ui::SessionForm* form = window.sessionForm();
            form->setUseSimulator(false);
            form->setServerUrlText(endpoint.url.toString());
            form->setChunks(kChunks);
            form->setSkipCertificateCheck(skip_check);
            REQUIRE(window.startSession());
            REQUIRE(QTest::qWaitFor([&] { return window.sessionEngine()->result().has_value(); },
                                    20000));
            const lbm::session::SessionResult result = *window.sessionEngine()->result();
            INFO(result.error.toStdString() << " / banner: " << window.bannerText().toStdString());
            if (skip_check) {
                REQUIRE(result.ok);
                REQUIRE(window.sessionEngine()->liveMetrics().records().size() ==
                        std::size_t(kChunks));
            } else {
                REQUIRE_FALSE(result.ok);
                REQUIRE(result.error.contains(QStringLiteral("self-signed")));
                REQUIRE(window.bannerText().contains(QStringLiteral("--insecure")));
                REQUIRE(form->skipCertificateCheck() == false);
            }
        }
    }
}
