// Every signal and rule on synthetic frames whose content is known: the measures, the
// flags, what the timeline context excuses, transition landing, and when a result is final.

#include "app/quality/frame_measurer.h"
#include "app/quality/quality_analyzer.h"
#include "tests/quality/filter_graph_probe.h"
#include "tests/quality/synthetic_frames.h"

#include <catch2/catch.hpp>

#include <algorithm>

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/log.h>
}

#include <map>

using namespace lbm::quality;
using namespace lbm::quality::test;

namespace {

constexpr int kPanPerFrame = 1;

std::vector<ChunkQuality> analyse(const std::vector<SyntheticChunk>& stream,
                                  const QualitySettings& settings = {}) {
    QualityAnalyzer analyzer(settings);
    qint64 frame = 0;
    for (const SyntheticChunk& chunk : stream) {
        analyzer.setChunkContext(chunk.context);
        for (size_t i = 0; i < chunk.pictures.size(); ++i) {
            analyzer.addFrame(syntheticFrame(chunk.pictures[i], frame++,
                                             chunk.context.generation_index, static_cast<int>(i)));
        }
    }
    analyzer.finish();
    CHECK(analyzer.takeWarnings().isEmpty());
    // The final results as emitted, with their per-frame signals, in generation order.
    std::vector<ChunkQuality> chunks = analyzer.takeFinalChunks();
    std::stable_sort(chunks.begin(), chunks.end(), [](const auto& a, const auto& b) {
        return a.generation_index < b.generation_index;
    });
    return chunks;
}

std::map<qint64, QStringList> flagsByChunk(const std::vector<ChunkQuality>& chunks) {
    std::map<qint64, QStringList> flags;
    for (const ChunkQuality& chunk : chunks) {
        if (chunk.flags) {
            flags[chunk.generation_index] = qualityFlagNames(chunk.flags);
        }
    }
    return flags;
}

std::string describe(const std::vector<ChunkQuality>& chunks) {
    QStringList lines;
    for (const ChunkQuality& chunk : chunks) {
        lines.append(QStringLiteral("chunk %1 seam %2 frozen %3 sharp x%4 drift %5 [%6] %7")
                         .arg(chunk.generation_index)
                         .arg(chunk.seam_score.value_or(-1), 0, 'f', 2)
                         .arg(chunk.frozen_frames)
                         .arg(chunk.sharpness_ratio, 0, 'f', 2)
                         .arg(chunk.chroma_drift, 0, 'f', 2)
                         .arg(chunk.flagsText(), chunk.notes.join(QLatin1Char(' '))));
        QStringList changes;
        for (const FrameQuality& frame : chunk.frames) {
            changes.append(QString::number(frame.change.value_or(-1), 'f', 2));
        }
        lines.append(QStringLiteral("  changes ") + changes.join(QLatin1Char(' ')));
    }
    return lines.join(QLatin1Char('\n')).toStdString();
}

SyntheticPicture panning(qint64, int, qint64 frame) {
    return SyntheticPicture{static_cast<int>(frame) * kPanPerFrame};
}

PromptInChunk prompt(const QString& id, int k, bool started, bool active, bool completed) {
    return PromptInChunk{id, k, started, active, completed};
}

} // namespace

