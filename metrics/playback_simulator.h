#pragma once
// The seed's start-buffered playback simulation, in batch form (simulatePlayback, exactly
// simulate_playback) and in the incremental form the GUI needs while chunks still arrive.

#include <cstdint>
#include <vector>

#include "metrics/chunk_record.h"
#include "metrics/playback_result.h"

namespace lbm {

// simulate_playback(records, fps=, buffer_chunks=). Throws MetricError with the seed's text.
PlaybackResult simulatePlayback(const std::vector<ChunkRecord>& records, double fps,
                                int buffer_chunks = 1);

// Takes records one at a time, in index order (as they arrive), and after each answers
// exactly what simulatePlayback would answer for the records so far; also tells where the
// simulated playhead is at any wall-clock time. Constant work per record.
class LivePlaybackSimulator {
public:
    // Throws MetricError for fps <= 0 or buffer_chunks < 1 (the seed's checks).
    LivePlaybackSimulator(double fps, int buffer_chunks);

    // Appends the next record. Records must come in increasing index order; a record whose
    // index is not greater than the previous one throws MetricError.
    void addRecord(const ChunkRecord& record);

    int recordCount() const { return static_cast<int>(m_records.size()); }
    // False until buffer_chunks records have arrived: the seed would raise "buffer_chunks=B
    // exceeds the N chunks received." for N > 0, and playback has not started.
    bool started() const;
    // simulatePlayback(records so far). Before the start buffer fills it returns what the
    // seed returns for no records (zeros) when there are none, and throws the seed's
    // "exceeds" error otherwise, so callers can show the exact message.
    PlaybackResult result() const;

    // Seconds of video buffered ahead of the simulated playhead at wall-clock time now_s
    // (seconds on the records' clock): 0 when stalled, the whole received video before start.
    double bufferedAheadSeconds(double now_s) const;
    // True when, at now_s, playback has started and the playhead has consumed everything
    // received (the viewer is waiting for the next chunk).
    bool stalledAt(double now_s) const;
    // Wall-clock time at which the playhead runs out of received video (only once started).
    double exhaustedAt() const { return m_cursor_s; }

private:
    double m_fps;
    int m_buffer_chunks;
    std::vector<ChunkRecord> m_records;
    double m_start_s = 0.0;  // arrival of the buffer_chunks-th record
    double m_cursor_s = 0.0; // wall time at which received video runs out
    PlaybackResult m_result;
    double m_unstarted_video_s = 0.0;
};

} // namespace lbm
