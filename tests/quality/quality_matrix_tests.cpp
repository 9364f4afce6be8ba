// The recall matrix: every visual fault the simulator injects, placed outside prompt
// transitions, in the middle and at the last chunk of K = 1..4 transitions and right after a
// hard cut, under each camera script and under live steering; and clean sessions of the same
// shapes. Each injected fault must be flagged at its chunk (blur and tint within one chunk),
// nothing may be flagged before it, and a clean session must raise no flag at all. The
// realism levels are spread over the sessions (`none` and `high` on three each, `low` on the
// rest); the steering faults have sessions of their own; the sessions outside transitions
// also get libavfilter's second opinion (second_opinion.h). Small fast sessions, two to a
// test case, so CTest runs them side by side.
//
// LBM_QUALITY_DUMP=1 prints one "MATRIX" line per session (for docs/quality.md).

#include "tests/quality/quality_session.h"
#include "tests/quality/second_opinion.h"

#include <QDebug>

#include <catch2/catch.hpp>

#include <set>

using namespace lbm::quality;
using namespace lbm::quality::test;

namespace {

// A prompt sent after chunk 1 starts in chunk 3.
constexpr int kPromptAfter = 1;
constexpr qint64 kTransitionStart = kPromptAfter + 2;

enum class Camera { Orbit, Forward, Hold, Steered };

const char* cameraName(Camera camera) {
    switch (camera) {
    case Camera::Orbit:
        return "orbit";
    case Camera::Forward:
        return "forward";
    case Camera::Hold:
        return "hold";
    case Camera::Steered:
        return "steered";
    }
    return "?";
}

// Where a fault goes relative to a transition of K chunks from kTransitionStart (K = -1: no
// transition; K = 0: a hard cut, the fault in the chunk after it).
struct Shape {
    int k = -1;
    bool last = false; // the transition's last chunk rather than its middle
};

qint64 faultChunk(const Shape& shape) {
    if (shape.k < 0) {
        return 4;
    }
    if (shape.k == 0) {
        return kTransitionStart + 1;
    }
    return kTransitionStart + (shape.last ? shape.k - 1 : shape.k / 2);
}

QString shapeName(const Shape& shape) {
    if (shape.k < 0) {
        return QStringLiteral("outside transitions");
    }
    if (shape.k == 0) {
        return QStringLiteral("after a hard cut");
    }
    return QStringLiteral("%1 chunk of K=%2")
        .arg(shape.last ? QStringLiteral("last") : QStringLiteral("middle"))
        .arg(shape.k);
}

QualitySessionSpec specFor(Camera camera, const Shape& shape, const QString& fault,
                           lbm::sim::Realism realism) {
    QualitySessionSpec spec;
    spec.realism = realism;
    // Outside transitions libavfilter's measures apply too: the second opinion runs there
    // (the steering faults are no picture defect it could see).
    spec.second_opinion = shape.k < 0 && !fault.endsWith(QStringLiteral("-action"));
    spec.camera_pattern = camera == Camera::Steered ? "hold" : cameraName(camera);
    spec.steered = camera == Camera::Steered;
    if (spec.steered) {
        // Turning right from chunk 1's arrival on: the view pans for the whole session.
        spec.key_presses = {{0, QStringLiteral("l")}};
    }
    if (shape.k >= 0) {
        spec.prompt_updates = {promptUpdate(
            kPromptAfter, "A quiet harbour at night, lanterns on the water.", shape.k)};
    }
    const qint64 chunk = faultChunk(shape);
    spec.num_chunks = static_cast<int>(std::max<qint64>(chunk, kTransitionStart + shape.k) + 3);
    if (!fault.isEmpty()) {
        spec.faults = {QStringLiteral("%1@%2").arg(fault).arg(chunk)};
    }
    return spec;
}

QualitySessionRun runLogged(const QualitySessionSpec& spec, const QString& label) {
    QualitySessionRun run = runQualitySession(spec, 120000);
    if (qEnvironmentVariableIsSet("LBM_QUALITY_DUMP")) {
        qInfo().noquote() << "MATRIX" << label << '\n'
                          << run.describeChunks() << '\n'
                          << run.describeFlags();
    }
    INFO(label.toStdString());
    INFO(run.session_error.toStdString());
    REQUIRE(run.session_succeeded);
    REQUIRE(run.chunks.size() == static_cast<size_t>(spec.num_chunks));
    CHECK(run.warnings.isEmpty());
    return run;
}

// The fault is flagged at its chunk (blur and tint: within one chunk after), nothing is
// flagged before it, and later flags are the fault's own kind (it keeps growing, or the
// picture catches up) or the transition whose look a colour cast moved.
void checkFaultSession(Camera camera, const Shape& shape, const QString& fault,
                       lbm::sim::Realism realism = lbm::sim::Realism::Low) {
    const QualitySessionSpec spec = specFor(camera, shape, fault, realism);
    const qint64 chunk = faultChunk(shape);
    const QString label = QStringLiteral("%1@%2, %3, %4 camera, realism %5")
                              .arg(fault)
                              .arg(chunk)
                              .arg(shapeName(shape), QString::fromLatin1(cameraName(camera)),
                                   lbm::sim::realismName(realism));
    const QualitySessionRun run = runLogged(spec, label);
    INFO(label.toStdString());
    INFO(run.describeChunks().toStdString());
    INFO(run.describeFlags().toStdString());
    // The steering faults (ignore-, reverse-, late-action) are the action flag's.
    const QualityFlag flag = fault.endsWith(QStringLiteral("-action"))
                                 ? QualityFlag::Action
                                 : *qualityFlagFromName(fault);
    const std::vector<qint64> flagged = run.flagged(flag);
    REQUIRE_FALSE(flagged.empty());
    const qint64 slack = flag == QualityFlag::Blur || flag == QualityFlag::Tint ? 1 : 0;
    CHECK(flagged.front() >= chunk);
    CHECK(flagged.front() <= chunk + slack);
    CHECK(run.firstFlaggedChunk() == flagged.front());
    if (spec.second_opinion) {
        checkSecondOpinion(run, chunk, flag, camera == Camera::Hold, label);
    }
    for (const ChunkQuality& result : run.chunks) {
        QualityFlags allowed = flag;
        if (flag == QualityFlag::Tint) {
            allowed |= QualityFlag::Transition;
        }
        INFO("chunk " << result.generation_index << ": " << result.flagsText().toStdString());
        CHECK((result.flags & ~allowed) == QualityFlags());
    }
}

void checkCleanSession(Camera camera, const Shape& shape,
                       lbm::sim::Realism realism = lbm::sim::Realism::Low) {
    const QualitySessionSpec spec = specFor(camera, shape, QString(), realism);
    const QString label = QStringLiteral("clean, %1, %2 camera, realism %3")
                              .arg(shapeName(shape), QString::fromLatin1(cameraName(camera)),
                                   lbm::sim::realismName(realism));
    const QualitySessionRun run = runLogged(spec, label);
    INFO(label.toStdString());
    INFO(run.describeChunks().toStdString());
    INFO(run.describeFlags().toStdString());
    CHECK(run.firstFlaggedChunk() == -1);
    if (spec.second_opinion) {
        checkSecondOpinion(run, std::nullopt, std::nullopt, camera == Camera::Hold, label);
    }
}

const Shape kOutside{-1, false};
const Shape kHardCut{0, false};
Shape middle(int k) {
    return Shape{k, false};
}
Shape last(int k) {
    return Shape{k, true};
}

} // namespace

