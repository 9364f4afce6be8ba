// LivePlaybackSimulator: after every record it must answer what simulatePlayback answers for
// the records so far (checked on every prefix of every golden case), and its wall-clock view
// (buffered ahead, stalled now) must describe the playhead a viewer would see.

#include "metrics/metric_error.h"
#include "metrics/playback_simulator.h"
#include "tests/metrics/seed_json.h"

#include <QJsonArray>
#include <QJsonObject>

#include <catch2/catch.hpp>

using namespace lbm;
using namespace lbm::test;

namespace {

void requireSameResult(const PlaybackResult& live, const PlaybackResult& batch) {
    // Same operations in the same order: equal to the bit, not merely close.
    CHECK(live.underrun_count == batch.underrun_count);
    CHECK(live.total_stall_s == batch.total_stall_s);
    CHECK(live.playback_span_s == batch.playback_span_s);
    CHECK(live.first_underrun_chunk == batch.first_underrun_chunk);
}

// Returns how many prefixes were compared.
int checkEveryPrefix(const std::vector<ChunkRecord>& records, double fps, int buffer_chunks) {
    const auto construct_error =
        metricErrorOf([&] { LivePlaybackSimulator probe(fps, buffer_chunks); });
    int compared = 0;
    if (construct_error) {
        // Invalid arguments: the batch form rejects every prefix with the same words.
        for (std::size_t n = 0; n <= records.size(); ++n) {
            const std::vector<ChunkRecord> prefix(records.begin(), records.begin() + n);
            CHECK(metricErrorOf([&] { simulatePlayback(prefix, fps, buffer_chunks); }) ==
                  construct_error);
            ++compared;
        }
        return compared;
    }
    LivePlaybackSimulator live(fps, buffer_chunks);
    for (std::size_t n = 0; n <= records.size(); ++n) {
        if (n > 0) {
            live.addRecord(records[n - 1]);
        }
        INFO("prefix of " << n << " records");
        const std::vector<ChunkRecord> prefix(records.begin(), records.begin() + n);
        const auto batch_error =
            metricErrorOf([&] { simulatePlayback(prefix, fps, buffer_chunks); });
        const auto live_error = metricErrorOf([&] { live.result(); });
        CHECK(live_error == batch_error);
        CHECK(live.started() == (n >= static_cast<std::size_t>(buffer_chunks)));
        if (!batch_error) {
            requireSameResult(live.result(), simulatePlayback(prefix, fps, buffer_chunks));
        }
        ++compared;
    }
    return compared;
}

ChunkRecord chunk(std::int64_t index, double arrival_s, double previous_arrival_s) {
    ChunkRecord record;
    record.index = index;
    record.arrival_s = arrival_s;
    record.inter_arrival_s = arrival_s - previous_arrival_s;
    record.byte_length = 1000;
    record.num_frames = index == 0 ? 9 : 12;
    return record;
}

} // namespace

TEST_CASE("live simulator equals simulatePlayback on every prefix of the golden playback cases",
          "[metrics][live][golden]") {
    const QJsonArray cases = seedGroup("playback");
    int prefixes = 0;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        INFO("playback case " << i);
        prefixes +=
            checkEveryPrefix(recordsFromSeed(golden.value(QStringLiteral("records")).toArray()),
                             golden.value(QStringLiteral("fps")).toDouble(),
                             golden.value(QStringLiteral("buffer_chunks")).toInt());
    }
    CHECK(prefixes > static_cast<int>(cases.size()));
}

TEST_CASE("live simulator equals simulatePlayback on every prefix of the golden metrics cases",
          "[metrics][live][golden]") {
    const QJsonArray cases = seedGroup("metrics");
    int prefixes = 0;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        const QJsonObject kwargs = golden.value(QStringLiteral("kwargs")).toObject();
        const QJsonValue buffer = kwargs.value(QStringLiteral("playback_buffer_chunks"));
        INFO("metrics case " << i);
        prefixes += checkEveryPrefix(
            recordsFromSeed(golden.value(QStringLiteral("records")).toArray()),
            kwargs.value(QStringLiteral("fps")).toDouble(), buffer.isNull() ? 1 : buffer.toInt());
    }
    CHECK(prefixes > static_cast<int>(cases.size()));
}

