#pragma once
// Summary of one session and of several (seed: compute_metrics, aggregate_metrics).
// Fields the seed sometimes leaves out are std::optional: absent stays absent.

#include "metrics/chunk_record.h"
#include "metrics/constants.h"
#include "metrics/latency_summary.h"
#include "metrics/playback_result.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace lbm {

struct MetricsOptions {
    double fps = kDefaultFps; // the target (playback) fps
    int warmup_chunks = kDefaultWarmupChunks;
    std::optional<double> slo_ms;
    int playback_buffer_chunks = 1;
    std::optional<double> ttfc_s;
    std::optional<double> session_wall_s;
};

// The chunk deadline every verdict and view uses: the SLO when one is given, else the video
// one steady chunk holds at the target fps. MetricError when that fps is not positive.
double chunkDeadlineMs(std::optional<double> slo_ms, double fps);
inline double chunkDeadlineMs(const MetricsOptions& options) {
    return chunkDeadlineMs(options.slo_ms, options.fps);
}

struct SessionMetrics {
    int chunks_received = 0;
    int warmup_chunks = 0;
    int steady_chunks = 0;
    bool steady_state_reached = false;
    std::int64_t total_frames = 0;
    std::int64_t total_bytes = 0;
    double video_seconds = 0;
    double wall_seconds = 0;
    double video_rtf = 0;
    double video_rtfx = 0;
    double frames_per_second = 0;
    double chunk_deadline_ms = 0;
    // The seed writes {} when there are no intervals: nullopt serialises as an empty object.
    std::optional<LatencySummary> interval_all;
    std::optional<LatencySummary> interval_steady;
    std::optional<double> ttfc_ms; // only when ttfc_s was given
    // Only when steady intervals exist:
    std::optional<double> steady_video_rtf;
    std::optional<double> steady_video_rtfx;
    std::optional<double> slo_attainment;
    std::optional<int> slo_violations;
    PlaybackResult playback;
    int playback_buffer_chunks = 1; // "playback": {"buffer_chunks": ...}
};

// compute_metrics(records, ...). Throws MetricError with the seed's text.
SessionMetrics computeMetrics(const std::vector<ChunkRecord>& records,
                              const MetricsOptions& options);

struct AggregateMetrics {
    int sessions = 0;
    // With one session the seed returns that session's metrics plus "sessions": 1.
    std::optional<SessionMetrics> single_session;
    // With several sessions:
    int chunks_received = 0;
    std::int64_t total_frames = 0;
    double video_seconds = 0;
    double wall_seconds = 0;
    double video_rtf_mean = 0;
    double video_rtf_best = 0;
    double video_rtf_worst = 0;
    std::optional<double> ttfc_ms_mean; // JSON null when absent (the key is always written)
    std::optional<double> ttfc_ms_max;
    std::optional<double> steady_interval_ms_mean;
    std::optional<double> steady_interval_ms_spread;
    int underrun_count = 0;
    double chunk_deadline_ms = 0;
};

// aggregate_metrics(sessions, fps=). Throws MetricError with the seed's text.
AggregateMetrics aggregateMetrics(const std::vector<SessionMetrics>& sessions, double fps);

} // namespace lbm
