// Whole sessions against app/sim's SimulatorServer on 127.0.0.1: real video, the fault kinds,
// keepalive against the stall timeout, and interactions as the simulated server answers them.

#include "app/sim/simulator_server.h"
#include "decoded_session.h"
#include "metrics/session_metrics.h"
#include "resources/bundled_resources.h"

#include <catch2/catch.hpp>

using namespace lbm;
using namespace lbm::engine;
using lbm::session::InteractionRecord;

namespace {

// The engine against a SimulatorServer of the test's own (a configuration the engine's
// built-in one does not expose: stall timeouts, fault sets per case).
DecodedSession
runAgainstSimulator(sim::SimulatorConfig config, EngineSettings settings,
                    const std::function<void(SessionEngine&, const ChunkRecord&)>& on_chunk = {}) {
    sim::SimulatorServer server(config);
    REQUIRE(server.listen(QHostAddress::LocalHost, 0));
    settings.session.url = server.url();
    DecodedSession run = runDecodedSession(settings, 90000, on_chunk);
    REQUIRE(run.recorded_every_chunk);
    return run;
}

EngineSettings fastOptions(int chunks) {
    return testSettings(QUrl(), chunks);
}

} // namespace

TEST_CASE("a fast simulated session decodes every frame in order", "[engine][sim]") {
    const DecodedSession run = runAgainstSimulator({}, fastOptions(4));
    INFO(run.result.error.toStdString());
    REQUIRE(run.result.ok);
    REQUIRE(run.result.records.size() == 4);
    REQUIRE(run.result.trailer_received);
    const qint64 frames = announcedFrames(run.result);
    REQUIRE(run.frames_decoded == frames);
    QList<qint64> expected;
    for (qint64 n = 0; n < frames; ++n) {
        expected.append(n);
    }
    REQUIRE(run.barcodes == expected);
    REQUIRE(run.remux.ok);
    REQUIRE(run.remux.packets_written == frames);
    // The measured metrics are the seed's metrics of the recorded records.
    MetricsOptions options;
    options.ttfc_s = run.result.ttfc_s;
    options.session_wall_s = run.result.wall_s;
    const SessionMetrics metrics = computeMetrics(run.result.records, options);
    REQUIRE(metrics.chunks_received == 4);
    REQUIRE(metrics.total_frames == frames);
    REQUIRE(*metrics.ttfc_ms == Approx(*run.result.ttfc_s * 1000.0));
}

TEST_CASE("every simulator fault ends with its message and a playable partial recording",
          "[engine][sim][faults][paced]") {
    const int fault_chunk = 2;
    const std::vector<std::pair<QString, QString>> cases = {
        {QStringLiteral("stall"), QStringLiteral("No media chunk for 3 s after 2 chunk(s);")},
        {QStringLiteral("error"), QStringLiteral("Server rejected the session after 2 chunk(s): ")},
        {QStringLiteral("disconnect"),
         QStringLiteral("The server closed the connection after 2 chunk(s)")},
        {QStringLiteral("garbage"),
         QStringLiteral("The server sent a text frame that is not valid JSON")},
        {QStringLiteral("orphan-binary"),
         QStringLiteral("Received a binary frame with no preceding video.chunk_metadata event.")},
        {QStringLiteral("truncate"), QStringLiteral("The binary frame of chunk 2 holds ")},
    };
    for (const auto& [kind, message] : cases) {
        INFO(kind.toStdString());
        sim::SimulatorConfig config;
        QString problem;
        const auto fault =
            sim::FaultSpec::parse(QStringLiteral("%1@%2").arg(kind).arg(fault_chunk), &problem);
        REQUIRE(fault.has_value());
        config.faults = {*fault};
        EngineSettings options = fastOptions(5);
        // Above the simulator's time to render and encode a chunk even under ThreadSanitizer
        // on a loaded machine (a chunk late for that reason would fail the wrong way).
        options.session.chunk_timeout_s = 3;
        const DecodedSession run = runAgainstSimulator(config, options);
        INFO(run.result.error.toStdString());
        REQUIRE_FALSE(run.result.ok);
        REQUIRE(run.result.error.startsWith(message));
        REQUIRE(run.result.records.size() == static_cast<std::size_t>(fault_chunk));
        // The partial recording plays: every frame whose fragment arrived.
        REQUIRE(run.remux.ok);
        REQUIRE(run.remux.packets_written >= announcedFrames(run.result) - 1);
    }
}

TEST_CASE("pings keep a slow-start session alive past the server's stall timeout",
          "[engine][sim][ping][paced]") {
    sim::SimulatorConfig config;
    config.stall_timeout_ms = 600;
    QString problem;
    config.faults = {*sim::FaultSpec::parse(QStringLiteral("slow-start@0"), &problem)};
    SECTION("with pings the session completes") {
        EngineSettings options = fastOptions(3);
        options.session.ping_interval_s = 0.15;
        const DecodedSession run = runAgainstSimulator(config, options);
        INFO(run.result.error.toStdString());
        REQUIRE(run.result.ok);
        REQUIRE(run.result.pings_sent >= 2);
        REQUIRE(run.result.pongs_received >= 2);
    }
    SECTION("without pings the server gives up") {
        const DecodedSession run = runAgainstSimulator(config, fastOptions(3));
        REQUIRE_FALSE(run.result.ok);
        REQUIRE(run.result.error.contains(QStringLiteral("Stall timeout")));
    }
}

TEST_CASE("interactions are acked and their chunks land on the timeline", "[engine][sim]") {
    EngineSettings options = fastOptions(8);
    options.session.workload.prompt_updates = {PromptUpdate{1, "A snowy street", 2}};
    QString prompt_id, camera_id;
    const DecodedSession run =
        runAgainstSimulator({}, options, [&](SessionEngine& engine, const ChunkRecord& chunk) {
            if (chunk.index == 3) {
                prompt_id = engine.sendPrompt(QStringLiteral("Night falls"), 0);
                camera_id = engine.sendCameraVelocity(protocol::CameraSe3::identity());
            }
        });
    INFO(run.result.error.toStdString());
    REQUIRE(run.result.ok);
    const InteractionRecord* scheduled = run.timeline.find(QStringLiteral("chunk-1"));
    REQUIRE(scheduled != nullptr);
    REQUIRE(scheduled->queued_s.has_value());
    REQUIRE(scheduled->started_chunk.has_value());
    REQUIRE(*scheduled->started_chunk >= 2);
    REQUIRE(scheduled->completed_chunk == *scheduled->started_chunk + 1); // K = 2
    const InteractionRecord* prompt = run.timeline.find(prompt_id);
    REQUIRE(prompt->queued_s.has_value());
    REQUIRE(prompt->started_chunk.has_value());
    REQUIRE(*prompt->started_chunk >= 4);
    REQUIRE(prompt->completed_chunk == prompt->started_chunk); // K = 0: a hard switch
    // A camera interaction next to a camera script would make the real server fail the whole
    // session at the next chunk (tests/data/upstream/newest/camera_with_script.json), so the
    // client refuses it, on the timeline, and the session goes on.
    const InteractionRecord* camera = run.timeline.find(camera_id);
    REQUIRE(camera->state() == InteractionRecord::State::Failed);
    REQUIRE(camera->error.contains(QStringLiteral("camera_action_script")));
}