TEST_CASE("frame measures: change, sharpness and mean levels", "[quality][signals]") {
    FrameMeasurer measurer(0.10, 2);
    QString error;
    const auto first = measurer.measure(*syntheticFrame({0}, 0, 0, 0).avFrame(), &error);
    REQUIRE(first);
    CHECK_FALSE(first->change);
    const auto same = measurer.measure(*syntheticFrame({0}, 1, 0, 1).avFrame(), &error);
    REQUIRE(same);
    REQUIRE(same->change);
    CHECK(*same->change == 0.0);
    const auto moved = measurer.measure(*syntheticFrame({4}, 2, 0, 2).avFrame(), &error);
    REQUIRE(moved);
    CHECK(*moved->change > 5.0);
    CHECK(moved->sharpness == Approx(same->sharpness).epsilon(0.1));

    SECTION("chroma and luma means are the planes' levels") {
        const auto tinted =
            measurer.measure(*syntheticFrame({4, 0, 90, 170}, 3, 0, 3).avFrame(), &error);
        REQUIRE(tinted);
        CHECK(tinted->mean_u == Approx(90.0));
        CHECK(tinted->mean_v == Approx(170.0));
        const auto brighter =
            measurer.measure(*syntheticFrame({4, 0, 90, 170, 10}, 4, 0, 4).avFrame(), &error);
        REQUIRE(brighter);
        CHECK(brighter->mean_y - tinted->mean_y == Approx(10.0).margin(0.5));
        CHECK(*brighter->change == Approx(10.0).margin(0.5));
    }
    SECTION("a blurred picture has less fine detail") {
        const auto blurred = measurer.measure(*syntheticFrame({4, 2}, 3, 0, 3).avFrame(), &error);
        REQUIRE(blurred);
        CHECK(blurred->sharpness < 0.5 * moved->sharpness);
    }
    SECTION("frames the analysis cannot read are refused with the reason") {
        CHECK_FALSE(measurer.measure(*rgbFrame(3, 0).avFrame(), &error));
        CHECK(error.contains(QStringLiteral("8-bit planar YUV")));
        CHECK(error.contains(QStringLiteral("rgb24")));
    }
}

TEST_CASE("the top and bottom margins are not measured", "[quality][signals]") {
    // A caption or barcode band that changes every frame must not read as motion.
    FrameMeasurer measurer(0.10, 1);
    QString error;
    REQUIRE(measurer.measure(*syntheticFrame({0}, 0, 0, 0).avFrame(), &error));
    SyntheticPicture banded;
    banded.margin_band_level = 255;
    const auto measured = measurer.measure(*syntheticFrame(banded, 1, 0, 1).avFrame(), &error);
    REQUIRE(measured);
    CHECK(*measured->change == 0.0);
}

TEST_CASE("the measures agree with libavfilter's signalstats and blurdetect",
          "[quality][signals][libavfilter]") {
    av_log_set_level(AV_LOG_ERROR); // blurdetect logs its mean at the info level
    FrameMeasurer sampled(0.10, 2);
    FrameMeasurer full(0.10, 1);
    FilterGraphProbe probe(0.10);
    QString error;
    double sharp_laplacian = 0;
    double sharp_blur = 0;
    for (int i = 0; i < 4; ++i) {
        const SyntheticPicture picture{i * 3, i == 3 ? 2 : 0, 100 + i, 150 - i, i};
        const lbm::media::DecodedFrame frame = syntheticFrame(picture, i, 0, i);
        const auto reference = probe.measure(*frame.avFrame(), &error);
        INFO(error.toStdString());
        REQUIRE(reference);
        const auto ours = full.measure(*frame.avFrame(), &error);
        const auto cheap = sampled.measure(*frame.avFrame(), &error);
        REQUIRE(ours);
        REQUIRE(cheap);
        CHECK(ours->mean_y == Approx(reference->y_average).margin(0.05));
        CHECK(ours->mean_u == Approx(reference->u_average).margin(0.05));
        CHECK(ours->mean_v == Approx(reference->v_average).margin(0.05));
        CHECK(cheap->mean_y == Approx(reference->y_average).margin(2.0));
        CHECK(static_cast<bool>(ours->change) == static_cast<bool>(reference->y_difference));
        if (ours->change) {
            CHECK(*ours->change == Approx(*reference->y_difference).epsilon(0.01));
            CHECK(*cheap->change == Approx(*reference->y_difference).epsilon(0.15));
        }
        if (i == 2) {
            sharp_laplacian = ours->sharpness;
            sharp_blur = reference->blur;
        } else if (i == 3) {
            // Both see the blur: less Laplacian energy, wider edges.
            CHECK(ours->sharpness < 0.5 * sharp_laplacian);
            CHECK(reference->blur > 1.2 * sharp_blur);
        }
    }
}