TEST_CASE("live simulator equals the batch form when arrivals are not monotonic in index",
          "[metrics][live]") {
    // Chunk 1's bytes land after chunk 2's: with a three-chunk buffer the start is chunk 2's
    // arrival, so chunk 1 is already late when the replay of the held-back records runs.
    const std::vector<ChunkRecord> records = {chunk(0, 1.0, 0.0), chunk(1, 3.0, 1.0),
                                              chunk(2, 2.0, 3.0), chunk(3, 4.5, 2.0),
                                              chunk(4, 9.0, 4.5)};
    checkEveryPrefix(records, 16.0, 3);
    LivePlaybackSimulator live(16.0, 3);
    for (const ChunkRecord& record : records) {
        live.addRecord(record);
    }
    CHECK(live.result().first_underrun_chunk == std::optional<std::int64_t>(1));
}

TEST_CASE("live simulator rejects bad arguments and out-of-order chunks", "[metrics][live]") {
    CHECK(metricErrorOf([] { LivePlaybackSimulator(0.0, 1); }) ==
          std::optional<std::string>("fps must be positive."));
    CHECK(metricErrorOf([] { LivePlaybackSimulator(16.0, 0); }) ==
          std::optional<std::string>("buffer_chunks must be at least 1."));
    LivePlaybackSimulator live(16.0, 1);
    live.addRecord(chunk(0, 1.0, 0.0));
    live.addRecord(chunk(1, 2.0, 1.0));
    const auto error = metricErrorOf([&] { live.addRecord(chunk(1, 3.0, 2.0)); });
    REQUIRE(error);
    CHECK_THAT(*error, Catch::Contains("increasing index order"));
    CHECK(live.recordCount() == 2);
}

TEST_CASE("live simulator reports the start buffer, buffered-ahead video and stalls at chosen "
          "times",
          "[metrics][live]") {
    // 16 fps: chunk 0 is 9 frames (0.5625 s), later chunks 12 frames (0.75 s).
    LivePlaybackSimulator live(16.0, 2);
    CHECK(live.result().underrun_count == 0);
    CHECK(live.bufferedAheadSeconds(0.0) == 0.0);
    CHECK_FALSE(live.stalledAt(100.0));

    live.addRecord(chunk(0, 2.0, 0.0));
    // Still filling the start buffer: the seed would refuse, and nothing plays yet.
    CHECK_FALSE(live.started());
    CHECK(metricErrorOf([&] { live.result(); }) ==
          std::optional<std::string>("buffer_chunks=2 exceeds the 1 chunks received."));
    CHECK(live.bufferedAheadSeconds(2.5) == Approx(0.5625));
    CHECK_FALSE(live.stalledAt(50.0));

    live.addRecord(chunk(1, 3.0, 2.0));
    // Playback starts at 3.0 with 1.3125 s of video: it runs out at 4.3125.
    REQUIRE(live.started());
    CHECK(live.exhaustedAt() == Approx(4.3125));
    CHECK(live.bufferedAheadSeconds(3.0) == Approx(1.3125));
    CHECK(live.bufferedAheadSeconds(4.0) == Approx(0.3125));
    CHECK_FALSE(live.stalledAt(4.0));
    CHECK_FALSE(live.stalledAt(4.3125));
    CHECK(live.stalledAt(4.5));
    CHECK(live.bufferedAheadSeconds(4.5) == 0.0);

    // Chunk 2 lands at 5.0: a 0.6875 s stall, then 0.75 s more video until 5.75.
    live.addRecord(chunk(2, 5.0, 3.0));
    const PlaybackResult result = live.result();
    CHECK(result.underrun_count == 1);
    CHECK(result.total_stall_s == Approx(0.6875));
    CHECK(result.first_underrun_chunk == std::optional<std::int64_t>(2));
    CHECK(result.playback_span_s == Approx(2.75));
    CHECK_FALSE(live.stalledAt(5.0));
    CHECK(live.bufferedAheadSeconds(5.0) == Approx(0.75));
    CHECK(live.bufferedAheadSeconds(5.5) == Approx(0.25));
    CHECK(live.stalledAt(6.0));

    // A chunk arriving while video is still buffered extends the runway without a stall.
    live.addRecord(chunk(3, 5.5, 5.0));
    CHECK(live.result().underrun_count == 1);
    CHECK(live.exhaustedAt() == Approx(6.5));
    CHECK(live.bufferedAheadSeconds(5.5) == Approx(1.0));
    CHECK_FALSE(live.stalledAt(6.0));
    CHECK(live.receivedVideoSeconds() == Approx(2.8125));
}