// Faults outside transitions and after a hard cut, under every camera (a freeze under a
// still camera over a still scene is no freeze: there it runs under steering instead).
TEST_CASE("matrix: seam outside transitions and after a hard cut", "[quality][matrix]") {
    checkFaultSession(Camera::Orbit, kOutside, QStringLiteral("seam"));
    checkFaultSession(Camera::Hold, kHardCut, QStringLiteral("seam"));
}
TEST_CASE("matrix: freeze outside transitions and after a hard cut", "[quality][matrix]") {
    checkFaultSession(Camera::Forward, kOutside, QStringLiteral("freeze"));
    checkFaultSession(Camera::Steered, kHardCut, QStringLiteral("freeze"));
}
TEST_CASE("matrix: blur outside transitions and after a hard cut", "[quality][matrix]") {
    checkFaultSession(Camera::Steered, kOutside, QStringLiteral("blur"));
    checkFaultSession(Camera::Forward, kHardCut, QStringLiteral("blur"));
}
TEST_CASE("matrix: tint outside transitions and after a hard cut", "[quality][matrix]") {
    checkFaultSession(Camera::Hold, kOutside, QStringLiteral("tint"));
    checkFaultSession(Camera::Orbit, kHardCut, QStringLiteral("tint"));
}

// Inside K = 1..4 transitions: the middle and the last chunk (K = 1 and 2: one place each).
TEST_CASE("matrix: seam inside K=1 and K=2 transitions", "[quality][matrix]") {
    checkFaultSession(Camera::Forward, middle(1), QStringLiteral("seam"));
    checkFaultSession(Camera::Steered, middle(2), QStringLiteral("seam"));
}
TEST_CASE("matrix: seam inside K=3 transitions", "[quality][matrix]") {
    checkFaultSession(Camera::Orbit, middle(3), QStringLiteral("seam"), lbm::sim::Realism::None);
    checkFaultSession(Camera::Hold, last(3), QStringLiteral("seam"));
}
TEST_CASE("matrix: seam inside K=4 transitions", "[quality][matrix]") {
    checkFaultSession(Camera::Steered, middle(4), QStringLiteral("seam"));
    checkFaultSession(Camera::Forward, last(4), QStringLiteral("seam"));
}
TEST_CASE("matrix: freeze inside K=1 and K=2 transitions", "[quality][matrix]") {
    checkFaultSession(Camera::Orbit, middle(1), QStringLiteral("freeze"));
    checkFaultSession(Camera::Forward, middle(2), QStringLiteral("freeze"));
}
TEST_CASE("matrix: freeze inside K=3 transitions", "[quality][matrix]") {
    checkFaultSession(Camera::Steered, middle(3), QStringLiteral("freeze"),
                      lbm::sim::Realism::High);
    checkFaultSession(Camera::Orbit, last(3), QStringLiteral("freeze"));
}
TEST_CASE("matrix: freeze inside K=4 transitions", "[quality][matrix]") {
    checkFaultSession(Camera::Forward, middle(4), QStringLiteral("freeze"));
    checkFaultSession(Camera::Steered, last(4), QStringLiteral("freeze"));
}
TEST_CASE("matrix: blur inside K=1 and K=2 transitions", "[quality][matrix]") {
    checkFaultSession(Camera::Hold, middle(1), QStringLiteral("blur"));
    checkFaultSession(Camera::Orbit, middle(2), QStringLiteral("blur"));
}
TEST_CASE("matrix: blur inside K=3 transitions", "[quality][matrix]") {
    checkFaultSession(Camera::Forward, middle(3), QStringLiteral("blur"), lbm::sim::Realism::None);
    checkFaultSession(Camera::Steered, last(3), QStringLiteral("blur"));
}
TEST_CASE("matrix: blur inside K=4 transitions", "[quality][matrix]") {
    checkFaultSession(Camera::Orbit, middle(4), QStringLiteral("blur"));
    checkFaultSession(Camera::Hold, last(4), QStringLiteral("blur"));
}
TEST_CASE("matrix: tint inside K=1 and K=2 transitions", "[quality][matrix]") {
    checkFaultSession(Camera::Steered, middle(1), QStringLiteral("tint"));
    checkFaultSession(Camera::Hold, middle(2), QStringLiteral("tint"));
}
TEST_CASE("matrix: tint inside K=3 transitions", "[quality][matrix]") {
    checkFaultSession(Camera::Orbit, middle(3), QStringLiteral("tint"));
    checkFaultSession(Camera::Forward, last(3), QStringLiteral("tint"), lbm::sim::Realism::High);
}
TEST_CASE("matrix: tint inside K=4 transitions", "[quality][matrix]") {
    checkFaultSession(Camera::Hold, middle(4), QStringLiteral("tint"));
    checkFaultSession(Camera::Orbit, last(4), QStringLiteral("tint"));
}