TEST_CASE("a clean panning stream raises no flag and scores about 1 at every boundary",
          "[quality][analyzer]") {
    const auto chunks = analyse(syntheticStream(6, panning, true));
    INFO(describe(chunks));
    REQUIRE(chunks.size() == 6);
    CHECK(flagsByChunk(chunks).empty());
    for (const ChunkQuality& chunk : chunks) {
        CHECK(chunk.is_final);
        if (chunk.generation_index > 0) {
            REQUIRE(chunk.seam_score);
            CHECK(*chunk.seam_score == Approx(1.0).margin(0.3));
        }
    }
}

TEST_CASE("a chunk that starts from another view is a seam, unless a camera jump expects it",
          "[quality][analyzer]") {
    const auto jumping = [](qint64 chunk, int, qint64 frame) {
        return SyntheticPicture{static_cast<int>(frame) * kPanPerFrame + (chunk >= 3 ? 300 : 0)};
    };
    auto stream = syntheticStream(6, jumping, true);
    SECTION("no context: flagged at the chunk") {
        const auto chunks = analyse(stream);
        INFO(describe(chunks));
        CHECK(flagsByChunk(chunks) == std::map<qint64, QStringList>{{3, {QStringLiteral("seam")}}});
        CHECK(*chunks[3].seam_score > 5.0);
    }
    SECTION("inside a prompt transition: still a seam (a new view is no share of a new look)") {
        stream[3].context.prompts = {prompt(QStringLiteral("p"), 1, true, true, true)};
        const auto chunks = analyse(stream);
        INFO(describe(chunks));
        // (The prompt never changed the look either: that is the transition flag's.)
        CHECK(chunks[3].flagged(QualityFlag::Seam));
        CHECK(chunks[3].notes.join(QLatin1Char(' ')).contains(QStringLiteral("inside a prompt")));
    }
    SECTION("at a camera jump: expected") {
        stream[3].context.camera_jump = true;
        const auto chunks = analyse(stream);
        CHECK(flagsByChunk(chunks).empty());
    }
}

TEST_CASE("a uniform step of brightness is a transition's share inside one, a seam outside",
          "[quality][analyzer]") {
    const auto brightening = [](qint64 chunk, int, qint64 frame) {
        SyntheticPicture picture{static_cast<int>(frame) * kPanPerFrame};
        picture.luma_offset = chunk >= 3 ? 30 : 0;
        return picture;
    };
    auto stream = syntheticStream(6, brightening, true);
    SECTION("outside a transition") {
        const auto chunks = analyse(stream);
        INFO(describe(chunks));
        CHECK(flagsByChunk(chunks) == std::map<qint64, QStringList>{{3, {QStringLiteral("seam")}}});
    }
    SECTION("inside one") {
        stream[3].context.prompts = {prompt(QStringLiteral("p"), 1, true, true, true)};
        const auto chunks = analyse(stream);
        INFO(describe(chunks));
        CHECK(flagsByChunk(chunks).count(3) == 0);
        REQUIRE(chunks[3].seam_score);
        CHECK(*chunks[3].seam_score < 1.5);
    }
}

