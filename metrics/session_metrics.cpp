#include "metrics/session_metrics.h"

#include "metrics/geometry.h"
#include "metrics/metric_error.h"
#include "metrics/playback_simulator.h"

#include <algorithm>

namespace lbm {

double chunkDeadlineMs(std::optional<double> slo_ms, double fps) {
    return slo_ms ? *slo_ms : steadyChunkDeadlineMs(fps);
}

SessionMetrics computeMetrics(const std::vector<ChunkRecord>& records,
                              const MetricsOptions& options) {
    if (records.empty()) {
        throw MetricError("compute_metrics() needs at least one chunk record.");
    }
    if (options.warmup_chunks < 0) {
        throw MetricError("warmup_chunks must be non-negative.");
    }
    const double fps = options.fps;
    std::vector<ChunkRecord> ordered = records;
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const ChunkRecord& a, const ChunkRecord& b) { return a.index < b.index; });
    const double deadline_ms = chunkDeadlineMs(options);
    // With an explicit SLO the seed reaches total_frames / fps and dies of ZeroDivisionError
    // at fps == 0 (negative fps fails later, in simulate_playback); say what is wrong instead.
    if (!(fps > 0)) {
        throw MetricError("fps must be positive.");
    }

    std::vector<double> all_intervals;
    for (std::size_t i = 1; i < ordered.size(); ++i) {
        all_intervals.push_back(ordered[i].inter_arrival_s);
    }
    // The terminal chunk skips next-chunk preparation, so it stays out of the steady block
    // (but not out of end-to-end and playback numbers).
    std::vector<const ChunkRecord*> steady_with_interval;
    std::vector<double> steady_intervals;
    for (std::size_t i = 0; i + 1 < ordered.size(); ++i) {
        const ChunkRecord& record = ordered[i];
        if (record.index >= options.warmup_chunks && record.index > 0) {
            steady_with_interval.push_back(&record);
            steady_intervals.push_back(record.inter_arrival_s);
        }
    }

    std::int64_t total_frames = 0;
    std::int64_t total_bytes = 0;
    for (const ChunkRecord& record : ordered) {
        total_frames += record.num_frames;
        total_bytes += record.byte_length;
    }
    const double video_seconds = static_cast<double>(total_frames) / fps;
    const double wall_seconds =
        options.session_wall_s ? *options.session_wall_s : ordered.back().arrival_s;

    SessionMetrics metrics;
    metrics.chunks_received = static_cast<int>(ordered.size());
    metrics.warmup_chunks = options.warmup_chunks;
    metrics.steady_chunks = static_cast<int>(steady_intervals.size());
    metrics.steady_state_reached = !steady_intervals.empty();
    metrics.total_frames = total_frames;
    metrics.total_bytes = total_bytes;
    metrics.video_seconds = video_seconds;
    metrics.wall_seconds = wall_seconds;
    // RTF is processing time over content duration (lower is better, below 1 is real time);
    // RTFX is its reciprocal. The two must never be confused.
    metrics.video_rtf = video_seconds > 0 ? wall_seconds / video_seconds : 0.0;
    metrics.video_rtfx = wall_seconds > 0 ? video_seconds / wall_seconds : 0.0;
    metrics.frames_per_second =
        wall_seconds > 0 ? static_cast<double>(total_frames) / wall_seconds : 0.0;
    metrics.chunk_deadline_ms = deadline_ms;
    metrics.interval_all = latencySummary(all_intervals);
    metrics.interval_steady = latencySummary(steady_intervals);
    if (options.ttfc_s) {
        metrics.ttfc_ms = *options.ttfc_s * 1000.0;
    }

    if (!steady_intervals.empty()) {
        std::int64_t steady_frames = 0;
        for (const ChunkRecord* record : steady_with_interval) {
            steady_frames += record->num_frames;
        }
        double steady_wall = 0.0;
        for (const double value : steady_intervals) {
            steady_wall += value;
        }
        const double steady_video = static_cast<double>(steady_frames) / fps;
        metrics.steady_video_rtf = steady_video > 0 ? steady_wall / steady_video : 0.0;
        metrics.steady_video_rtfx = steady_wall > 0 ? steady_video / steady_wall : 0.0;
        const auto within =
            std::count_if(steady_intervals.begin(), steady_intervals.end(),
                          [deadline_ms](double value) { return value * 1000.0 <= deadline_ms; });
        metrics.slo_attainment =
            static_cast<double>(within) / static_cast<double>(steady_intervals.size());
        metrics.slo_violations =
            static_cast<int>(steady_intervals.size()) - static_cast<int>(within);
    }

    metrics.playback = simulatePlayback(ordered, fps, options.playback_buffer_chunks);
    metrics.playback_buffer_chunks = options.playback_buffer_chunks;
    return metrics;
}

