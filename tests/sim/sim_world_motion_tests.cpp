// The simulated world moves the way its pose log says: for each camera script and each held
// key, the global motion measured on the decoded frames (shifts of column and row profiles,
// and the spread of the two sides for forward motion) has the direction of the logged
// velocity in every chunk; a held camera keeps a living picture that never jumps. (The long
// forward walk, 200 chunks through bench --save-video with libavfilter's blurdetect and
// freezedetect, is tests/session/forward_walk_test.cpp.)
//
// Chunk 0 is left out of the direction checks: its first frame is the client's image and the
// world fades in over it.

#include "app/sim/ground_truth.h"
#include "app/sim/simulator_server.h"
#include "tests/sim/media_probe.h"
#include "tests/sim/sim_client.h"

#include <QJsonArray>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

extern "C" {
#include <libavutil/log.h>
}

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

using namespace lbm::sim;
using namespace lbm::sim::test;

namespace {

constexpr int kChunks = 5;
constexpr int kMaxShift = 10; // at quarter resolution, 40 px of the full frame per frame

struct Session {
    DecodedStream video;
    std::vector<std::vector<FrameTruth>> truth; // per chunk
};

// One session of kChunks chunks whose chunk c holds keys_per_chunk[c % size] for all three
// latent frames ("" holds still).
Session runScript(const QStringList& keys_per_chunk, Realism realism = Realism::Low,
                  int chunks = kChunks) {
    av_log_set_level(AV_LOG_ERROR);
    QTemporaryDir directory;
    REQUIRE(directory.isValid());
    SimulatorConfig config;
    config.log_path = directory.filePath(QStringLiteral("sim.jsonl"));
    config.realism = realism;
    config.mux_delay_min_ms = 0;
    config.mux_delay_max_ms = 0;
    SimulatorServer server(config);
    REQUIRE(server.listen(QHostAddress::LocalHost, 0));
    SimClient client(server.url());
    QJsonObject start = startMessage(9 + 12 * (chunks - 1));
    QJsonObject extra = start.value(QStringLiteral("extra_params")).toObject();
    QJsonArray script;
    for (int chunk = 0; chunk < chunks; ++chunk) {
        const QString key = keys_per_chunk[chunk % keys_per_chunk.size()];
        const QJsonArray latent = key.isEmpty() ? QJsonArray{} : QJsonArray{key};
        script.append(QJsonArray{latent, latent, latent});
    }
    extra.insert(QStringLiteral("camera_action_script"), script);
    start.insert(QStringLiteral("extra_params"), extra);
    client.sendJson(start);
    REQUIRE(client.waitForType(QStringLiteral("session.done"), 60000));
    Session session;
    session.video = decodeStream(client.streamBytes(), true);
    REQUIRE(session.video.error.isEmpty());
    QString error;
    const auto log = GroundTruthLog::read(config.log_path, &error);
    REQUIRE(log);
    session.truth = log->chunks();
    REQUIRE(session.truth.size() == static_cast<size_t>(chunks));
    return session;
}

// Mean luma of each column (rows = false) or row (rows = true) over the measured window: the
// picture without its caption and barcode bands, between columns from and to.
std::vector<double> profile(const DecodedStream& video, size_t frame, bool rows, int from, int to) {
    const int top = video.luma_height * 12 / 100;
    const int bottom = video.luma_height * 88 / 100;
    const std::vector<quint8>& luma = video.luma[frame];
    std::vector<double> values(static_cast<size_t>(rows ? bottom - top : to - from), 0.0);
    for (int y = top; y < bottom; ++y) {
        for (int x = from; x < to; ++x) {
            const double value = luma[static_cast<size_t>(y * video.luma_width + x)];
            values[static_cast<size_t>(rows ? y - top : x - from)] += value;
        }
    }
    return values;
}

// The shift d (in quarter-resolution pixels) that best maps a onto b: b[i] ~ a[i - d].
int bestShift(const std::vector<double>& a, const std::vector<double>& b) {
    int best = 0;
    double best_cost = std::numeric_limits<double>::max();
    const int size = static_cast<int>(a.size());
    for (int shift = -kMaxShift; shift <= kMaxShift; ++shift) {
        double cost = 0.0;
        int count = 0;
        for (int i = kMaxShift; i < size - kMaxShift; ++i) {
            cost += std::abs(b[static_cast<size_t>(i)] - a[static_cast<size_t>(i - shift)]);
            ++count;
        }
        cost /= std::max(1, count);
        if (cost < best_cost - 1e-9) {
            best_cost = cost;
            best = shift;
        }
    }
    return best;
}

struct Motion {
    double dx = 0.0;         // the picture's content moving right (+) or left (-)
    double dy = 0.0;         // moving down (+) or up (-)
    double divergence = 0.0; // the sides moving apart (+, forward) or together (-)
};

Motion between(const DecodedStream& video, size_t a, size_t b) {
    const int width = video.luma_width;
    const int third = width / 3;
    Motion motion;
    motion.dx = bestShift(profile(video, a, false, 0, width), profile(video, b, false, 0, width));
    motion.dy = bestShift(profile(video, a, true, 0, width), profile(video, b, true, 0, width));
    const int left =
        bestShift(profile(video, a, false, 0, third), profile(video, b, false, 0, third));
    const int right = bestShift(profile(video, a, false, width - third, width),
                                profile(video, b, false, width - third, width));
    motion.divergence = right - left;
    return motion;
}

// The motion over a chunk: the per-frame shifts from the chunk's first frame on, summed;
// the spread of the sides between the chunk's first and last frames (per frame it is a
// fraction of a quarter-resolution pixel, which rounding would lose).
Motion chunkMotion(const Session& session, int chunk) {
    Motion total;
    const auto& frames = session.truth[static_cast<size_t>(chunk)];
    for (size_t i = 0; i + 1 < frames.size(); ++i) {
        const Motion step = between(session.video, static_cast<size_t>(frames[i].frame),
                                    static_cast<size_t>(frames[i + 1].frame));
        total.dx += step.dx;
        total.dy += step.dy;
    }
    total.divergence = between(session.video, static_cast<size_t>(frames.front().frame),
                               static_cast<size_t>(frames.back().frame))
                           .divergence;
    return total;
}

double meanChange(const DecodedStream& video, size_t a, size_t b) {
    const int top = video.luma_height * 12 / 100;
    const int bottom = video.luma_height * 88 / 100;
    double sum = 0.0;
    int count = 0;
    for (int y = top; y < bottom; ++y) {
        for (int x = 0; x < video.luma_width; ++x) {
            const size_t index = static_cast<size_t>(y * video.luma_width + x);
            sum += std::abs(static_cast<int>(video.luma[a][index]) - video.luma[b][index]);
            ++count;
        }
    }
    return sum / count;
}

// Checks every chunk after the first moves the way its logged velocity says.
void checkDirections(const Session& session, const QString& name) {
    for (int chunk = 1; chunk < kChunks; ++chunk) {
        const FrameTruth& truth = session.truth[static_cast<size_t>(chunk)].front();
        const Motion motion = chunkMotion(session, chunk);
        INFO(name.toStdString() << " chunk " << chunk << ": dx " << motion.dx << ", dy "
                                << motion.dy << ", divergence " << motion.divergence
                                << "; logged x " << truth.velocity.x() << " z "
                                << truth.velocity.z() << " yaw " << truth.velocity_yaw_deg
                                << " pitch " << truth.velocity_pitch_deg);
        // The log's numbers carry float noise (1e-7 degrees for no turn at all).
        const auto sign = [](double value) { return value > 1e-3 ? 1 : (value < -1e-3 ? -1 : 0); };
        // Turning right (l) or stepping right (d) moves the picture's content left.
        const int sideways = sign(truth.velocity_yaw_deg) + sign(truth.velocity.x());
        if (sideways > 0) {
            CHECK(motion.dx < -2);
        } else if (sideways < 0) {
            CHECK(motion.dx > 2);
        }
        // Looking up (i) moves it down.
        if (sign(truth.velocity_pitch_deg) > 0) {
            CHECK(motion.dy > 2);
        } else if (sign(truth.velocity_pitch_deg) < 0) {
            CHECK(motion.dy < -2);
        }
        // Walking forward (w) spreads the sides apart, walking back (s) draws them together.
        if (sign(truth.velocity.z()) > 0) {
            CHECK(motion.divergence > 2);
        } else if (sign(truth.velocity.z()) < 0) {
            CHECK(motion.divergence < -2);
        }
    }
}

} // namespace

