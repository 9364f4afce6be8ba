// The simulator's ground truth: every frame's pose, velocity, transition and faults in the
// send log, read back by GroundTruthLog; the steering faults change what the camera does and
// nothing else.

#include "app/sim/ground_truth.h"
#include "app/sim/interaction_engine.h"
#include "app/sim/simulator_server.h"
#include "tests/sim/sim_client.h"

#include <QJsonArray>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

extern "C" {
#include <libavutil/log.h>
}

using namespace lbm::sim;
using namespace lbm::sim::test;

namespace {

FaultSpec fault(const QString& text) {
    QString error;
    const auto spec = FaultSpec::parse(text, &error);
    INFO(error.toStdString());
    REQUIRE(spec);
    return *spec;
}

KeyScript held(const QString& key, int chunks) {
    return KeyScript(static_cast<size_t>(chunks),
                     std::vector<std::vector<QString>>(3, std::vector<QString>{key}));
}

} // namespace

TEST_CASE("steering faults parse, late-action with its delay", "[sim][fault][truth]") {
    CHECK(fault(QStringLiteral("ignore-action@4")).kind == FaultKind::IgnoreAction);
    CHECK(fault(QStringLiteral("reverse-action@2")).kind == FaultKind::ReverseAction);
    const FaultSpec late = fault(QStringLiteral("late-action@5"));
    CHECK(late.kind == FaultKind::LateAction);
    CHECK(late.delay_chunks == 1);
    CHECK(fault(QStringLiteral("late-action@5:3")).delay_chunks == 3);
    CHECK(fault(QStringLiteral("late-action@5:3")).toString() == QStringLiteral("late-action@5:3"));
    QString error;
    CHECK_FALSE(FaultSpec::parse(QStringLiteral("late-action@5:0"), &error));
    CHECK(error.contains(QStringLiteral("late-action@5:2")));
}

TEST_CASE("steering faults change the applied velocity, never the commanded one",
          "[sim][fault][truth]") {
    InteractionEngine engine(QStringLiteral("Road"), held(QStringLiteral("w"), 8), WorldLook{},
                             {fault(QStringLiteral("ignore-action@2")),
                              fault(QStringLiteral("reverse-action@3")),
                              fault(QStringLiteral("late-action@5:2"))});
    std::vector<ChunkPlan> plans;
    qint64 frame = 0;
    for (int chunk = 0; chunk < 8; ++chunk) {
        const int frames = chunk == 0 ? 9 : 12;
        plans.push_back(engine.planChunk(chunk, frames, frame));
        frame += frames;
    }
    const auto z = [&](int chunk) {
        return plans[static_cast<size_t>(chunk)].frames.back().pose.position.z();
    };
    for (const ChunkPlan& plan : plans) {
        for (const FrameState& state : plan.frames) {
            CHECK(state.commanded.translation.z() == Approx(0.05f));
        }
    }
    CHECK(plans[1].frames.back().applied.translation.z() == Approx(0.05f));
    CHECK(plans[2].frames.front().applied.isZero());
    CHECK(plans[2].frames.front().faults == QStringList{QStringLiteral("ignore-action@2")});
    CHECK(z(2) == Approx(z(1)));
    CHECK(plans[3].frames.back().applied.translation.z() == Approx(-0.05f));
    CHECK(z(3) == Approx(z(2) - 0.15f));
    // late-action@5:2 under a script that never changes: the previous command is the same,
    // so the camera goes on as commanded, and the log still names the fault.
    CHECK(z(6) == Approx(z(5) + 0.15f));
    CHECK(plans[5].frames.front().faults == QStringList{QStringLiteral("late-action@5:2")});
    CHECK(plans[6].frames.front().faults == QStringList{QStringLiteral("late-action@5:2")});
    CHECK(plans[7].frames.front().faults.isEmpty());
}

