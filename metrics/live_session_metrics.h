#pragma once
// The metrics of a session while it streams: every surface (counters, chart, HUD, the saved
// document) reads this one model, so the same thing always shows the same number.
//
// It takes the chunk records as they arrive and keeps what computeMetrics() needs in
// incremental form: running sums in the seed's summation order, the all-chunk and steady
// intervals kept sorted for the percentiles, the late count, and the seed's playback
// simulator (LivePlaybackSimulator). metrics() answers exactly what computeMetrics() would
// answer for the records so far, bit for bit, and costs O(1) between arrivals: the one
// O(n) part, the seed's two-pass standard deviation, is computed once per new chunk and
// cached. A chunk costs O(log n) to place plus a sorted-vector insert, which is a memmove
// of a few KiB even at chunk 5,000, so a long session costs the same per tick as a short
// one.
//
// Arrivals out of index order (a server that repeats or reorders chunks) cannot be kept
// incrementally in the seed's order; from then on metrics() recomputes with computeMetrics()
// and the live playback simulator stops at the last chunk in order (simulatorHalted()).

#include "metrics/chunk_record.h"
#include "metrics/playback_result.h"
#include "metrics/playback_simulator.h"
#include "metrics/session_metrics.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lbm {

// An underrun the seed's simulator will count once the awaited chunk lands, seen at now_s.
struct ProvisionalUnderrun {
    std::int64_t awaited_index = 0; // the chunk the simulated viewer waits for
    double stalled_s = 0.0;         // how long it has waited so far
};

class LiveSessionMetrics {
public:
    // options.fps, warmup_chunks, slo_ms and playback_buffer_chunks define the session;
    // ttfc_s and session_wall_s are given per query. Throws MetricError for the seed's
    // invalid arguments (fps <= 0, buffer < 1, warmup < 0).
    explicit LiveSessionMetrics(const MetricsOptions& options);

    // The next media chunk, in arrival order. Returns the simulated stall it caused (0 when
    // the simulated viewer did not run dry waiting for it).
    double addRecord(const ChunkRecord& record);

    const MetricsOptions& options() const { return m_options; }
    const std::vector<ChunkRecord>& records() const { return m_records; }
    int chunkCount() const { return static_cast<int>(m_records.size()); }
    bool empty() const { return m_records.empty(); }
    double deadlineMs() const { return m_deadline_ms; }
    std::int64_t totalFrames() const { return m_total_frames; }
    std::int64_t totalBytes() const { return m_total_bytes; }
    // Chunks after the first whose inter-arrival exceeded the deadline (the chart's "late").
    int lateChunkCount() const { return m_late_count; }
    // The simulated stall attributed to records()[i] (0 for most).
    double simulatedStallMs(std::size_t i) const { return m_stall_ms[i]; }

    // computeMetrics(records(), options with ttfc_s and session_wall_s), exactly. Throws
    // MetricError like it (no records; the start buffer not yet filled).
    SessionMetrics metrics(std::optional<double> ttfc_s = std::nullopt,
                           std::optional<double> session_wall_s = std::nullopt) const;
    // The same, or nullopt with the seed's reason in *why.
    std::optional<SessionMetrics> tryMetrics(std::optional<double> ttfc_s,
                                             std::optional<double> session_wall_s,
                                             std::string* why = nullptr) const;

    // The percentile of the steady intervals once there are any, else of all intervals (what
    // the counters call the session's p50/p95/p99); nullopt before the second chunk.
    std::optional<double> intervalPercentileMs(double fraction) const;
    // True when intervalPercentileMs() is over the steady intervals.
    bool percentilesAreSteady() const { return !m_steady_sorted_ms.empty(); }

    // The seed's playback simulation so far.
    const LivePlaybackSimulator& playback() const { return m_playback; }
    bool simulatorHalted() const { return m_halted; }
    // Why it halted (the seed-style message naming the chunks); empty while it runs.
    const std::string& haltReason() const { return m_halt_reason; }
    std::optional<PlaybackResult> simulatedPlayback() const;
    // The underrun in progress at now_s (the simulated viewer has run dry and the next chunk
    // has not landed), or nullopt. Not counted in simulatedPlayback() until the chunk lands.
    std::optional<ProvisionalUnderrun> provisionalUnderrun(double now_s) const;

private:
    void commitSteady(const ChunkRecord& record);
    void recomputeStddevs() const;

    MetricsOptions m_options;
    double m_deadline_ms = 0.0;
    std::vector<ChunkRecord> m_records;
    std::vector<double> m_stall_ms;
    bool m_in_order = true;
    std::int64_t m_total_frames = 0;
    std::int64_t m_total_bytes = 0;
    int m_late_count = 0;

    // interval_all: the inter-arrivals of every record after the first, in index order.
    std::vector<double> m_all_ms;        // in order, for the two-pass standard deviation
    std::vector<double> m_all_sorted_ms; // for percentiles, min and max
    double m_all_sum_ms = 0.0;

    // interval_steady: records after the warmup (and after chunk 0) except the last one, which
    // joins once a later chunk arrives (the seed leaves the terminal chunk out).
    std::vector<double> m_steady_ms;
    std::vector<double> m_steady_sorted_ms;
    double m_steady_sum_ms = 0.0;
    double m_steady_sum_s = 0.0;
    std::int64_t m_steady_frames = 0;
    int m_steady_within = 0;

    LivePlaybackSimulator m_playback;
    bool m_halted = false;
    std::string m_halt_reason;

    mutable bool m_stddev_stale = true;
    mutable double m_all_std_ms = 0.0;
    mutable double m_steady_std_ms = 0.0;
};

} // namespace lbm
