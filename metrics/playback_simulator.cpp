#include "metrics/playback_simulator.h"

#include "metrics/metric_error.h"

#include <algorithm>
#include <string>

namespace lbm {
namespace {

void checkPlaybackArguments(double fps, int buffer_chunks) {
    if (!(fps > 0)) {
        throw MetricError("fps must be positive.");
    }
    if (buffer_chunks < 1) {
        throw MetricError("buffer_chunks must be at least 1.");
    }
}

[[noreturn]] void throwBufferExceeds(int buffer_chunks, std::size_t received) {
    throw MetricError("buffer_chunks=" + std::to_string(buffer_chunks) + " exceeds the " +
                      std::to_string(received) + " chunks received.");
}

} // namespace

PlaybackResult simulatePlayback(const std::vector<ChunkRecord>& records, double fps,
                                int buffer_chunks) {
    checkPlaybackArguments(fps, buffer_chunks);
    if (records.empty()) {
        return {};
    }
    if (static_cast<std::size_t>(buffer_chunks) > records.size()) {
        throwBufferExceeds(buffer_chunks, records.size());
    }
    std::vector<ChunkRecord> ordered = records;
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const ChunkRecord& a, const ChunkRecord& b) { return a.index < b.index; });

    const double start = ordered[static_cast<std::size_t>(buffer_chunks) - 1].arrival_s;
    double cursor = start;
    PlaybackResult result;
    for (const ChunkRecord& record : ordered) {
        if (record.arrival_s > cursor) {
            result.underrun_count += 1;
            result.total_stall_s += record.arrival_s - cursor;
            if (!result.first_underrun_chunk) {
                result.first_underrun_chunk = record.index;
            }
            cursor = record.arrival_s;
        }
        cursor += record.num_frames / fps;
    }
    result.playback_span_s = cursor - start;
    return result;
}

LivePlaybackSimulator::LivePlaybackSimulator(double fps, int buffer_chunks)
    : m_fps(fps)
    , m_buffer_chunks(buffer_chunks) {
    checkPlaybackArguments(fps, buffer_chunks);
}

void LivePlaybackSimulator::addRecord(const ChunkRecord& record) {
    if (!m_records.empty() && record.index <= m_records.back().index) {
        throw MetricError("Chunk " + std::to_string(record.index) + " arrived after chunk " +
                          std::to_string(m_records.back().index) +
                          "; the live playback simulator needs chunks in increasing index "
                          "order.");
    }
    m_records.push_back(record);
    m_received_frames += record.num_frames;

    const int count = recordCount();
    if (count < m_buffer_chunks) {
        return;
    }
    if (count == m_buffer_chunks) {
        m_start_s = record.arrival_s;
        m_cursor_s = m_start_s;
        for (const ChunkRecord& buffered : m_records) {
            advance(buffered);
        }
    } else {
        advance(record);
    }
    m_result.playback_span_s = m_cursor_s - m_start_s;
}

void LivePlaybackSimulator::advance(const ChunkRecord& record) {
    if (record.arrival_s > m_cursor_s) {
        m_result.underrun_count += 1;
        m_result.total_stall_s += record.arrival_s - m_cursor_s;
        if (!m_result.first_underrun_chunk) {
            m_result.first_underrun_chunk = record.index;
        }
        m_cursor_s = record.arrival_s;
    }
    m_cursor_s += record.num_frames / m_fps;
}

PlaybackResult LivePlaybackSimulator::result() const {
    if (m_records.empty()) {
        return {};
    }
    if (!started()) {
        throwBufferExceeds(m_buffer_chunks, m_records.size());
    }
    return m_result;
}

double LivePlaybackSimulator::receivedVideoSeconds() const {
    return static_cast<double>(m_received_frames) / m_fps;
}

double LivePlaybackSimulator::bufferedAheadSeconds(double now_s) const {
    const double received_s = receivedVideoSeconds();
    if (!started()) {
        return received_s;
    }
    return std::clamp(m_cursor_s - now_s, 0.0, received_s);
}

bool LivePlaybackSimulator::stalledAt(double now_s) const {
    return started() && now_s > m_cursor_s;
}

} // namespace lbm