TEST_CASE("repeated frames are a freeze when the camera or the picture moves",
          "[quality][analyzer]") {
    // Chunk 2 holds its first picture; chunk 3 resumes where the pan is by then.
    const auto freezing = [](qint64 chunk, int index, qint64 frame) {
        return SyntheticPicture{static_cast<int>(frame - (chunk == 2 ? index : 0)) * kPanPerFrame};
    };
    SECTION("camera moving") {
        const auto chunks = analyse(syntheticStream(5, freezing, true));
        INFO(describe(chunks));
        CHECK(flagsByChunk(chunks) ==
              std::map<qint64, QStringList>{{2, {QStringLiteral("freeze")}}});
        CHECK(chunks[2].frozen_frames == 11);
        // The jump out of the freeze is the freeze catching up, not a second defect: the pan
        // it makes is camera motion the seam score takes out, and a score over the threshold
        // says so.
        REQUIRE(chunks[3].seam_score);
        CHECK((*chunks[3].seam_score < 3.0 ||
               chunks[3].notes.join(QLatin1Char(' ')).contains(QStringLiteral("catching up"))));
    }
    SECTION("camera still, but the picture was moving") {
        const auto chunks = analyse(syntheticStream(5, freezing, false));
        CHECK(flagsByChunk(chunks).count(2) == 1);
    }
    SECTION("a view blurred to no structure shows no motion: not judged as a freeze") {
        // The picture moved until chunk 2, which holds one picture blurred past any structure
        // (a growing blur, a blank wall filling the view): repeated frames there say nothing.
        const auto mush = [](qint64 chunk, int index, qint64 frame) {
            SyntheticPicture picture{static_cast<int>(frame - (chunk == 2 ? index : 0)) *
                                     kPanPerFrame};
            picture.blur_radius = chunk == 2 ? 40 : 0;
            return picture;
        };
        const auto chunks = analyse(syntheticStream(4, mush, false));
        INFO(describe(chunks));
        CHECK(chunks[2].frozen_frames == 11);
        CHECK_FALSE(chunks[2].flagged(QualityFlag::Freeze));
        CHECK(chunks[2]
                  .notes.join(QLatin1Char(' '))
                  .contains(QStringLiteral("not judged as a freeze")));
    }
    SECTION("camera still over a still picture: not a freeze") {
        const auto still = [](qint64, int, qint64) { return SyntheticPicture{}; };
        const auto chunks = analyse(syntheticStream(4, still, false));
        INFO(describe(chunks));
        CHECK(flagsByChunk(chunks).empty());
        CHECK(chunks[2].frozen_frames == 12);
    }
}

TEST_CASE("blur and tint are measured against the chunk before", "[quality][analyzer]") {
    SECTION("blur from chunk 3") {
        const auto blurring = [](qint64 chunk, int, qint64 frame) {
            return SyntheticPicture{static_cast<int>(frame) * kPanPerFrame, chunk >= 3 ? 1 : 0};
        };
        const auto chunks = analyse(syntheticStream(5, blurring, true));
        INFO(describe(chunks));
        // Chunk 4 is as blurred as chunk 3: nothing more was lost there.
        CHECK(flagsByChunk(chunks) == std::map<qint64, QStringList>{{3, {QStringLiteral("blur")}}});
        CHECK(chunks[3].sharpness_ratio < 0.7);
        CHECK(chunks[3].reference_chunk == 2);
        CHECK(chunks[4].sharpness_ratio == Approx(1.0).margin(0.05));
    }
    SECTION("a colour cast from chunk 3") {
        const auto tinting = [](qint64 chunk, int, qint64 frame) {
            const int cast = chunk >= 3 ? 5 : 0;
            return SyntheticPicture{static_cast<int>(frame) * kPanPerFrame, 0, 128 - cast,
                                    128 + cast};
        };
        const auto chunks = analyse(syntheticStream(5, tinting, true));
        INFO(describe(chunks));
        CHECK(flagsByChunk(chunks).begin()->first == 3);
        CHECK(chunks[3].chroma_drift == Approx(5.0 * std::sqrt(2.0)).margin(0.01));
        CHECK(chunks[3].flagged(QualityFlag::Tint));
    }
    SECTION("a new prompt is allowed a new look") {
        const auto regraded = [](qint64 chunk, int, qint64 frame) {
            const int grade = chunk >= 2 ? 20 : 0;
            return SyntheticPicture{static_cast<int>(frame) * kPanPerFrame, 0, 128 - grade,
                                    128 + grade};
        };
        auto stream = syntheticStream(5, regraded, true);
        stream[2].context.prompts = {prompt(QStringLiteral("p"), 1, true, true, true)};
        const auto chunks = analyse(stream);
        INFO(describe(chunks));
        CHECK(flagsByChunk(chunks).empty());
        CHECK(chunks[4].reference_chunk == 3);
        CHECK(chunks[4].chroma_drift == Approx(0.0).margin(0.01));
    }
}

