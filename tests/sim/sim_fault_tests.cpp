#include "app/sim/fault_spec.h"
#include "app/sim/simulator_server.h"
#include "tests/sim/sim_client.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTimer>

#include <catch2/catch.hpp>

extern "C" {
#include <libavutil/log.h>
}

#include <memory>

using namespace lbm::sim;
using namespace lbm::sim::test;

namespace {

struct FaultRun {
    std::unique_ptr<SimulatorServer> server;
    std::unique_ptr<SimClient> client;
};

// The stall timeout must exceed the time to render and encode a chunk, which is 5-10x longer
// under ThreadSanitizer on a loaded machine; only the stall cases wait for it to fire.
FaultRun runWithFault(const QString& fault, int stall_timeout_ms = 3000, bool ping = false) {
    av_log_set_level(AV_LOG_ERROR);
    SimulatorConfig config;
    config.stall_timeout_ms = stall_timeout_ms;
    QString error;
    const auto spec = FaultSpec::parse(fault, &error);
    REQUIRE(spec);
    config.faults.push_back(*spec);
    FaultRun run;
    run.server = std::make_unique<SimulatorServer>(config);
    REQUIRE(run.server->listen(QHostAddress::LocalHost, 0));
    run.client = std::make_unique<SimClient>(run.server->url());
    run.client->sendJson(startMessage(33));
    QTimer pinger;
    if (ping) {
        QObject::connect(&pinger, &QTimer::timeout, [&run]() {
            run.client->sendJson({{QStringLiteral("type"), QStringLiteral("session.ping")}});
        });
        pinger.start(100);
    }
    REQUIRE(run.client->waitForClose(10000));
    return run;
}

int countMedia(const SimClient& client) {
    int count = 0;
    for (const auto& metadata : client.ofType(QStringLiteral("video.chunk_metadata"))) {
        count += metadata.value(QStringLiteral("kind")) == QStringLiteral("media");
    }
    return count;
}

} // namespace

TEST_CASE("fault specs parse and refuse with a clear message", "[sim][fault]") {
    QString error;
    const auto spec = FaultSpec::parse(QStringLiteral("orphan-binary@2"), &error);
    REQUIRE(spec);
    CHECK(spec->kind == FaultKind::OrphanBinary);
    CHECK(spec->chunk == 2);
    CHECK_FALSE(FaultSpec::parse(QStringLiteral("meltdown@1"), &error));
    CHECK(error.contains(QStringLiteral("stall, error, disconnect, garbage, orphan-binary, "
                                        "truncate, slow-start")));
    CHECK_FALSE(FaultSpec::parse(QStringLiteral("stall@x"), &error));
    CHECK(FaultSpec::parse(QStringLiteral("slow-start"), &error));
}

TEST_CASE("stall stops emitting and the stall timeout ends the session", "[sim][fault][paced]") {
    const auto run = runWithFault(QStringLiteral("stall@1"), 1000);
    CHECK(countMedia(*run.client) == 1);
    const auto errors = run.client->ofType(QStringLiteral("error"));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].value(QStringLiteral("message")) ==
          QStringLiteral("Stall timeout: no generation progress"));
    // As the real handler does (tests/data/upstream/*/stall_timeout.json): the stall aborts
    // the request and the session then ends as stopped, without the trailer.
    const auto done = run.client->ofType(QStringLiteral("session.done"));
    REQUIRE(done.size() == 1);
    CHECK(done[0].value(QStringLiteral("stopped")).toBool());
    CHECK(done[0].value(QStringLiteral("chunks")).toInt() == 1);
}

TEST_CASE("error sends a generation failure and closes without session.done", "[sim][fault]") {
    const auto run = runWithFault(QStringLiteral("error@1"));
    CHECK(countMedia(*run.client) == 1);
    const auto errors = run.client->ofType(QStringLiteral("error"));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0]
              .value(QStringLiteral("message"))
              .toString()
              .startsWith(QStringLiteral("Generation failed at chunk 1")));
    CHECK(run.client->ofType(QStringLiteral("session.done")).empty());
}

TEST_CASE("disconnect drops the connection mid-session", "[sim][fault]") {
    const auto run = runWithFault(QStringLiteral("disconnect@2"));
    CHECK(countMedia(*run.client) == 2);
    CHECK(run.client->ofType(QStringLiteral("error")).empty());
    CHECK(run.client->ofType(QStringLiteral("session.done")).empty());
}

