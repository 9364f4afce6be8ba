// The second opinion: libavfilter's own measures (signalstats' YDIF, UAVG, VAVG and
// blurdetect, through FilterGraphProbe) on a matrix session, judged by rules in the spirit of
// scdet, freezedetect, blurdetect and a colour-drift check, where those measures apply:
// outside prompt transitions (a transition changes the colour and may change the detail on
// purpose, which only our course-aware analysis knows), and the colour rule only under a
// still camera (a pan brings content of other colours into view: signalstats' mean moved
// 3.3 levels over a clean steered chunk, where our motion-compensated drift stays under 1.9).

#include "tests/quality/second_opinion.h"

#include <QDebug>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

namespace lbm::quality::test {
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

} // namespace

void checkSecondOpinion(const QualitySessionRun& run, std::optional<qint64> fault_chunk,
                        std::optional<QualityFlag> flag, bool still_camera, const QString& label) {
    REQUIRE(run.probe_frames.size() == run.chunks.size());
    const qint64 last = fault_chunk.value_or(static_cast<qint64>(run.chunks.size()) - 1);
    // Chunk 1 is judged against chunk 0, which the server blends from the client's image.
    for (qint64 c = 2; c <= last; ++c) {
        const ChunkQuality& ours_chunk = run.chunks[static_cast<size_t>(c)];
        if (ours_chunk.in_transition) {
            continue;
        }
        QString line;
        const QualityFlags theirs = libavfilterFlags(run, c, still_camera, &line);
        if (qEnvironmentVariableIsSet("LBM_QUALITY_DUMP")) {
            qInfo().noquote() << "SECOND" << label << line;
        }
        INFO("libavfilter " << line.toStdString());
        if (fault_chunk && c == *fault_chunk && flag) {
            CHECK(theirs.testFlag(*flag));
            CHECK(ours_chunk.flagged(*flag));
        } else {
            CHECK(theirs == QualityFlags());
            CHECK(ours_chunk.flags == QualityFlags());
        }
    }
}

} // namespace lbm::quality::test