TEST_CASE("a prompt transition must land in its K-th chunk", "[quality][analyzer]") {
    // The look moves by 30 levels of U over the chunks given, from chunk 2.
    struct Case {
        const char* name;
        int k;
        std::vector<double> progress; // per chunk from 2 on; 1 afterwards
        TransitionVerdict verdict;
        std::optional<qint64> landed;
    };
    const Case test_case = GENERATE(values<Case>({
        {"even blend over K=3", 3, {1.0 / 3, 2.0 / 3, 1.0}, TransitionVerdict::OnTime, 4},
        {"K=3 but a hard switch", 3, {1.0, 1.0, 1.0}, TransitionVerdict::Early, 2},
        {"K=1 but two chunks", 1, {0.5, 1.0}, TransitionVerdict::Late, 3},
        {"K=0, a hard switch", 0, {1.0}, TransitionVerdict::OnTime, 2},
        {"K=2 and nothing changes", 2, {0.0, 0.0, 0.0, 0.0}, TransitionVerdict::Never, {}},
    }));
    INFO(test_case.name);
    std::vector<SyntheticChunk> stream = syntheticStream(8, panning, true);
    const bool changes = test_case.verdict != TransitionVerdict::Never;
    for (SyntheticChunk& chunk : stream) {
        const qint64 i = chunk.context.generation_index;
        double progress = i < 2 ? 0.0 : changes ? 1.0 : 0.0;
        if (i >= 2 && static_cast<size_t>(i - 2) < test_case.progress.size()) {
            progress = test_case.progress[static_cast<size_t>(i - 2)];
        }
        for (SyntheticPicture& picture : chunk.pictures) {
            picture.u = 128 - static_cast<int>(std::lround(30 * progress));
        }
    }
    const qint64 last = 2 + std::max(1, test_case.k) - 1;
    for (qint64 i = 2; i <= last; ++i) {
        stream[static_cast<size_t>(i)].context.prompts = {
            prompt(QStringLiteral("p"), test_case.k, i == 2, true, i == last)};
    }
    const auto chunks = analyse(stream);
    INFO(describe(chunks));
    REQUIRE(chunks[static_cast<size_t>(last)].transitions.size() == 1);
    const TransitionCheck& check = chunks[static_cast<size_t>(last)].transitions.front();
    CHECK(check.event_id == QStringLiteral("p"));
    CHECK(check.start_chunk == 2);
    CHECK(check.expected_chunk == last);
    CHECK(check.verdict == test_case.verdict);
    CHECK(check.landed_chunk == test_case.landed);
    const auto flags = flagsByChunk(chunks);
    if (test_case.verdict == TransitionVerdict::OnTime) {
        CHECK(flags.empty());
    } else {
        CHECK(flags.at(last).contains(QStringLiteral("transition")));
    }
}

