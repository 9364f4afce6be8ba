// The benchmark's own metric rules, ported as behaviour a user of the numbers would notice:
// chunk geometry, deadlines, percentile interpolation, start buffers, warmup exclusion,
// RTF/RTFX, SLO attainment and how repeated sessions are pooled.

#include "metrics/geometry.h"
#include "metrics/latency_summary.h"
#include "metrics/playback_simulator.h"
#include "metrics/session_metrics.h"
#include "tests/metrics/seed_json.h"

#include <catch2/catch.hpp>

#include <numeric>

using namespace lbm;
using lbm::test::metricErrorOf;

namespace {

// A session whose chunk k arrives intervals_s[k] after chunk k-1 (chunk 0 after the start).
std::vector<ChunkRecord> sessionWithIntervals(const std::vector<double>& intervals_s) {
    std::vector<ChunkRecord> records;
    double arrival_s = 0.0;
    for (std::size_t i = 0; i < intervals_s.size(); ++i) {
        arrival_s += intervals_s[i];
        ChunkRecord record;
        record.index = static_cast<std::int64_t>(i);
        record.arrival_s = arrival_s;
        record.inter_arrival_s = intervals_s[i];
        record.byte_length = 100000 + static_cast<std::int64_t>(i);
        record.num_frames = pixelFramesInChunk(record.index);
        records.push_back(record);
    }
    return records;
}

MetricsOptions at16fps() {
    MetricsOptions options;
    options.fps = 16.0;
    return options;
}

} // namespace

TEST_CASE("frame counts and chunk counts invert each other like the server's formula",
          "[metrics][geometry]") {
    CHECK(numFramesForChunks(3) == 33);
    CHECK(numFramesForChunks(7) == 81);
    CHECK(numFramesForChunks(16) == 189);
    CHECK(chunksForNumFrames(33) == 3);
    CHECK(chunksForNumFrames(81) == 7);
    CHECK(chunksForNumFrames(189) == 16);
    for (std::int64_t chunks = 1; chunks <= 64; ++chunks) {
        INFO(chunks << " chunks");
        // Chunk 0 carries 9 frames, every later chunk 12.
        CHECK(numFramesForChunks(chunks) == 9 + 12 * (chunks - 1));
        CHECK(chunksForNumFrames(numFramesForChunks(chunks)) == chunks);
        std::int64_t frames = 0;
        for (std::int64_t index = 0; index < chunks; ++index) {
            frames += pixelFramesInChunk(index);
        }
        CHECK(frames == numFramesForChunks(chunks));
    }
    CHECK(pixelFramesInChunk(0) == 9);
    CHECK(pixelFramesInChunk(1) == 12);
    CHECK(pixelFramesInChunk(500) == 12);
}

TEST_CASE("the steady chunk deadline is twelve frames of playback time", "[metrics][geometry]") {
    CHECK(steadyChunkDeadlineMs(16) == Approx(750.0));
    CHECK(steadyChunkDeadlineMs(12) == Approx(1000.0));
    CHECK(computeMetrics(sessionWithIntervals({1.0, 0.7, 0.7}), at16fps()).chunk_deadline_ms ==
          Approx(750.0));
    MetricsOptions slo = at16fps();
    slo.slo_ms = 600.0;
    CHECK(computeMetrics(sessionWithIntervals({1.0, 0.7, 0.7}), slo).chunk_deadline_ms == 600.0);
}

TEST_CASE("percentiles interpolate linearly, so ten samples still give a p95",
          "[metrics][percentile]") {
    // Deliberately unsorted: 10, 20, ..., 100.
    const std::vector<double> values = {70, 10, 100, 40, 30, 90, 20, 60, 50, 80};
    CHECK(percentile(values, 0.0) == 10.0);
    CHECK(percentile(values, 1.0) == 100.0);
    CHECK(percentile(values, 0.5) == Approx(55.0));  // between the 5th and 6th samples
    CHECK(percentile(values, 0.95) == Approx(95.5)); // 45% of 90 + 55% of 100
    CHECK(percentile(values, 0.90) == Approx(91.0));
    CHECK(percentile({42.0}, 0.99) == 42.0);
    CHECK(metricErrorOf([] { percentile({}, 0.5); }) ==
          std::optional<std::string>("percentile() needs at least one value."));
    CHECK(metricErrorOf([] { percentile({1.0}, 1.5); }) ==
          std::optional<std::string>("percentile fraction must be within [0, 1]."));
}