TEST_CASE("a late action keeps the previous command in force for its delay",
          "[sim][fault][truth]") {
    InteractionEngine engine(QStringLiteral("Road"), std::nullopt, WorldLook{},
                             {fault(QStringLiteral("late-action@3:2"))});
    const QQuaternion no_turn;
    std::vector<ChunkPlan> plans;
    qint64 frame = 0;
    for (int chunk = 0; chunk < 7; ++chunk) {
        if (chunk == 1) {
            engine.queueCamera(QStringLiteral("w"), InteractionEngine::CameraMode::Velocity,
                               QVector3D(0, 0, 0.05f), no_turn, 0);
        }
        if (chunk == 3) {
            // Turn right instead: the engine reports it from chunk 3, the camera obeys at 5.
            engine.queueCamera(QStringLiteral("l"), InteractionEngine::CameraMode::Velocity,
                               QVector3D(), QQuaternion::fromAxisAndAngle(0, 1, 0, 6), 0);
        }
        const int frames = chunk == 0 ? 9 : 12;
        plans.push_back(engine.planChunk(chunk, frames, frame));
        frame += frames;
    }
    CHECK(plans[3].started_event_ids == QStringList{QStringLiteral("l")});
    for (int chunk = 3; chunk < 5; ++chunk) {
        const FrameState& state = plans[static_cast<size_t>(chunk)].frames.back();
        CHECK(state.commanded.yawDeg() == Approx(6.0f));
        CHECK(state.applied.translation.z() == Approx(0.05f));
        CHECK(state.applied.yawDeg() == Approx(0.0f).margin(1e-4));
    }
    const FrameState& obeyed = plans[5].frames.back();
    CHECK(obeyed.applied.yawDeg() == Approx(6.0f));
    CHECK(obeyed.applied.translation.isNull());
}

TEST_CASE("the send log carries every frame's ground truth and reads back", "[sim][truth]") {
    av_log_set_level(AV_LOG_ERROR);
    QTemporaryDir directory;
    REQUIRE(directory.isValid());
    SimulatorConfig config;
    config.log_path = directory.filePath(QStringLiteral("sim.jsonl"));
    config.faults = {fault(QStringLiteral("blur@2")), fault(QStringLiteral("reverse-action@3"))};
    SimulatorServer server(config);
    REQUIRE(server.listen(QHostAddress::LocalHost, 0));
    SimClient client(server.url());
    QJsonObject start = startMessage(45); // 4 chunks
    QJsonObject extra = start.value(QStringLiteral("extra_params")).toObject();
    QJsonArray script;
    for (int chunk = 0; chunk < 4; ++chunk) {
        script.append(QJsonArray{QJsonArray{QStringLiteral("w")}, QJsonArray{QStringLiteral("w")},
                                 QJsonArray{QStringLiteral("w")}});
    }
    extra.insert(QStringLiteral("camera_action_script"), script);
    start.insert(QStringLiteral("extra_params"), extra);
    client.sendJson(start);
    REQUIRE(client.waitForType(QStringLiteral("session.done"), 60000));

    QString error;
    const auto log = GroundTruthLog::read(config.log_path, &error);
    INFO(error.toStdString());
    REQUIRE(log);
    REQUIRE(log->worlds().size() == 1);
    CHECK(log->worlds().front().width == 832);
    CHECK(log->worlds().front().realism == QStringLiteral("low"));
    const auto frames = log->sessionFrames();
    REQUIRE(frames.size() == 45);
    const auto chunks = log->chunks();
    REQUIRE(chunks.size() == 4);
    CHECK(chunks[0].size() == 9);
    CHECK(chunks[3].size() == 12);
    for (size_t i = 0; i < frames.size(); ++i) {
        CHECK(frames[i].frame == static_cast<qint64>(i));
        CHECK(frames[i].camera_event == QStringLiteral("script"));
        CHECK(frames[i].commanded.z() == Approx(0.05f));
        CHECK(frames[i].objects_visible > 0);
    }
    CHECK(frames.front().position.z() == 0.0f);
    CHECK(chunks[2].back().position.z() == Approx(0.45f));
    CHECK(chunks[2].front().hasFault(QStringLiteral("blur")));
    CHECK_FALSE(chunks[1].front().hasFault(QStringLiteral("blur")));
    CHECK(chunks[3].front().velocity.z() == Approx(-0.05f));
    CHECK(chunks[3].front().hasFault(QStringLiteral("reverse-action")));
    CHECK(chunks[3].back().position.z() == Approx(0.30f));

    const QString missing = directory.filePath(QStringLiteral("none.jsonl"));
    CHECK_FALSE(GroundTruthLog::read(missing, &error));
    CHECK(error.contains(QStringLiteral("Cannot read the simulator log")));
}