TEST_CASE("results are final when nothing later can change them, and reported once",
          "[quality][analyzer]") {
    QualityAnalyzer analyzer;
    auto stream = syntheticStream(6, panning, true);
    // A K=2 transition over chunks 2-3: chunk 3 waits for chunk 4 to be judged.
    stream[2].context.prompts = {prompt(QStringLiteral("p"), 2, true, true, false)};
    stream[3].context.prompts = {prompt(QStringLiteral("p"), 2, false, true, true)};
    std::vector<qint64> reported;
    qint64 frame = 0;
    const auto feedChunk = [&](const SyntheticChunk& chunk) {
        analyzer.setChunkContext(chunk.context);
        for (size_t i = 0; i < chunk.pictures.size(); ++i) {
            analyzer.addFrame(syntheticFrame(chunk.pictures[i], frame++,
                                             chunk.context.generation_index, static_cast<int>(i)));
        }
        for (const ChunkQuality& done : analyzer.takeFinalChunks()) {
            reported.push_back(done.generation_index);
            // Reported with its per-frame signals, even the chunk held back.
            CHECK(done.frames.size() == static_cast<size_t>(done.frame_count));
        }
    };
    feedChunk(stream[0]);
    CHECK(reported.empty()); // chunk 0 is complete only when chunk 1 starts
    feedChunk(stream[1]);
    CHECK(reported == std::vector<qint64>{0});
    feedChunk(stream[2]);
    feedChunk(stream[3]);
    feedChunk(stream[4]);
    // Chunk 3 was evaluated when chunk 4 began, but is held for its transition.
    CHECK(reported == std::vector<qint64>{0, 1, 2});
    REQUIRE(analyzer.chunks().size() == 4);
    CHECK_FALSE(analyzer.chunks()[3].is_final);
    feedChunk(stream[5]);
    CHECK(reported == std::vector<qint64>{0, 1, 2, 3, 4});
    analyzer.finish();
    for (const ChunkQuality& done : analyzer.takeFinalChunks()) {
        reported.push_back(done.generation_index);
    }
    CHECK(reported == std::vector<qint64>{0, 1, 2, 3, 4, 5});
    // Kept afterwards: per-frame signals for the newest chunk only, so a long session does
    // not hold a list per chunk.
    const std::vector<ChunkQuality>& kept = analyzer.chunks();
    REQUIRE(kept.size() == 6);
    for (size_t i = 0; i + 1 < kept.size(); ++i) {
        CHECK(kept[i].frames.capacity() == 0); // freed, not just emptied
    }
    CHECK(kept.back().frames.size() == static_cast<size_t>(kept.back().frame_count));
}

TEST_CASE("chunks wait for their context, in order, and finish() settles everything",
          "[quality][analyzer]") {
    QualityAnalyzer analyzer;
    const auto stream = syntheticStream(3, panning, true);
    qint64 frame = 0;
    for (const SyntheticChunk& chunk : stream) {
        for (size_t i = 0; i < chunk.pictures.size(); ++i) {
            analyzer.addFrame(syntheticFrame(chunk.pictures[i], frame++,
                                             chunk.context.generation_index, static_cast<int>(i)));
        }
    }
    CHECK(analyzer.chunks().empty());
    analyzer.setChunkContext(stream[1].context); // chunk 0 still has none: nothing yet
    CHECK(analyzer.chunks().empty());
    analyzer.setChunkContext(stream[0].context);
    CHECK(analyzer.chunks().size() == 2);
    analyzer.finish();
    CHECK(analyzer.takeFinalChunks().size() == 3);
    analyzer.setChunkContext(stream[2].context);
    CHECK(analyzer.takeWarnings().join(QLatin1Char(' ')).contains(QStringLiteral("chunk 2")));
}

TEST_CASE("missing frames are not judged as a seam", "[quality][analyzer]") {
    QualityAnalyzer analyzer;
    const auto stream = syntheticStream(3, panning, true);
    qint64 frame = 0;
    for (const SyntheticChunk& chunk : stream) {
        analyzer.setChunkContext(chunk.context);
        for (size_t i = 0; i < chunk.pictures.size(); ++i, ++frame) {
            // The last four frames of chunk 0 never arrive: chunk 1 starts after a gap.
            if (chunk.context.generation_index == 0 && i >= 5) {
                continue;
            }
            analyzer.addFrame(syntheticFrame(chunk.pictures[i], frame,
                                             chunk.context.generation_index, static_cast<int>(i)));
        }
    }
    analyzer.finish();
    REQUIRE(analyzer.chunks().size() == 3);
    CHECK_FALSE(analyzer.chunks()[1].boundary_change);
    CHECK_FALSE(analyzer.chunks()[1].seam_score);
    CHECK(analyzer.chunks()[2].seam_score);
}