TEST_CASE("latency summaries are in milliseconds and use the sample standard deviation",
          "[metrics][percentile]") {
    const auto summary = latencySummary({0.5, 0.75, 1.0});
    REQUIRE(summary);
    CHECK(summary->count == 3.0);
    CHECK(summary->mean_ms == Approx(750.0));
    CHECK(summary->median_ms == Approx(750.0));
    CHECK(summary->std_ms == Approx(250.0)); // n - 1 in the denominator
    CHECK(summary->min_ms == Approx(500.0));
    CHECK(summary->max_ms == Approx(1000.0));
    CHECK_FALSE(latencySummary({}));
    CHECK(sampleStddev({5.0}) == 0.0);
}

TEST_CASE("a start buffer hides a slow chunk that stalls an unbuffered viewer",
          "[metrics][playback]") {
    // 16 fps: steady chunks are 0.75 s of video and arrive on time, except chunk 3, which
    // takes twice as long: an unbuffered viewer waits 0.6875 s for it.
    const auto records = sessionWithIntervals({2.0, 0.5, 0.75, 1.5, 0.75, 0.75});
    const PlaybackResult unbuffered = simulatePlayback(records, 16.0, 1);
    CHECK(unbuffered.underrun_count == 1);
    CHECK(unbuffered.total_stall_s == Approx(0.6875));
    CHECK(unbuffered.first_underrun_chunk == std::optional<std::int64_t>(3));
    CHECK(unbuffered.stallRatio() > 0.0);
    const PlaybackResult buffered = simulatePlayback(records, 16.0, 3);
    CHECK(buffered.underrun_count == 0);
    CHECK(buffered.total_stall_s == 0.0);
    CHECK_FALSE(buffered.first_underrun_chunk);
    CHECK(buffered.stallRatio() == 0.0);
    // Without stalls the span is exactly the video's length: 9 + 5 * 12 frames at 16 fps.
    CHECK(buffered.playback_span_s == Approx(69.0 / 16.0));
    CHECK(metricErrorOf([&] { simulatePlayback(records, 16.0, 7); }) ==
          std::optional<std::string>("buffer_chunks=7 exceeds the 6 chunks received."));
    CHECK(simulatePlayback({}, 16.0, 3).underrun_count == 0);
}

TEST_CASE("playback replays chunks in index order whatever order they are listed in",
          "[metrics][playback]") {
    auto records = sessionWithIntervals({2.0, 0.75, 1.5, 0.75});
    const PlaybackResult in_order = simulatePlayback(records, 16.0, 1);
    std::reverse(records.begin(), records.end());
    const PlaybackResult reversed = simulatePlayback(records, 16.0, 1);
    CHECK(reversed.underrun_count == in_order.underrun_count);
    CHECK(reversed.total_stall_s == in_order.total_stall_s);
    CHECK(reversed.first_underrun_chunk == in_order.first_underrun_chunk);
}

TEST_CASE("warmup excludes the first six chunks and the terminal chunk from steady metrics",
          "[metrics][compute]") {
    // Chunks 1..5 are slow (attention window still growing), chunk 9 is the fast terminal
    // chunk; chunks 6, 7 and 8 are the steady block at 0.7 s each.
    const auto records = sessionWithIntervals({5.0, 3.0, 3.0, 3.0, 3.0, 3.0, 0.7, 0.7, 0.7, 0.1});
    const SessionMetrics m = computeMetrics(records, at16fps());
    CHECK(m.warmup_chunks == 6);
    CHECK(m.chunks_received == 10);
    CHECK(m.steady_chunks == 3);
    CHECK(m.steady_state_reached);
    REQUIRE(m.interval_steady);
    CHECK(m.interval_steady->count == 3.0);
    CHECK(m.interval_steady->mean_ms == Approx(700.0));
    CHECK(m.interval_steady->max_ms == Approx(700.0));
    // Everything still counts end to end.
    REQUIRE(m.interval_all);
    CHECK(m.interval_all->count == 9.0);
    CHECK(m.interval_all->min_ms == Approx(100.0));
    CHECK(m.total_frames == 9 + 9 * 12);
    CHECK(m.total_bytes == 10 * 100000 + 45);

    MetricsOptions no_warmup = at16fps();
    no_warmup.warmup_chunks = 0;
    // Chunk 0 has no interval, so even with no warmup the first steady interval is chunk 1's.
    CHECK(computeMetrics(records, no_warmup).steady_chunks == 8);
}