TEST_CASE("garbage, orphan-binary and truncate corrupt the stream as named",
          "[sim][fault][paced]") {
    SECTION("garbage") {
        const auto run = runWithFault(QStringLiteral("garbage@1"));
        int invalid = 0;
        for (const auto& message : run.client->messages()) {
            invalid += !message.binary && QJsonDocument::fromJson(message.text.toUtf8()).isNull();
        }
        CHECK(invalid == 1);
        CHECK(run.client->ofType(QStringLiteral("session.done")).size() == 1);
    }
    SECTION("orphan-binary") {
        const auto run = runWithFault(QStringLiteral("orphan-binary@1"));
        const auto& messages = run.client->messages();
        int orphans = 0;
        for (size_t i = 1; i < messages.size(); ++i) {
            orphans += messages[i].binary && messages[i - 1].binary;
        }
        CHECK(orphans == 1);
    }
    SECTION("truncate") {
        const auto run = runWithFault(QStringLiteral("truncate@1"));
        const auto& messages = run.client->messages();
        int short_frames = 0;
        for (size_t i = 0; i + 1 < messages.size(); ++i) {
            if (messages[i].type() == QStringLiteral("video.chunk_metadata")) {
                short_frames += messages[i + 1].bytes.size() <
                                messages[i].json.value(QStringLiteral("byte_length")).toInteger();
            }
        }
        CHECK(short_frames == 1);
    }
}

TEST_CASE("slow-start outlasts the stall timeout unless the client pings", "[sim][fault][paced]") {
    SECTION("no pings: the server gives up") {
        const auto run = runWithFault(QStringLiteral("slow-start@0"), 300);
        CHECK(countMedia(*run.client) == 0);
        CHECK(run.client->ofType(QStringLiteral("error"))[0].value(QStringLiteral("message")) ==
              QStringLiteral("Stall timeout: no generation progress"));
    }
    SECTION("pings keep the session alive") {
        const auto run = runWithFault(QStringLiteral("slow-start@0"), 300, true);
        CHECK(countMedia(*run.client) == 3);
        CHECK(run.client->ofType(QStringLiteral("session.done")).size() == 1);
    }
}

TEST_CASE("the send log records every message with the server's time", "[sim][log]") {
    QTemporaryDir dir;
    SimulatorConfig config;
    config.log_path = dir.filePath(QStringLiteral("send.jsonl"));
    auto server = std::make_unique<SimulatorServer>(config);
    REQUIRE(server->listen(QHostAddress::LocalHost, 0));
    SimClient client(server->url());
    client.sendJson(startMessage(21));
    REQUIRE(client.waitForType(QStringLiteral("session.done")));
    REQUIRE(client.waitForClose());
    QFile file(config.log_path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    QList<QByteArray> lines;
    int ground_truth = 0;
    double previous_ns = -1;
    for (const QByteArray& line : file.readAll().trimmed().split('\n')) {
        const QJsonObject entry = QJsonDocument::fromJson(line).object();
        CHECK(entry.value(QStringLiteral("t_ns")).toDouble() >= previous_ns);
        previous_ns = entry.value(QStringLiteral("t_ns")).toDouble();
        // The world's ground truth (app/sim/ground_truth.h) is interleaved with the messages.
        const QString type = entry.value(QStringLiteral("type")).toString();
        if (type == QStringLiteral("frame") || type == QStringLiteral("world")) {
            ++ground_truth;
        } else if (type == QStringLiteral("production_lag")) {
            // Not a message: how late this machine made the pace (only when it did).
            CHECK(entry.value(QStringLiteral("lag_ms")).toDouble() > 0.0);
        } else {
            lines.append(line);
        }
    }
    // video.start, 3 x (metadata + binary), session.done; one world and 21 frame records
    REQUIRE(lines.size() == 8);
    CHECK(ground_truth == 22);
    const QJsonObject metadata = QJsonDocument::fromJson(lines[1]).object();
    CHECK(metadata.value(QStringLiteral("type")) == QStringLiteral("video.chunk_metadata"));
    CHECK(metadata.value(QStringLiteral("transport_chunk_index")).toInt() == 0);
    const QJsonObject binary = QJsonDocument::fromJson(lines[2]).object();
    CHECK(binary.value(QStringLiteral("byte_length")) ==
          metadata.value(QStringLiteral("byte_length")));
}
