#pragma once
// The seed's start-buffered playback simulation, in batch form (simulatePlayback, exactly
// simulate_playback) and in the incremental form the GUI needs while chunks still arrive.

#include "metrics/chunk_record.h"
#include "metrics/playback_result.h"

#include <cstdint>
#include <vector>

namespace lbm {

// simulate_playback(records, fps=, buffer_chunks=). Records are replayed in index order (a
// stable sort, as the seed's sorted()). Throws MetricError with the seed's text.
PlaybackResult simulatePlayback(const std::vector<ChunkRecord>& records, double fps,
                                int buffer_chunks = 1);

// Takes records one at a time, in index order (as they arrive), and after each answers
// exactly what simulatePlayback would answer for the records so far, bit for bit.
//
// Model (the seed's): playback starts at the arrival of the buffer_chunks-th record, then
// consumes num_frames / fps seconds of video per chunk. A chunk that has not arrived when
// the playhead needs it is an underrun; the playhead waits for its arrival and resumes.
//
// Why this can be incremental: once buffer_chunks records exist the start time is fixed, so
// every later record only continues the seed's loop from where it stopped. The records
// before that point are held back and replayed once when the buffer fills (each record is
// processed exactly once: amortised O(1) per record). With arrivals in index order they
// never stall, because none arrives after the start; the replay keeps the answer exact even
// when the arrival clock is not monotonic.
//
// Time queries (bufferedAheadSeconds, stalledAt) describe the playhead at a wall-clock time
// on the records' clock, given every record added so far. They are meant for "now" in a live
// session, i.e. now_s at or after the latest arrival added; for earlier times they still
// treat all added records as received.
class LivePlaybackSimulator {
public:
    // Throws MetricError for fps <= 0 or buffer_chunks < 1 (the seed's checks and texts).
    LivePlaybackSimulator(double fps, int buffer_chunks);

    // Appends the next record. Records must come in increasing index order; a record whose
    // index is not greater than the previous one throws MetricError (the batch form would
    // reorder it, which a live playhead cannot).
    void addRecord(const ChunkRecord& record);

    int recordCount() const { return static_cast<int>(m_records.size()); }
    double fps() const { return m_fps; }
    int bufferChunks() const { return m_buffer_chunks; }
    // False until buffer_chunks records have arrived: playback has not started, and the seed
    // would raise "buffer_chunks=B exceeds the N chunks received." for N > 0.
    bool started() const { return recordCount() >= m_buffer_chunks; }
    // simulatePlayback(records so far): zeros for no records, the seed's "exceeds" error
    // (MetricError) while the start buffer is filling, the live result once started.
    PlaybackResult result() const;

    // Seconds of video received so far (sum of num_frames / fps).
    double receivedVideoSeconds() const;
    // Seconds of video buffered ahead of the playhead at now_s: all received video before
    // playback starts (the player is filling its start buffer), afterwards the time left
    // until the playhead runs out, clamped to [0, receivedVideoSeconds()]. 0 while stalled.
    double bufferedAheadSeconds(double now_s) const;
    // True when playback has started and at now_s the playhead has consumed everything
    // received (the viewer is waiting for the next chunk). Strictly after exhaustedAt(),
    // matching the seed, where a chunk landing exactly when it is needed does not stall.
    bool stalledAt(double now_s) const;
    // Wall-clock time at which the playhead runs out of received video; 0 before start.
    double exhaustedAt() const { return started() ? m_cursor_s : 0.0; }

private:
    // One step of the seed's loop over ordered records.
    void advance(const ChunkRecord& record);

    double m_fps;
    int m_buffer_chunks;
    std::vector<ChunkRecord> m_records;
    std::int64_t m_received_frames = 0;
    double m_start_s = 0.0;  // arrival of the buffer_chunks-th record
    double m_cursor_s = 0.0; // wall time at which received video runs out
    PlaybackResult m_result;
};

} // namespace lbm
