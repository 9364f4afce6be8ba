// Steering measured on live simulator sessions steered like the window: each of W A S D I J K
// L held for two chunks, then released. The picture must respond within one chunk of where
// the server applied the key (the chunk whose metadata lists it as started), at least 95 % of
// the frames under a held key must move its way, and nothing may be flagged. Two keys to a
// session, so CTest runs the four sessions side by side.

#include "app/quality/steering_judge.h"
#include "app/quality/steering_summary.h"
#include "tests/quality/quality_session.h"

#include <QDebug>

#include <catch2/catch.hpp>

using namespace lbm::quality;
using namespace lbm::quality::test;

namespace {

// Key one held after chunk 0 arrives, released after chunk 2; key two held after chunk 3,
// released after chunk 5.
void checkHeldKeys(const QString& first, const QString& second) {
    QualitySessionSpec spec;
    spec.camera_pattern = "hold";
    spec.steered = true;
    spec.num_chunks = 9;
    spec.key_presses = {{0, first}, {2, QString()}, {3, second}, {5, QString()}};
    const QualitySessionRun run = runQualitySession(spec, 120000);
    if (qEnvironmentVariableIsSet("LBM_QUALITY_DUMP")) {
        qInfo().noquote() << "STEERING" << first << second << '\n' << run.describeChunks();
    }
    INFO(run.session_error.toStdString());
    REQUIRE(run.session_succeeded);
    INFO(run.describeChunks().toStdString());
    INFO(run.describeFlags().toStdString());
    REQUIRE(run.chunks.size() == static_cast<size_t>(spec.num_chunks));
    CHECK(run.firstFlaggedChunk() == -1);
    REQUIRE(run.key_presses.size() == 4);

    std::vector<SteeringResponse> responses;
    for (const ChunkQuality& chunk : run.chunks) {
        responses.insert(responses.end(), chunk.responses.cbegin(), chunk.responses.cend());
    }
    for (const auto& press : run.key_presses) {
        if (press.keys.isEmpty()) {
            continue; // a release asks for no motion: nothing to respond to
        }
        INFO("key '" << press.keys.toStdString() << "' sent after chunk " << press.after_chunk);
        REQUIRE(press.started_chunk);
        const auto response =
            std::find_if(responses.cbegin(), responses.cend(),
                         [&](const SteeringResponse& r) { return r.event_id == press.event_id; });
        REQUIRE(response != responses.cend());
        REQUIRE(response->response_chunk);
        INFO("started in chunk " << *press.started_chunk << ", first moved in chunk "
                                 << *response->response_chunk << " frame "
                                 << response->response_frame);
        CHECK(std::abs(*response->response_chunk - *press.started_chunk) <= 1);
        CHECK(response->keys == press.keys);
        // In milliseconds: the started chunk's arrival after the send is the ground truth,
        // within one chunk's interval.
        REQUIRE(response->response_ms);
        const double truth_ms = 1000.0 * (run.arrival_s.at(*press.started_chunk) - press.sent_s);
        const double interval_ms = 1000.0 * (run.arrival_s.at(*press.started_chunk) -
                                             run.arrival_s.at(*press.started_chunk - 1));
        CHECK(std::abs(*response->response_ms - truth_ms) <= interval_ms + 1.0);

        // Following: every chunk the key was in force in (started until the release started).
        const auto release =
            std::find_if(run.key_presses.cbegin(), run.key_presses.cend(), [&](const auto& p) {
                return p.keys.isEmpty() && p.after_chunk > press.after_chunk;
            });
        REQUIRE(release != run.key_presses.cend());
        REQUIRE(release->started_chunk);
        double followed = 0.0;
        double frames = 0.0;
        for (qint64 c = *press.started_chunk; c < *release->started_chunk; ++c) {
            const ChunkQuality& chunk = run.chunks[static_cast<size_t>(c)];
            CHECK(chunk.steering_keys == press.keys);
            REQUIRE(chunk.following);
            followed += *chunk.following * chunk.frame_count;
            frames += chunk.frame_count;
        }
        REQUIRE(frames > 0);
        CHECK(followed / frames >= 0.95);
    }
}

} // namespace

TEST_CASE("steering: W and S held are followed", "[quality][steering]") {
    checkHeldKeys(QStringLiteral("w"), QStringLiteral("s"));
}
TEST_CASE("steering: A and D held are followed", "[quality][steering]") {
    checkHeldKeys(QStringLiteral("a"), QStringLiteral("d"));
}
TEST_CASE("steering: I and K held are followed", "[quality][steering]") {
    checkHeldKeys(QStringLiteral("i"), QStringLiteral("k"));
}
TEST_CASE("steering: J and L held are followed", "[quality][steering]") {
    checkHeldKeys(QStringLiteral("j"), QStringLiteral("l"));
}

TEST_CASE("steering: a command's expected motion from keys and from a velocity",
          "[quality][steering]") {
    CHECK(SteeringCommand::fromKeys(QStringLiteral("d")).pan_x == -1);
    CHECK(SteeringCommand::fromKeys(QStringLiteral("j")).pan_x == 1);
    CHECK(SteeringCommand::fromKeys(QStringLiteral("i")).pan_y == 1);
    CHECK(SteeringCommand::fromKeys(QStringLiteral("s")).zoom == -1);
    // Strafing right while turning left drives the pan both ways: not judged.
    CHECK(SteeringCommand::fromKeys(QStringLiteral("dj")).pan_x == 0);
    CHECK_FALSE(SteeringCommand::fromKeys(QString()).moves());
    const SteeringCommand yaw_right =
        SteeringCommand::fromVelocity({0.0, 0.0, 0.0}, {0.0, 0.0523, 0.0, 0.9986});
    CHECK(yaw_right.pan_x == -1);
    CHECK(yaw_right.keys == QStringLiteral("l"));
    const SteeringCommand forward_left =
        SteeringCommand::fromVelocity({-0.05, 0.0, 0.05}, {0.0, 0.0, 0.0, 1.0});
    CHECK(forward_left.zoom == 1);
    CHECK(forward_left.pan_x == 1);
    CHECK(forward_left.keys == QStringLiteral("wa"));
}

TEST_CASE("steering: the session's response percentiles", "[quality][steering]") {
    CHECK(interpolatedPercentile({}, 50) == std::nullopt);
    CHECK(*interpolatedPercentile({300.0}, 95) == Approx(300.0));
    CHECK(*interpolatedPercentile({100.0, 200.0, 300.0, 400.0}, 50) == Approx(250.0));
    CHECK(*interpolatedPercentile({100.0, 200.0, 300.0, 400.0}, 95) == Approx(385.0));
    SteeringSummary summary;
    ChunkQuality chunk;
    chunk.generation_index = 4;
    chunk.frame_count = 12;
    chunk.following = 0.5;
    chunk.responses = {
        SteeringResponse{QStringLiteral("ui-1"), QStringLiteral("w"), 3, 4, 0, 420.0}};
    summary.add(chunk);
    CHECK(summary.last()->event_id == QStringLiteral("ui-1"));
    CHECK(*summary.percentileChunks(50) == Approx(1.0));
    CHECK(*summary.followingShare() == Approx(0.5));
    CHECK(summary.summaryText().contains(QStringLiteral("420 ms")));
}