AggregateMetrics aggregateMetrics(const std::vector<SessionMetrics>& sessions, double /*fps*/) {
    if (sessions.empty()) {
        throw MetricError("aggregate_metrics() needs at least one session.");
    }
    AggregateMetrics aggregate;
    aggregate.sessions = static_cast<int>(sessions.size());
    if (sessions.size() == 1) {
        aggregate.single_session = sessions.front();
        return aggregate;
    }

    const double deadline_ms = sessions.front().chunk_deadline_ms;
    for (const SessionMetrics& entry : sessions) {
        if (entry.chunk_deadline_ms != deadline_ms) {
            throw MetricError("Cannot aggregate sessions with different chunk deadlines.");
        }
    }

    std::vector<double> ttfcs;
    std::vector<double> rtfs;
    std::vector<double> steady_means;
    double steady_count = 0.0;
    double steady_total_ms = 0.0;
    for (const SessionMetrics& entry : sessions) {
        if (entry.ttfc_ms) {
            ttfcs.push_back(*entry.ttfc_ms);
        }
        rtfs.push_back(entry.video_rtf);
        // entry.get("interval_steady", {}).get("count"): absent and zero both skip.
        if (entry.interval_steady && entry.interval_steady->count != 0.0) {
            steady_means.push_back(entry.interval_steady->mean_ms);
        }
    }
    // Separate passes so each sum accumulates in the seed's order.
    for (const SessionMetrics& entry : sessions) {
        if (entry.interval_steady) {
            steady_count += entry.interval_steady->count;
        }
    }
    for (const SessionMetrics& entry : sessions) {
        if (entry.interval_steady && entry.interval_steady->count != 0.0) {
            steady_total_ms += entry.interval_steady->mean_ms * entry.interval_steady->count;
        }
    }

    const auto sumOf = [](const std::vector<double>& values) {
        double total = 0.0;
        for (const double value : values) {
            total += value;
        }
        return total;
    };

    for (const SessionMetrics& entry : sessions) {
        aggregate.chunks_received += entry.chunks_received;
        aggregate.total_frames += entry.total_frames;
        aggregate.video_seconds += entry.video_seconds;
        aggregate.wall_seconds += entry.wall_seconds;
        aggregate.underrun_count += entry.playback.underrun_count;
    }
    aggregate.video_rtf_mean = sumOf(rtfs) / static_cast<double>(rtfs.size());
    aggregate.video_rtf_best = *std::min_element(rtfs.begin(), rtfs.end());
    // Lower is better, so the maximum is the worst session.
    aggregate.video_rtf_worst = *std::max_element(rtfs.begin(), rtfs.end());
    if (!ttfcs.empty()) {
        aggregate.ttfc_ms_mean = sumOf(ttfcs) / static_cast<double>(ttfcs.size());
        aggregate.ttfc_ms_max = *std::max_element(ttfcs.begin(), ttfcs.end());
    }
    if (steady_count != 0.0) {
        aggregate.steady_interval_ms_mean = steady_total_ms / steady_count;
    }
    if (!steady_means.empty()) {
        aggregate.steady_interval_ms_spread =
            *std::max_element(steady_means.begin(), steady_means.end()) -
            *std::min_element(steady_means.begin(), steady_means.end());
    }
    aggregate.chunk_deadline_ms = deadline_ms;
    return aggregate;
}

} // namespace lbm
