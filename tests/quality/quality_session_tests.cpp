// Real simulator sessions with the simulator's visual faults as ground truth: each detector
// must flag its fault at the right chunk and nothing before it, and clean sessions with
// camera motion and prompt transitions must raise no flag, on every timing profile.

#include "app/report/session_document.h"
#include "app/report/workload_json.h"
#include "metrics/workload.h"
#include "resources/bundled_resources.h"
#include "tests/quality/quality_session.h"

#include <QDebug>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

using namespace lbm::quality;
using namespace lbm::quality::test;

namespace {

qint64 firstWith(const QualitySessionRun& run, QualityFlag flag) {
    const std::vector<qint64> chunks = run.flagged(flag);
    return chunks.empty() ? -1 : chunks.front();
}

// Every transition judged on time, and as many as expected.
void requireTransitionsOnTime(const QualitySessionRun& run, size_t expected) {
    size_t judged = 0;
    for (const ChunkQuality& chunk : run.chunks) {
        for (const TransitionCheck& check : chunk.transitions) {
            ++judged;
            INFO("transition " << check.event_id.toStdString() << " expected in chunk "
                               << check.expected_chunk << " landed in "
                               << check.landed_chunk.value_or(-1));
            CHECK(check.verdict == TransitionVerdict::OnTime);
        }
    }
    CHECK(judged == expected);
}

void requireWellFormed(const QualitySessionRun& run, int num_chunks) {
    INFO(run.session_error.toStdString());
    REQUIRE(run.session_succeeded);
    CHECK(run.warnings.isEmpty());
    CHECK(run.duplicate_reports == 0);
    REQUIRE(run.chunks.size() == static_cast<size_t>(num_chunks));
    for (int i = 0; i < num_chunks; ++i) {
        CHECK(run.chunks[static_cast<size_t>(i)].generation_index == i);
        CHECK(run.chunks[static_cast<size_t>(i)].is_final);
        CHECK(run.chunks[static_cast<size_t>(i)].frame_count == (i == 0 ? 9 : 12));
    }
}

// A recorded run for the replay profile, with intervals like a fast server's so the case
// stays short. Written once per process: GENERATE reruns the test case for every profile.
QString writeReplayDocument() {
    static QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("recorded.json"));
    lbm::report::SessionDocument recorded;
    recorded.workload = lbm::report::describeWorkload(
        lbm::defaultWorkload(lbm::bundledFirstFrameDataUrl().toStdString(), 5));
    lbm::report::SessionEntry session;
    double arrival_s = 0;
    std::int64_t index = 0;
    for (double interval_ms : {300.0, 140.0, 180.0, 120.0, 160.0}) {
        arrival_s += interval_ms / 1000.0;
        session.chunks.push_back(
            lbm::ChunkRecord{index, arrival_s, interval_ms / 1000.0, 1000, index == 0 ? 9 : 12});
        ++index;
    }
    recorded.sessions.push_back(session);
    lbm::report::writeSessionDocument(recorded, path);
    return path;
}

QualitySessionRun runAndLog(const QualitySessionSpec& spec, int timeout_ms = 240000) {
    QualitySessionRun run = runQualitySession(spec, timeout_ms);
    if (qEnvironmentVariableIsSet("LBM_QUALITY_DUMP")) {
        qInfo().noquote() << spec.profile << spec.faults << '\n'
                          << run.describeChunks() << '\n'
                          << run.describeFlags();
    }
    return run;
}

} // namespace

TEST_CASE("prompt transitions over 0, 1 and 3 chunks under an orbiting camera raise no flag",
          "[quality][session]") {
    QualitySessionSpec spec;
    spec.num_chunks = 16;
    spec.camera_pattern = "orbit";
    spec.prompt_updates = {promptUpdate(0, "A hard cut to a desert at noon.", 0),
                           promptUpdate(5, "A quiet harbour at night.", 1),
                           promptUpdate(9, "A misty lake at dawn.", 3)};
    const QualitySessionRun run = runAndLog(spec);
    INFO(run.describeChunks().toStdString());
    INFO(run.describeFlags().toStdString());
    requireWellFormed(run, 16);
    CHECK(run.firstFlaggedChunk() == -1);
    requireTransitionsOnTime(run, 3);
}

TEST_CASE("a still camera over a still picture is not a freeze", "[quality][session]") {
    QualitySessionSpec spec;
    spec.num_chunks = 6;
    spec.camera_pattern = "hold";
    // Without grain (realism low and high draw a new grain field every frame) a held camera
    // over the slow life of the world repeats its frames within the freeze threshold.
    spec.realism = lbm::sim::Realism::None;
    spec.prompt_updates = {promptUpdate(0, "A quiet harbour at night.", 1)};
    const QualitySessionRun run = runAndLog(spec);
    INFO(run.describeChunks().toStdString());
    INFO(run.describeFlags().toStdString());
    requireWellFormed(run, 6);
    CHECK(run.firstFlaggedChunk() == -1);
    // The frames really are repeats: only the context keeps them from being a freeze.
    CHECK(run.chunks[4].frozen_frames >= spec.settings.thresholds.freeze_min_frames);
    CHECK_FALSE(run.chunks[4].motion_expected);
}

TEST_CASE("every timing profile: clean chunks and a prompt transition, then a fault",
          "[quality][session][profiles][paced]") {
    struct ProfileCase {
        QString profile;
        QString fault;
        QualityFlag flag;
        int num_chunks;
        int timeout_ms;
    };
    static const QString replay = writeReplayDocument();
    const ProfileCase profile_case = GENERATE_COPY(values<ProfileCase>({
        {QStringLiteral("h200-sp4"), QStringLiteral("seam@3"), QualityFlag::Seam, 5, 30000},
        {QStringLiteral("h200-stock"), QStringLiteral("freeze@3"), QualityFlag::Freeze, 5, 40000},
        {QStringLiteral("single-gpu"), QStringLiteral("freeze@3"), QualityFlag::Freeze, 4, 60000},
        {QStringLiteral("edge"), QStringLiteral("tint@3"), QualityFlag::Tint, 5, 30000},
        {QStringLiteral("replay:") + replay, QStringLiteral("blur@3"), QualityFlag::Blur, 5, 30000},
    }));
    QualitySessionSpec spec;
    spec.profile = profile_case.profile;
    spec.faults = {profile_case.fault};
    spec.num_chunks = profile_case.num_chunks;
    spec.camera_pattern = "orbit";
    // Starts in chunk 2 and lands there: chunks 0-2 are clean with a transition in them.
    spec.prompt_updates = {promptUpdate(0, "A quiet harbour at night.", 1)};
    const QualitySessionRun run = runAndLog(spec, profile_case.timeout_ms);
    INFO(profile_case.profile.toStdString() << " with " << profile_case.fault.toStdString());
    INFO(run.describeChunks().toStdString());
    INFO(run.describeFlags().toStdString());
    requireWellFormed(run, profile_case.num_chunks);
    const bool grows =
        profile_case.flag == QualityFlag::Blur || profile_case.flag == QualityFlag::Tint;
    // Nothing before the fault; a seam or a freeze at its chunk, blur and tint (which grow
    // from it) within two chunks.
    const qint64 first = firstWith(run, profile_case.flag);
    CHECK(run.firstFlaggedChunk() == first);
    CHECK(first >= 3);
    CHECK(first <= (grows ? 4 : 3));
    CHECK(run.chunks[2].in_transition);
    requireTransitionsOnTime(run, 1);
}
