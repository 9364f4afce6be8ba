#include "metrics/live_session_metrics.h"

#include "metrics/geometry.h"
#include "metrics/latency_summary.h"
#include "metrics/metric_error.h"

#include <algorithm>
#include <cmath>

namespace lbm {
namespace {

// percentile() of latency_summary.cpp on values that are already sorted.
double sortedPercentile(const std::vector<double>& sorted, double fraction) {
    if (sorted.size() == 1) {
        return sorted.front();
    }
    const double position = fraction * static_cast<double>(sorted.size() - 1);
    const auto lower = static_cast<std::size_t>(position);
    const std::size_t upper = std::min(lower + 1, sorted.size() - 1);
    const double weight = position - static_cast<double>(lower);
    return sorted[lower] * (1.0 - weight) + sorted[upper] * weight;
}

void insertSorted(std::vector<double>& sorted, double value) {
    sorted.insert(std::upper_bound(sorted.begin(), sorted.end(), value), value);
}

// sampleStddev() given the in-order values and their in-order sum.
double twoPassStddev(const std::vector<double>& in_order, double sum) {
    if (in_order.size() < 2) {
        return 0.0;
    }
    const double mean = sum / static_cast<double>(in_order.size());
    double squares = 0.0;
    for (const double value : in_order) {
        const double deviation = value - mean;
        squares += deviation * deviation;
    }
    return std::pow(squares / static_cast<double>(in_order.size() - 1), 0.5);
}

// _latency_summary() from the incremental pieces.
std::optional<LatencySummary> summaryOf(const std::vector<double>& sorted, double sum_ms,
                                        double std_ms) {
    if (sorted.empty()) {
        return std::nullopt;
    }
    LatencySummary summary;
    summary.count = static_cast<double>(sorted.size());
    summary.mean_ms = sum_ms / summary.count;
    summary.median_ms = sortedPercentile(sorted, 0.5);
    summary.std_ms = std_ms;
    summary.min_ms = sorted.front();
    summary.p90_ms = sortedPercentile(sorted, 0.90);
    summary.p95_ms = sortedPercentile(sorted, 0.95);
    summary.p99_ms = sortedPercentile(sorted, 0.99);
    summary.max_ms = sorted.back();
    return summary;
}

} // namespace

LiveSessionMetrics::LiveSessionMetrics(const MetricsOptions& options)
    : m_options(options)
    , m_playback(options.fps, options.playback_buffer_chunks) {
    if (options.warmup_chunks < 0) {
        throw MetricError("warmup_chunks must be non-negative.");
    }
    m_deadline_ms = chunkDeadlineMs(options);
}

double LiveSessionMetrics::addRecord(const ChunkRecord& record) {
    if (!m_records.empty() && record.index <= m_records.back().index) {
        m_in_order = false;
    }
    if (m_in_order && !m_records.empty()) {
        // The previous last record is no longer the terminal one.
        commitSteady(m_records.back());
        const double ms = record.inter_arrival_s * 1000.0;
        m_all_ms.push_back(ms);
        insertSorted(m_all_sorted_ms, ms);
        m_all_sum_ms += ms;
    }
    m_records.push_back(record);
    m_total_frames += record.num_frames;
    m_total_bytes += record.byte_length;
    if (record.index > 0 && record.interArrivalMs() > m_deadline_ms) {
        ++m_late_count;
    }
    m_stddev_stale = true;

    double stall_ms = 0.0;
    if (!m_halted) {
        const PlaybackResult before = m_playback.started() ? m_playback.result() : PlaybackResult{};
        try {
            m_playback.addRecord(record);
            if (m_playback.started()) {
                const PlaybackResult after = m_playback.result();
                if (after.underrun_count > before.underrun_count) {
                    stall_ms = (after.total_stall_s - before.total_stall_s) * 1000.0;
                }
            }
        } catch (const MetricError& error) {
            // A chunk out of index order: the simulated viewer stops at the last one in order.
            m_halted = true;
            m_halt_reason = error.what();
        }
    }
    m_stall_ms.push_back(stall_ms);
    return stall_ms;
}

void LiveSessionMetrics::commitSteady(const ChunkRecord& record) {
    if (record.index < m_options.warmup_chunks || record.index <= 0) {
        return;
    }
    const double ms = record.inter_arrival_s * 1000.0;
    m_steady_ms.push_back(ms);
    insertSorted(m_steady_sorted_ms, ms);
    m_steady_sum_ms += ms;
    m_steady_sum_s += record.inter_arrival_s;
    m_steady_frames += record.num_frames;
    if (record.inter_arrival_s * 1000.0 <= m_deadline_ms) {
        ++m_steady_within;
    }
}

void LiveSessionMetrics::recomputeStddevs() const {
    if (!m_stddev_stale) {
        return;
    }
    m_all_std_ms = twoPassStddev(m_all_ms, m_all_sum_ms);
    m_steady_std_ms = twoPassStddev(m_steady_ms, m_steady_sum_ms);
    m_stddev_stale = false;
}

SessionMetrics LiveSessionMetrics::metrics(std::optional<double> ttfc_s,
                                           std::optional<double> session_wall_s) const {
    MetricsOptions options = m_options;
    options.ttfc_s = ttfc_s;
    options.session_wall_s = session_wall_s;
    if (!m_in_order || m_records.empty()) {
        return computeMetrics(m_records, options);
    }
    recomputeStddevs();
    const double fps = m_options.fps;
    const double video_seconds = static_cast<double>(m_total_frames) / fps;
    const double wall_seconds = session_wall_s ? *session_wall_s : m_records.back().arrival_s;

    SessionMetrics metrics;
    metrics.chunks_received = chunkCount();
    metrics.warmup_chunks = m_options.warmup_chunks;
    metrics.steady_chunks = static_cast<int>(m_steady_ms.size());
    metrics.steady_state_reached = !m_steady_ms.empty();
    metrics.total_frames = m_total_frames;
    metrics.total_bytes = m_total_bytes;
    metrics.video_seconds = video_seconds;
    metrics.wall_seconds = wall_seconds;
    metrics.video_rtf = video_seconds > 0 ? wall_seconds / video_seconds : 0.0;
    metrics.video_rtfx = wall_seconds > 0 ? video_seconds / wall_seconds : 0.0;
    metrics.frames_per_second =
        wall_seconds > 0 ? static_cast<double>(m_total_frames) / wall_seconds : 0.0;
    metrics.chunk_deadline_ms = m_deadline_ms;
    metrics.interval_all = summaryOf(m_all_sorted_ms, m_all_sum_ms, m_all_std_ms);
    metrics.interval_steady = summaryOf(m_steady_sorted_ms, m_steady_sum_ms, m_steady_std_ms);
    if (ttfc_s) {
        metrics.ttfc_ms = *ttfc_s * 1000.0;
    }
    if (!m_steady_ms.empty()) {
        const double steady_video = static_cast<double>(m_steady_frames) / fps;
        metrics.steady_video_rtf = steady_video > 0 ? m_steady_sum_s / steady_video : 0.0;
        metrics.steady_video_rtfx = m_steady_sum_s > 0 ? steady_video / m_steady_sum_s : 0.0;
        const auto count = static_cast<double>(m_steady_ms.size());
        metrics.slo_attainment = static_cast<double>(m_steady_within) / count;
        metrics.slo_violations = static_cast<int>(m_steady_ms.size()) - m_steady_within;
    }
    // Throws the seed's "exceeds" error while the start buffer fills, as computeMetrics does.
    metrics.playback = m_playback.result();
    metrics.playback_buffer_chunks = m_options.playback_buffer_chunks;
    return metrics;
}

std::optional<SessionMetrics> LiveSessionMetrics::tryMetrics(std::optional<double> ttfc_s,
                                                             std::optional<double> session_wall_s,
                                                             std::string* why) const {
    try {
        return metrics(ttfc_s, session_wall_s);
    } catch (const MetricError& error) {
        if (why) {
            *why = error.what();
        }
        return std::nullopt;
    }
}

std::optional<double> LiveSessionMetrics::intervalPercentileMs(double fraction) const {
    if (!m_in_order) {
        // Rare (a server that repeats or reorders chunks): the seed's way, from scratch.
        std::vector<ChunkRecord> ordered = m_records;
        std::stable_sort(
            ordered.begin(), ordered.end(),
            [](const ChunkRecord& a, const ChunkRecord& b) { return a.index < b.index; });
        std::vector<double> all;
        std::vector<double> steady;
        for (std::size_t i = 0; i < ordered.size(); ++i) {
            if (i > 0) {
                all.push_back(ordered[i].interArrivalMs());
            }
            if (i + 1 < ordered.size() && ordered[i].index >= m_options.warmup_chunks &&
                ordered[i].index > 0) {
                steady.push_back(ordered[i].interArrivalMs());
            }
        }
        const auto& basis = steady.empty() ? all : steady;
        return basis.empty() ? std::nullopt : std::optional<double>(percentile(basis, fraction));
    }
    const auto& basis = m_steady_sorted_ms.empty() ? m_all_sorted_ms : m_steady_sorted_ms;
    if (basis.empty()) {
        return std::nullopt;
    }
    return sortedPercentile(basis, fraction);
}

std::optional<PlaybackResult> LiveSessionMetrics::simulatedPlayback() const {
    if (!m_playback.started()) {
        return std::nullopt;
    }
    return m_playback.result();
}

std::optional<ProvisionalUnderrun> LiveSessionMetrics::provisionalUnderrun(double now_s) const {
    if (m_halted || !m_playback.stalledAt(now_s)) {
        return std::nullopt;
    }
    ProvisionalUnderrun underrun;
    underrun.awaited_index = m_records.empty() ? 0 : m_records.back().index + 1;
    underrun.stalled_s = now_s - m_playback.exhaustedAt();
    return underrun;
}

} // namespace lbm