TEST_CASE("a session too short for steady state leaves the steady keys out", "[metrics][compute]") {
    const SessionMetrics m = computeMetrics(sessionWithIntervals({3.0, 1.0, 1.0}), at16fps());
    CHECK(m.steady_chunks == 0);
    CHECK_FALSE(m.steady_state_reached);
    CHECK_FALSE(m.interval_steady);
    CHECK_FALSE(m.steady_video_rtf);
    CHECK_FALSE(m.steady_video_rtfx);
    CHECK_FALSE(m.slo_attainment);
    CHECK_FALSE(m.slo_violations);
    CHECK_FALSE(m.ttfc_ms);
    CHECK(m.interval_all);
    const SessionMetrics single = computeMetrics(sessionWithIntervals({3.0}), at16fps());
    CHECK_FALSE(single.interval_all);
    CHECK(metricErrorOf([] { computeMetrics({}, at16fps()); }) ==
          std::optional<std::string>("compute_metrics() needs at least one chunk record."));
}

TEST_CASE("RTF is wall time over video time and RTFX its reciprocal", "[metrics][compute]") {
    // Twelve chunks at 0.5 s each: faster than the 0.75 s real-time budget.
    const auto records = sessionWithIntervals(std::vector<double>(12, 0.5));
    MetricsOptions options = at16fps();
    options.ttfc_s = 0.5;
    const SessionMetrics m = computeMetrics(records, options);
    CHECK(m.wall_seconds == Approx(6.0));
    CHECK(m.video_seconds == Approx((9 + 11 * 12) / 16.0));
    CHECK(m.video_rtf < 1.0); // lower is better; below 1 is faster than real time
    CHECK(m.video_rtf * m.video_rtfx == Approx(1.0));
    REQUIRE(m.steady_video_rtf);
    REQUIRE(m.steady_video_rtfx);
    CHECK(*m.steady_video_rtf == Approx(0.5 / 0.75));
    CHECK(*m.steady_video_rtf * *m.steady_video_rtfx == Approx(1.0));
    CHECK(m.frames_per_second == Approx(141.0 / 6.0));
    CHECK(m.ttfc_ms == Approx(500.0));

    MetricsOptions wall = options;
    wall.session_wall_s = 12.0;
    CHECK(computeMetrics(records, wall).video_rtf == Approx(2.0 * m.video_rtf));
}

TEST_CASE("SLO attainment counts steady intervals within the deadline", "[metrics][compute]") {
    // Steady intervals (chunks 6..9): 0.70, 0.75 (exactly on the deadline: met), 0.80, 0.60.
    const auto records =
        sessionWithIntervals({1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.70, 0.75, 0.80, 0.60, 0.2});
    const SessionMetrics m = computeMetrics(records, at16fps());
    CHECK(m.steady_chunks == 4);
    CHECK(m.slo_attainment == Approx(0.75));
    CHECK(m.slo_violations == std::optional<int>(1));

    MetricsOptions strict = at16fps();
    strict.slo_ms = 650.0;
    const SessionMetrics s = computeMetrics(records, strict);
    CHECK(s.slo_attainment == Approx(0.25));
    CHECK(s.slo_violations == std::optional<int>(3));
}

