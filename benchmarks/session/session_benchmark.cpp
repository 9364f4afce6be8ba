// How faithful are SessionClient's chunk timestamps? A paced sender on its own thread sends
// chunks at known steady-clock instants (same process, so the same clock); the benchmark
// compares each client-observed inter-arrival interval with the sender's interval, for the
// network-thread stamps (ChunkEvent::arrivalS) and, as the baseline, for stamps taken where a
// GUI would take them (on the caller thread when chunkReceived is delivered). It repeats that
// idle, with a CPU-busy second thread, and with a caller thread that stalls 40 ms at a time
// (a busy UI). Then it streams 2000 chunks and samples resident memory.
//
// Usage: lbm_session_benchmark [chunks=300] [interval_ms=25] [payload_kib=200]

#include "app/session/session_client.h"
#include "app/sim/simulator_server.h"
#include "metrics/workload.h"
#include "resources/bundled_resources.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QWebSocket>
#include <QWebSocketServer>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

using namespace lbm;

namespace {

double steadyNowS() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Lives on its own thread; sends `chunks` media chunks every interval_ms after session.start.
class PacedSender : public QObject {
public:
    PacedSender(int chunks, int interval_ms, int payload_bytes)
        : m_chunks(chunks)
        , m_interval_ms(interval_ms)
        , m_payload(payload_bytes, 'x') {}

    void listen() {
        m_server =
            new QWebSocketServer(QStringLiteral("paced"), QWebSocketServer::NonSecureMode, this);
        m_server->listen(QHostAddress::LocalHost, 0);
        connect(m_server, &QWebSocketServer::newConnection, this, [this] {
            QWebSocket* socket = m_server->nextPendingConnection();
            socket->setParent(this);
            connect(socket, &QWebSocket::textMessageReceived, this,
                    [this, socket](const QString& text) {
                        if (text.contains(QStringLiteral("session.start"))) {
                            start(socket);
                        }
                    });
        });
    }
    quint16 port() const { return m_server->serverPort(); }
    std::vector<double> sendTimes() {
        std::lock_guard lock(m_mutex);
        return m_send_s;
    }

private:
    static QString json(const QJsonObject& object) {
        return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
    }

    void start(QWebSocket* socket) {
        socket->sendTextMessage(
            json({{QStringLiteral("type"), QStringLiteral("video.start")},
                  {QStringLiteral("request_id"), QStringLiteral("video_stream-bench")}}));
        auto* timer = new QTimer(this);
        timer->setTimerType(Qt::PreciseTimer);
        connect(timer, &QTimer::timeout, this, [this, socket, timer] {
            if (m_sent == m_chunks) {
                timer->stop();
                socket->sendTextMessage(
                    json({{QStringLiteral("type"), QStringLiteral("session.done")},
                          {QStringLiteral("chunks"), m_chunks},
                          {QStringLiteral("stopped"), false}}));
                return;
            }
            const int index = m_sent++;
            socket->sendTextMessage(
                json({{QStringLiteral("type"), QStringLiteral("video.chunk_metadata")},
                      {QStringLiteral("kind"), QStringLiteral("media")},
                      {QStringLiteral("transport_chunk_index"), index},
                      {QStringLiteral("generation_chunk_index"), index},
                      {QStringLiteral("num_frames"), index == 0 ? 9 : 12},
                      {QStringLiteral("byte_length"), static_cast<qint64>(m_payload.size())}}));
            {
                std::lock_guard lock(m_mutex);
                m_send_s.push_back(steadyNowS());
            }
            socket->sendBinaryMessage(m_payload);
            socket->flush();
        });
        timer->start(m_interval_ms);
    }

    int m_chunks;
    int m_interval_ms;
    QByteArray m_payload;
    int m_sent = 0;
    QWebSocketServer* m_server = nullptr;
    std::mutex m_mutex;
    std::vector<double> m_send_s;
};

double percentileOf(std::vector<double> values, double fraction) {
    std::sort(values.begin(), values.end());
    const double position = fraction * static_cast<double>(values.size() - 1);
    const auto lower = static_cast<std::size_t>(position);
    const std::size_t upper = std::min(lower + 1, values.size() - 1);
    return values[lower] +
           (values[upper] - values[lower]) * (position - static_cast<double>(lower));
}

long residentKib() {
    QFile status(QStringLiteral("/proc/self/status"));
    status.open(QIODevice::ReadOnly);
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:")) {
            return line.mid(6).trimmed().split(' ').first().toLong();
        }
    }
    return -1;
}