TEST_CASE("held keys move the picture the way the pose log says", "[sim][world][motion]") {
    for (const QString& key :
         {QStringLiteral("w"), QStringLiteral("s"), QStringLiteral("a"), QStringLiteral("d"),
          QStringLiteral("j"), QStringLiteral("l"), QStringLiteral("i"), QStringLiteral("k")}) {
        const Session session = runScript({key});
        checkDirections(session, QStringLiteral("held ") + key);
    }
}

TEST_CASE("the benchmark's forward and orbit scripts move the picture as logged",
          "[sim][world][motion]") {
    checkDirections(runScript({QStringLiteral("w")}, Realism::High), QStringLiteral("forward"));
    // The workload's orbit: w, a, s, d, one per chunk.
    checkDirections(runScript({QStringLiteral("w"), QStringLiteral("a"), QStringLiteral("s"),
                               QStringLiteral("d")}),
                    QStringLiteral("orbit"));
}

TEST_CASE("a held camera is a living picture that never jumps", "[sim][world][motion]") {
    // quality_settings.h: freeze below 0.3 levels of change a frame; a seam is a boundary
    // change at least 3x the chunks' typical change.
    constexpr double kFreezeChange = 0.3;
    constexpr double kSeamScore = 3.0;
    for (const Realism realism : {Realism::None, Realism::Low, Realism::High}) {
        const Session session = runScript({QString()}, realism);
        INFO("realism " << realismName(realism).toStdString());
        std::vector<double> inside;
        for (int chunk = 1; chunk < kChunks; ++chunk) {
            const auto& frames = session.truth[static_cast<size_t>(chunk)];
            CHECK_FALSE(frames.front().moving());
            for (size_t i = 0; i + 1 < frames.size(); ++i) {
                const double change =
                    meanChange(session.video, static_cast<size_t>(frames[i].frame),
                               static_cast<size_t>(frames[i + 1].frame));
                INFO("chunk " << chunk << " frame " << frames[i].frame << " change " << change);
                CHECK(change > kFreezeChange);
                inside.push_back(change);
            }
        }
        std::sort(inside.begin(), inside.end());
        const double typical = inside[inside.size() / 2];
        for (int chunk = 2; chunk < kChunks; ++chunk) {
            const qint64 first = session.truth[static_cast<size_t>(chunk)].front().frame;
            const double boundary = meanChange(session.video, static_cast<size_t>(first - 1),
                                               static_cast<size_t>(first));
            INFO("boundary before chunk " << chunk << ": " << boundary << " vs typical "
                                          << typical);
            CHECK(boundary < kSeamScore * typical);
        }
    }
}