// Clean sessions of the same shapes: no flag at all.
TEST_CASE("matrix: clean sessions under the orbit and forward cameras", "[quality][matrix]") {
    checkCleanSession(Camera::Orbit, middle(3), lbm::sim::Realism::High);
    checkCleanSession(Camera::Forward, last(4));
}
TEST_CASE("matrix: clean sessions under a still and a steered camera", "[quality][matrix]") {
    checkCleanSession(Camera::Hold, middle(1), lbm::sim::Realism::None);
    checkCleanSession(Camera::Steered, middle(2));
}
TEST_CASE("matrix: clean hard cuts and sessions without a transition", "[quality][matrix]") {
    checkCleanSession(Camera::Forward, kHardCut);
    checkCleanSession(Camera::Steered, kOutside);
}
TEST_CASE("matrix: clean K=4 under a still camera and K=1 steered", "[quality][matrix]") {
    checkCleanSession(Camera::Hold, last(4));
    checkCleanSession(Camera::Steered, last(1));
}

// The steering faults: the chunk holds still, moves the opposite way, or goes on with the
// chunk before's command (under the orbit script the command changes every chunk, so a late
// one shows at once), under live steering and under the script.
TEST_CASE("matrix: steering faults under live steering", "[quality][matrix][action]") {
    checkFaultSession(Camera::Steered, kOutside, QStringLiteral("ignore-action"));
    checkFaultSession(Camera::Steered, middle(3), QStringLiteral("reverse-action"));
}
TEST_CASE("matrix: steering faults under the orbit script", "[quality][matrix][action]") {
    checkFaultSession(Camera::Orbit, kOutside, QStringLiteral("late-action"));
    checkFaultSession(Camera::Orbit, last(2), QStringLiteral("reverse-action"));
    checkFaultSession(Camera::Forward, kHardCut, QStringLiteral("ignore-action"));
}

// The case: a hard cut after a K = 1 and before a K = 4 prompt, each expected where
// its K says (the cut at its own chunk), on a clean session.
TEST_CASE("matrix: a hard cut between a K=1 and a K=4 transition is on time", "[quality][matrix]") {
    QualitySessionSpec spec;
    spec.camera_pattern = "orbit";
    spec.num_chunks = 14;
    spec.prompt_updates = {promptUpdate(1, "A misty lake at dawn.", 1),
                           promptUpdate(3, "A hard cut to a desert at noon.", 0),
                           promptUpdate(5, "A quiet harbour at night.", 4)};
    const QualitySessionRun run = runLogged(spec, QStringLiteral("clean, K=1 then K=0 then K=4"));
    INFO(run.describeChunks().toStdString());
    INFO(run.describeFlags().toStdString());
    CHECK(run.firstFlaggedChunk() == -1);
    int judged = 0;
    for (const ChunkQuality& chunk : run.chunks) {
        for (const TransitionCheck& check : chunk.transitions) {
            ++judged;
            CHECK(check.verdict == TransitionVerdict::OnTime);
        }
    }
    CHECK(judged == 3);
}