enum class Load { Idle, BusyThread, StallingCaller };

struct Fidelity {
    double network_p50_ms, network_p99_ms, caller_p50_ms, caller_p99_ms;
};

Fidelity measure(Load load, int chunks, int interval_ms, int payload_bytes,
                 std::function<void(int, long)> on_chunk = {}) {
    QThread sender_thread;
    auto* sender = new PacedSender(chunks, interval_ms, payload_bytes);
    sender->moveToThread(&sender_thread);
    QObject::connect(&sender_thread, &QThread::finished, sender, &QObject::deleteLater);
    sender_thread.start();
    QMetaObject::invokeMethod(
        sender, [sender] { sender->listen(); }, Qt::BlockingQueuedConnection);

    std::atomic<bool> spin{load == Load::BusyThread};
    std::thread busy([&spin] {
        volatile double sink = 0;
        while (spin.load(std::memory_order_relaxed)) {
            sink = sink + 1.0;
        }
    });

    session::SessionOptions options;
    options.url = QUrl(QStringLiteral("ws://127.0.0.1:%1/v1/realtime/video").arg(sender->port()));
    options.workload = defaultWorkload(bundledFirstFrameDataUrl().toStdString(), chunks);
    options.ping_interval_s = 0;
    std::vector<double> network_s;
    std::vector<double> caller_s;
    QEventLoop loop;
    session::SessionHandlers handlers;
    handlers.chunk_received = [&](const session::ChunkEvent& chunk) {
        caller_s.push_back(steadyNowS());
        network_s.push_back(chunk.arrivalS());
        if (on_chunk) {
            on_chunk(static_cast<int>(network_s.size()), residentKib());
        }
        if (load == Load::StallingCaller && network_s.size() % 3 == 0) {
            QElapsedTimer stall;
            stall.start();
            while (stall.elapsed() < 40) {
            }
        }
    };
    handlers.finished = [&](const session::SessionResult&) { loop.quit(); };
    session::SessionClient client(handlers);
    client.start(options);
    loop.exec();
    spin = false;
    busy.join();
    if (!client.result()->ok) {
        std::fprintf(stderr, "session failed: %s\n", qPrintable(client.result()->error));
    }
    const std::vector<double> sent = sender->sendTimes();
    sender_thread.quit();
    sender_thread.wait();

    std::vector<double> network_error_ms, caller_error_ms;
    const std::size_t n = std::min({sent.size(), network_s.size(), caller_s.size()});
    for (std::size_t k = 1; k < n; ++k) {
        const double truth = sent[k] - sent[k - 1];
        network_error_ms.push_back(std::abs((network_s[k] - network_s[k - 1]) - truth) * 1000.0);
        caller_error_ms.push_back(std::abs((caller_s[k] - caller_s[k - 1]) - truth) * 1000.0);
    }
    return {percentileOf(network_error_ms, 0.5), percentileOf(network_error_ms, 0.99),
            percentileOf(caller_error_ms, 0.5), percentileOf(caller_error_ms, 0.99)};
}

