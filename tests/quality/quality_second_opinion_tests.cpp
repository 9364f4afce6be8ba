// The second opinion: libavfilter's own measures (signalstats' YDIF, UAVG, VAVG and
// blurdetect, through FilterGraphProbe) on matrix sessions, judged by rules in the spirit of
// scdet, freezedetect, blurdetect and a colour-drift check, where those measures apply:
// outside prompt transitions (a transition changes the colour and may change the detail on
// purpose, which only our course-aware analysis knows), and the colour rule only under a
// still camera (a pan brings content of other colours into view: signalstats' mean moved
// 3.3 levels over a clean steered chunk, where our motion-compensated drift stays under 1.9). Each
// fault must be found by libavfilter at the chunk our analysis flags it, and neither may find
// anything in the clean chunks before it or in a clean session.
//
// LBM_QUALITY_DUMP=1 prints one "SECOND" line per chunk.

#include "tests/quality/quality_session.h"

#include <QDebug>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace lbm::quality;
using namespace lbm::quality::test;

namespace {

// Rules on libavfilter's measures, with the thresholds of our analysis where one applies.
constexpr double kSceneChangeRatio = 3.0; // boundary YDIF over the chunks' median (scdet)
constexpr double kSceneChangeFloor = 0.5; // levels: the smallest median divided by
constexpr double kFreezeDifference = 0.3; // levels of YDIF (freezedetect's noise)
constexpr int kFreezeFrames = 4;          // in a row (freezedetect's duration)
constexpr double kBlurGrowth = 1.3;       // blurdetect's edge width, last frames vs before
constexpr double kColourDrift = 4.0;      // (UAVG, VAVG) levels, last frames vs before
constexpr size_t kTailFrames = 4;         // one latent frame

double median(std::vector<double> values) {
    if (values.empty()) {
        return 0.0;
    }
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

double tailMean(const std::vector<FilterGraphProbe::Measures>& frames,
                double FilterGraphProbe::Measures::*field) {
    const size_t from = frames.size() > kTailFrames ? frames.size() - kTailFrames : 0;
    double sum = 0.0;
    for (size_t i = from; i < frames.size(); ++i) {
        sum += frames[i].*field;
    }
    return frames.size() > from ? sum / static_cast<double>(frames.size() - from) : 0.0;
}

double differenceMedian(const std::vector<FilterGraphProbe::Measures>& frames) {
    std::vector<double> values;
    for (size_t i = 1; i < frames.size(); ++i) {
        values.push_back(frames[i].y_difference.value_or(0.0));
    }
    return median(values);
}

// The flags libavfilter's measures raise on chunk c against chunk c - 1.
QualityFlags libavfilterFlags(const QualitySessionRun& run, qint64 c, bool still_camera,
                              QString* line) {
    const auto& here = run.probe_frames.at(c);
    const auto& before = run.probe_frames.at(c - 1);
    QualityFlags flags;
    const double motion =
        std::max({kSceneChangeFloor, differenceMedian(here), differenceMedian(before)});
    const double boundary = here.front().y_difference.value_or(0.0);
    if (boundary >= kSceneChangeRatio * motion) {
        flags |= QualityFlag::Seam;
    }
    int run_length = 0;
    int longest = 0;
    for (size_t i = 1; i < here.size(); ++i) {
        run_length = here[i].y_difference.value_or(99.0) < kFreezeDifference ? run_length + 1 : 0;
        longest = std::max(longest, run_length);
    }
    if (longest >= kFreezeFrames) {
        flags |= QualityFlag::Freeze;
    }
    const double blur_growth = tailMean(here, &FilterGraphProbe::Measures::blur) /
                               tailMean(before, &FilterGraphProbe::Measures::blur);
    if (blur_growth >= kBlurGrowth) {
        flags |= QualityFlag::Blur;
    }
    const double drift = std::hypot(tailMean(here, &FilterGraphProbe::Measures::u_average) -
                                        tailMean(before, &FilterGraphProbe::Measures::u_average),
                                    tailMean(here, &FilterGraphProbe::Measures::v_average) -
                                        tailMean(before, &FilterGraphProbe::Measures::v_average));
    if (still_camera && drift >= kColourDrift) {
        flags |= QualityFlag::Tint;
    }
    *line = QStringLiteral("chunk %1: scene %2 (boundary %3 vs %4) frozen %5 blur x%6 drift %7")
                .arg(c)
                .arg(boundary / motion, 0, 'f', 2)
                .arg(boundary, 0, 'f', 2)
                .arg(motion, 0, 'f', 2)
                .arg(longest)
                .arg(blur_growth, 0, 'f', 2)
                .arg(drift, 0, 'f', 2);
    return flags;
}

// A session of 7 chunks with one fault (or none) at chunk 4, no prompt: libavfilter's rules
// find the fault's kind first at chunk 4, as our analysis does, and nothing before it.
void checkSecondOpinion(const std::string& camera, bool steered, const QString& fault) {
    QualitySessionSpec spec;
    spec.camera_pattern = camera;
    spec.steered = steered;
    if (steered) {
        spec.key_presses = {{0, QStringLiteral("l")}};
    }
    spec.num_chunks = 7;
    constexpr qint64 kFaultChunk = 4;
    if (!fault.isEmpty()) {
        spec.faults = {QStringLiteral("%1@%2").arg(fault).arg(kFaultChunk)};
    }
    spec.second_opinion = true;
    const QualitySessionRun run = runQualitySession(spec, 120000);
    const QString label =
        QStringLiteral("%1, %2 camera")
            .arg(fault.isEmpty() ? QStringLiteral("clean") : fault,
                 steered ? QStringLiteral("steered") : QString::fromStdString(camera));
    INFO(label.toStdString());
    INFO(run.session_error.toStdString());
    REQUIRE(run.session_succeeded);
    REQUIRE(run.chunks.size() == static_cast<size_t>(spec.num_chunks));
    REQUIRE(run.probe_frames.size() == static_cast<size_t>(spec.num_chunks));
    INFO(run.describeFlags().toStdString());
    const qint64 last = fault.isEmpty() ? spec.num_chunks - 1 : kFaultChunk;
    // Chunk 1 is judged against chunk 0, which the server blends from the client's image.
    for (qint64 c = 2; c <= last; ++c) {
        QString line;
        const QualityFlags theirs = libavfilterFlags(run, c, camera == "hold" && !steered, &line);
        if (qEnvironmentVariableIsSet("LBM_QUALITY_DUMP")) {
            qInfo().noquote() << "SECOND" << label << line;
        }
        INFO(line.toStdString());
        const QualityFlags ours = run.chunks[static_cast<size_t>(c)].flags;
        if (c < kFaultChunk || fault.isEmpty()) {
            CHECK(theirs == QualityFlags());
            CHECK(ours == QualityFlags());
        } else {
            const QualityFlag flag = *qualityFlagFromName(fault);
            CHECK(theirs.testFlag(flag));
            CHECK(ours.testFlag(flag));
        }
    }
}

} // namespace

TEST_CASE("second opinion: libavfilter finds the seam and the freeze where we do",
          "[quality][matrix][second-opinion]") {
    checkSecondOpinion("orbit", false, QStringLiteral("seam"));
    checkSecondOpinion("forward", false, QStringLiteral("freeze"));
}
TEST_CASE("second opinion: libavfilter finds the blur and the tint where we do",
          "[quality][matrix][second-opinion]") {
    checkSecondOpinion("hold", true, QStringLiteral("blur"));
    checkSecondOpinion("hold", false, QStringLiteral("tint"));
}
TEST_CASE("second opinion: libavfilter finds nothing in clean sessions",
          "[quality][matrix][second-opinion]") {
    checkSecondOpinion("orbit", false, QString());
    checkSecondOpinion("hold", true, QString());
}
