// LiveSessionMetrics: after every record it must answer exactly what computeMetrics answers
// for the records so far (bit for bit, on every prefix of every golden metrics case and of
// generated sessions), keep doing so when a server reorders chunks, and describe the
// underrun in progress the way the seed will count it once the chunk lands.

#include "metrics/live_session_metrics.h"
#include "metrics/metric_error.h"
#include "tests/metrics/seed_json.h"

#include <QJsonArray>
#include <QJsonObject>

#include <catch2/catch.hpp>

#include <random>

using namespace lbm;
using namespace lbm::test;

namespace {

void requireSameSummary(const std::optional<LatencySummary>& live,
                        const std::optional<LatencySummary>& batch) {
    REQUIRE(live.has_value() == batch.has_value());
    if (!live) {
        return;
    }
    CHECK(live->count == batch->count);
    CHECK(live->mean_ms == batch->mean_ms);
    CHECK(live->median_ms == batch->median_ms);
    CHECK(live->std_ms == batch->std_ms);
    CHECK(live->min_ms == batch->min_ms);
    CHECK(live->p90_ms == batch->p90_ms);
    CHECK(live->p95_ms == batch->p95_ms);
    CHECK(live->p99_ms == batch->p99_ms);
    CHECK(live->max_ms == batch->max_ms);
}

// Equal to the bit: the same operations in the same order, not merely close.
void requireSameMetrics(const SessionMetrics& live, const SessionMetrics& batch) {
    CHECK(live.chunks_received == batch.chunks_received);
    CHECK(live.warmup_chunks == batch.warmup_chunks);
    CHECK(live.steady_chunks == batch.steady_chunks);
    CHECK(live.steady_state_reached == batch.steady_state_reached);
    CHECK(live.total_frames == batch.total_frames);
    CHECK(live.total_bytes == batch.total_bytes);
    CHECK(live.video_seconds == batch.video_seconds);
    CHECK(live.wall_seconds == batch.wall_seconds);
    CHECK(live.video_rtf == batch.video_rtf);
    CHECK(live.video_rtfx == batch.video_rtfx);
    CHECK(live.frames_per_second == batch.frames_per_second);
    CHECK(live.chunk_deadline_ms == batch.chunk_deadline_ms);
    requireSameSummary(live.interval_all, batch.interval_all);
    requireSameSummary(live.interval_steady, batch.interval_steady);
    CHECK(live.ttfc_ms == batch.ttfc_ms);
    CHECK(live.steady_video_rtf == batch.steady_video_rtf);
    CHECK(live.steady_video_rtfx == batch.steady_video_rtfx);
    CHECK(live.slo_attainment == batch.slo_attainment);
    CHECK(live.slo_violations == batch.slo_violations);
    CHECK(live.playback.underrun_count == batch.playback.underrun_count);
    CHECK(live.playback.total_stall_s == batch.playback.total_stall_s);
    CHECK(live.playback.playback_span_s == batch.playback.playback_span_s);
    CHECK(live.playback.first_underrun_chunk == batch.playback.first_underrun_chunk);
    CHECK(live.playback_buffer_chunks == batch.playback_buffer_chunks);
}

// Feeds records one at a time and compares every prefix; returns the prefixes compared.
int checkEveryPrefix(const std::vector<ChunkRecord>& records, const MetricsOptions& options) {
    const auto construct_error = metricErrorOf([&] { LiveSessionMetrics probe(options); });
    if (construct_error) {
        // Invalid arguments: computeMetrics refuses any non-empty input too (in its order of
        // checks the message may differ, so only the refusal itself is compared).
        if (!records.empty()) {
            CHECK(metricErrorOf([&] { computeMetrics(records, options); }).has_value());
        }
        return 0;
    }
    LiveSessionMetrics live(options);
    int compared = 0;
    for (std::size_t n = 1; n <= records.size(); ++n) {
        live.addRecord(records[n - 1]);
        const std::vector<ChunkRecord> prefix(records.begin(), records.begin() + n);
        INFO("prefix of " << n << " records");
        const auto batch_error = metricErrorOf([&] { computeMetrics(prefix, options); });
        const auto live_error =
            metricErrorOf([&] { live.metrics(options.ttfc_s, options.session_wall_s); });
        CHECK(live_error == batch_error);
        if (!batch_error) {
            requireSameMetrics(live.metrics(options.ttfc_s, options.session_wall_s),
                               computeMetrics(prefix, options));
        }
        ++compared;
    }
    return compared;
}

std::vector<ChunkRecord> generatedSession(std::mt19937& random, int chunks) {
    std::uniform_real_distribution<double> interval(0.3, 1.6);
    std::vector<ChunkRecord> records;
    double arrival = 0.0;
    for (int i = 0; i < chunks; ++i) {
        ChunkRecord record;
        record.index = i;
        record.inter_arrival_s = i == 0 ? 1.5 : interval(random);
        arrival += record.inter_arrival_s;
        record.arrival_s = arrival;
        record.num_frames = i == 0 ? 9 : 12;
        record.byte_length = 100000 + i;
        records.push_back(record);
    }
    return records;
}

} // namespace