// The same comparison against app/sim's own send log (JSON lines with the server's steady
// time of every binary frame), at the fast profile, the way the issue defines the check.
std::pair<double, double> measureAgainstSimulator(int chunks, bool busy_thread) {
    QTemporaryDir dir;
    const QString log_path = dir.filePath(QStringLiteral("send.jsonl"));
    QThread server_thread;
    sim::SimulatorConfig config;
    config.log_path = log_path;
    auto server = std::make_unique<sim::SimulatorServer>(config);
    server->moveToThread(&server_thread);
    server_thread.start();
    bool listening = false;
    QMetaObject::invokeMethod(
        server.get(), [&] { listening = server->listen(QHostAddress::LocalHost, 0); },
        Qt::BlockingQueuedConnection);
    if (!listening) {
        std::fprintf(stderr, "simulator: %s\n", qPrintable(server->errorString()));
        return {-1, -1};
    }
    std::atomic<bool> spin{busy_thread};
    std::thread busy([&spin] {
        volatile double sink = 0;
        while (spin.load(std::memory_order_relaxed)) {
            sink = sink + 1.0;
        }
    });
    session::SessionOptions options;
    options.url = server->url();
    options.workload = defaultWorkload(bundledFirstFrameDataUrl().toStdString(), chunks);
    options.ping_interval_s = 0;
    QEventLoop loop;
    session::SessionHandlers handlers;
    handlers.finished = [&](const session::SessionResult&) { loop.quit(); };
    session::SessionClient client(handlers);
    client.start(options);
    loop.exec();
    spin = false;
    busy.join();
    QMetaObject::invokeMethod(
        server.get(), [&] { server.reset(); }, Qt::BlockingQueuedConnection);
    server_thread.quit();
    server_thread.wait();
    if (!client.result()->ok) {
        std::fprintf(stderr, "session failed: %s\n", qPrintable(client.result()->error));
        return {-1, -1};
    }
    std::vector<double> sent_s;
    QFile log(log_path);
    log.open(QIODevice::ReadOnly);
    for (const QByteArray& line : log.readAll().split('\n')) {
        const QJsonObject entry = QJsonDocument::fromJson(line).object();
        if (entry.value(QStringLiteral("type")).toString() == QStringLiteral("binary")) {
            sent_s.push_back(entry.value(QStringLiteral("t_ns")).toDouble() / 1e9);
        }
    }
    const auto& records = client.result()->records;
    std::vector<double> error_ms;
    for (std::size_t k = 1; k < records.size() && k < sent_s.size(); ++k) {
        error_ms.push_back(std::abs(records[k].inter_arrival_s - (sent_s[k] - sent_s[k - 1])) *
                           1000.0);
    }
    if (error_ms.empty()) {
        return {-1, -1};
    }
    return {percentileOf(error_ms, 0.5), percentileOf(error_ms, 0.99)};
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int chunks = args.value(1, QStringLiteral("300")).toInt();
    const int interval_ms = args.value(2, QStringLiteral("25")).toInt();
    const int payload = args.value(3, QStringLiteral("200")).toInt() * 1024;

    std::printf("timestamp fidelity: %d chunks of %d KiB every %d ms; |client - sender| interval\n",
                chunks, payload / 1024, interval_ms);
    std::printf("%-18s %12s %12s %12s %12s %10s\n", "load", "net p50 ms", "net p99 ms",
                "caller p50", "caller p99", "p99 ratio");
    const std::pair<Load, const char*> loads[] = {{Load::Idle, "idle"},
                                                  {Load::BusyThread, "busy 2nd thread"},
                                                  {Load::StallingCaller, "stalling caller"}};
    for (const auto& [load, name] : loads) {
        const Fidelity f = measure(load, chunks, interval_ms, payload);
        std::printf("%-18s %12.3f %12.3f %12.3f %12.3f %10.2f\n", name, f.network_p50_ms,
                    f.network_p99_ms, f.caller_p50_ms, f.caller_p99_ms,
                    f.caller_p99_ms / std::max(f.network_p99_ms, 1e-6));
    }

    const int sim_chunks = 150;
    std::printf("\nagainst the simulator's send log (fast profile, %d chunks):\n", sim_chunks);
    const auto [idle_p50, idle_p99] = measureAgainstSimulator(sim_chunks, false);
    const auto [busy_p50, busy_p99] = measureAgainstSimulator(sim_chunks, true);
    std::printf("  idle             p50 %.3f ms  p99 %.3f ms\n", idle_p50, idle_p99);
    std::printf("  busy 2nd thread  p50 %.3f ms  p99 %.3f ms  (p99 x%.2f of idle)\n", busy_p50,
                busy_p99, busy_p99 / std::max(idle_p99, 1e-6));

    const int long_chunks = 2000;
    std::printf("\nresident memory over a %d-chunk session (%d KiB chunks every 2 ms):\n",
                long_chunks, payload / 1024);
    long first_kib = 0;
    measure(Load::Idle, long_chunks, 2, payload, [&](int received, long rss_kib) {
        if (received == 100) {
            first_kib = rss_kib;
        }
        if (received % 400 == 0 || received == 100) {
            std::printf("  chunk %5d  RSS %8ld KiB  (x%.3f of chunk 100)\n", received, rss_kib,
                        first_kib > 0
                            ? static_cast<double>(rss_kib) / static_cast<double>(first_kib)
                            : 1.0);
        }
    });
    return 0;
}