TEST_CASE("the same seed gives the same stream, another seed another world", "[sim][world][seed]") {
    // Everything a frame shows (layout, pose, clouds, grain, flicker) is a function of the
    // session's seed and the frame's number, and the encoder is single-threaded, so a session
    // repeats to the byte; the thread pool that renders a chunk's frames must not change that.
    av_log_set_level(AV_LOG_ERROR);
    const auto stream = [](int seed) {
        SimulatorConfig config;
        config.mux_delay_min_ms = 0;
        config.mux_delay_max_ms = 0;
        SimulatorServer server(config);
        REQUIRE(server.listen(QHostAddress::LocalHost, 0));
        SimClient client(server.url());
        QJsonObject start = startMessage(9 + 12 * 2);
        start.insert(QStringLiteral("seed"), seed);
        QJsonObject extra = start.value(QStringLiteral("extra_params")).toObject();
        const QJsonArray walk{QJsonArray{QStringLiteral("w")}, QJsonArray{QStringLiteral("w")},
                              QJsonArray{QStringLiteral("w")}};
        extra.insert(QStringLiteral("camera_action_script"), QJsonArray{walk, walk, walk});
        start.insert(QStringLiteral("extra_params"), extra);
        client.sendJson(start);
        REQUIRE(client.waitForType(QStringLiteral("session.done"), 60000));
        return client.streamBytes();
    };
    const QByteArray first = stream(42);
    REQUIRE(first.size() > 0);
    CHECK(stream(42) == first);
    CHECK(stream(7) != first);
}