TEST_CASE("aggregation pools steady intervals instead of averaging session means",
          "[metrics][aggregate]") {
    // Session A: two steady intervals of 0.6 s; session B: six of 0.8 s.
    std::vector<double> a(6, 1.0);
    a.insert(a.end(), {0.6, 0.6, 0.1});
    std::vector<double> b(6, 1.0);
    b.insert(b.end(), {0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.1});
    MetricsOptions with_ttfc = at16fps();
    with_ttfc.ttfc_s = 1.0;
    const SessionMetrics ma = computeMetrics(sessionWithIntervals(a), with_ttfc);
    const SessionMetrics mb = computeMetrics(sessionWithIntervals(b), at16fps());
    const AggregateMetrics agg = aggregateMetrics({ma, mb}, 16.0);
    CHECK(agg.sessions == 2);
    CHECK_FALSE(agg.single_session);
    // (2 * 600 + 6 * 800) / 8, not (600 + 800) / 2.
    CHECK(agg.steady_interval_ms_mean == Approx(750.0));
    CHECK(agg.steady_interval_ms_spread == Approx(200.0));
    CHECK(agg.chunks_received == ma.chunks_received + mb.chunks_received);
    CHECK(agg.total_frames == ma.total_frames + mb.total_frames);
    CHECK(agg.video_rtf_best == std::min(ma.video_rtf, mb.video_rtf));
    CHECK(agg.video_rtf_worst == std::max(ma.video_rtf, mb.video_rtf));
    // Only session A reported a time to first chunk.
    CHECK(agg.ttfc_ms_mean == Approx(1000.0));
    CHECK(agg.ttfc_ms_max == Approx(1000.0));
    CHECK(agg.chunk_deadline_ms == Approx(750.0));

    const AggregateMetrics one = aggregateMetrics({mb}, 16.0);
    CHECK(one.sessions == 1);
    REQUIRE(one.single_session);
    CHECK(one.single_session->video_rtf == mb.video_rtf);

    MetricsOptions other_deadline = at16fps();
    other_deadline.slo_ms = 500.0;
    const SessionMetrics mc = computeMetrics(sessionWithIntervals(b), other_deadline);
    CHECK(metricErrorOf([&] {
              aggregateMetrics({ma, mc}, 16.0);
          }) ==
          std::optional<std::string>("Cannot aggregate sessions with different chunk deadlines."));
    CHECK(metricErrorOf([] { aggregateMetrics({}, 16.0); }) ==
          std::optional<std::string>("aggregate_metrics() needs at least one session."));
}

TEST_CASE("aggregation without steady sessions or ttfc leaves those numbers empty",
          "[metrics][aggregate]") {
    const SessionMetrics short_a = computeMetrics(sessionWithIntervals({2.0, 1.0}), at16fps());
    const SessionMetrics short_b = computeMetrics(sessionWithIntervals({2.0, 1.0, 1.0}), at16fps());
    const AggregateMetrics agg = aggregateMetrics({short_a, short_b}, 16.0);
    CHECK_FALSE(agg.steady_interval_ms_mean);
    CHECK_FALSE(agg.steady_interval_ms_spread);
    CHECK_FALSE(agg.ttfc_ms_mean);
    CHECK_FALSE(agg.ttfc_ms_max);
}

TEST_CASE("metric argument errors carry the seed's words", "[metrics][compute]") {
    const auto records = sessionWithIntervals({1.0, 0.7});
    MetricsOptions bad_warmup = at16fps();
    bad_warmup.warmup_chunks = -1;
    CHECK(metricErrorOf([&] { computeMetrics(records, bad_warmup); }) ==
          std::optional<std::string>("warmup_chunks must be non-negative."));
    MetricsOptions bad_fps = at16fps();
    bad_fps.fps = 0.0;
    CHECK(metricErrorOf([&] { computeMetrics(records, bad_fps); }) ==
          std::optional<std::string>("fps must be positive."));
    bad_fps.slo_ms = 500.0; // the seed would divide by zero here; we name the problem
    CHECK(metricErrorOf([&] { computeMetrics(records, bad_fps); }) ==
          std::optional<std::string>("fps must be positive."));
    MetricsOptions bad_buffer = at16fps();
    bad_buffer.playback_buffer_chunks = 0;
    CHECK(metricErrorOf([&] { computeMetrics(records, bad_buffer); }) ==
          std::optional<std::string>("buffer_chunks must be at least 1."));
    CHECK(metricErrorOf([] { numFramesForChunks(0); }) ==
          std::optional<std::string>("num_chunks must be at least 1."));
    CHECK(metricErrorOf([] { chunksForNumFrames(0); }) ==
          std::optional<std::string>("num_frames must be at least 1."));
    CHECK(metricErrorOf([] { pixelFramesInChunk(-1); }) ==
          std::optional<std::string>("chunk_index must be non-negative."));
    CHECK(metricErrorOf([] { steadyChunkDeadlineMs(-16); }) ==
          std::optional<std::string>("fps must be positive."));
}