TEST_CASE("live metrics equal computeMetrics on every prefix of the golden metrics cases",
          "[metrics][live]") {
    const QJsonArray cases = seedGroup("metrics");
    REQUIRE(cases.size() == 80);
    int compared = 0;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        const auto records = recordsFromSeed(golden.value(QStringLiteral("records")).toArray());
        const MetricsOptions options =
            optionsFromSeed(golden.value(QStringLiteral("kwargs")).toObject());
        INFO("golden case " << i);
        compared += checkEveryPrefix(records, options);
    }
    CHECK(compared > 500);
}

TEST_CASE("live metrics equal computeMetrics on generated sessions with every option",
          "[metrics][live]") {
    std::mt19937 random(20261203);
    for (const int warmup : {0, 1, 6}) {
        for (const int buffer : {1, 3}) {
            for (const bool slo : {false, true}) {
                MetricsOptions options;
                options.fps = warmup == 1 ? 12.0 : 16.0;
                options.warmup_chunks = warmup;
                options.playback_buffer_chunks = buffer;
                if (slo) {
                    options.slo_ms = 900.0;
                }
                options.ttfc_s = 1.5;
                options.session_wall_s = 40.0;
                INFO("warmup " << warmup << ", buffer " << buffer << ", slo " << slo);
                CHECK(checkEveryPrefix(generatedSession(random, 40), options) == 40);
            }
        }
    }
}

TEST_CASE("live metrics fall back to the seed's order when a server reorders chunks",
          "[metrics][live]") {
    std::mt19937 random(7);
    std::vector<ChunkRecord> records = generatedSession(random, 20);
    std::swap(records[8], records[9]);
    records.push_back(records[3]); // a repeated chunk
    MetricsOptions options;
    LiveSessionMetrics live(options);
    for (std::size_t n = 1; n <= records.size(); ++n) {
        live.addRecord(records[n - 1]);
        const std::vector<ChunkRecord> prefix(records.begin(), records.begin() + n);
        requireSameMetrics(live.metrics(), computeMetrics(prefix, options));
    }
    // The live simulated viewer stops at the last chunk in order instead of throwing.
    CHECK(live.simulatorHalted());
    CHECK(live.intervalPercentileMs(0.5).has_value());
}

TEST_CASE("live metrics keep percentiles of the steady chunks once there are any, as the "
          "counters show them",
          "[metrics][live]") {
    MetricsOptions options;
    options.warmup_chunks = 2;
    LiveSessionMetrics live(options);
    CHECK_FALSE(live.intervalPercentileMs(0.5));
    const double intervals[] = {2.0, 0.5, 0.6, 0.7, 0.8, 0.9};
    double arrival = 0.0;
    for (int i = 0; i < 6; ++i) {
        arrival += intervals[i];
        live.addRecord({i, arrival, intervals[i], 1000, i == 0 ? 9 : 12});
    }
    // Steady: chunks 2..4 (chunk 5 is the terminal one): 600, 700, 800 ms.
    REQUIRE(live.percentilesAreSteady());
    CHECK(*live.intervalPercentileMs(0.5) == Approx(700.0));
    const auto metrics = live.metrics();
    CHECK(*live.intervalPercentileMs(0.95) == metrics.interval_steady->p95_ms);
    CHECK(live.lateChunkCount() == 2); // 800 and 900 ms against 750 ms
}

TEST_CASE("live metrics show the underrun in progress that the seed counts when the chunk "
          "lands",
          "[metrics][live]") {
    MetricsOptions options; // 16 fps, buffer 1
    LiveSessionMetrics live(options);
    live.addRecord({0, 1.0, 1.0, 1000, 9});  // playback starts at 1.0, runs out at 1.5625
    live.addRecord({1, 1.5, 0.5, 1000, 12}); // runs out at 2.3125
    CHECK_FALSE(live.provisionalUnderrun(2.0));
    const auto ongoing = live.provisionalUnderrun(3.3125);
    REQUIRE(ongoing);
    CHECK(ongoing->awaited_index == 2);
    CHECK(ongoing->stalled_s == Approx(1.0));
    CHECK(live.simulatedPlayback()->underrun_count == 0); // not counted before it lands
    const double stall_ms = live.addRecord({2, 3.3125, 1.8125, 1000, 12});
    CHECK(stall_ms == Approx(1000.0));
    CHECK(live.simulatedPlayback()->underrun_count == 1);
    CHECK(live.simulatedPlayback()->total_stall_s == Approx(ongoing->stalled_s));
}
