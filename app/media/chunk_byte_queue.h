#pragma once
// The hand-off between the network thread and the decoder thread: chunk payloads are
// appended under a short lock (never blocking the producer on the consumer), and the
// decoder's AVIO read callback takes them back in order, blocking until more bytes arrive,
// the stream ends or the session is aborted. It also remembers which byte range and which
// frames belong to which chunk, so a frame or an error can be attributed to its chunk.

#include "metrics/chunk_record.h"

#include <QByteArray>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <vector>

namespace lbm::media {

class ChunkByteQueue {
public:
    struct ChunkSpan {
        ChunkIdentity info;
        qint64 begin_offset = 0; // stream offset of the chunk's first byte
        qint64 end_offset = 0;   // one past its last byte
        qint64 first_frame = 0;  // global number of its first frame (sum of earlier num_frames)
    };
    struct Counters {
        qint64 chunks = 0;
        qint64 bytes_pushed = 0;
        qint64 bytes_read = 0;
        qint64 bytes_pending = 0;
        qint64 bytes_pending_high_water = 0;
        qint64 frames_expected = 0;
        bool finished = false;
    };

    // Any thread; copies nothing (QByteArray is implicitly shared) and never waits for the
    // reader. A payload may arrive in pieces: consecutive appends with the same
    // transport_index and kind extend one chunk. Appending after finish() or abort() is
    // ignored.
    void append(const ChunkIdentity& info, const QByteArray& bytes);
    // No more chunks: the reader gets end-of-stream once it has taken everything.
    void finish();
    // Wakes a blocked reader at once; every later read reports the abort.
    void abort();

    // Reader thread only. Blocks until at least one byte is available. Returns the number
    // of bytes copied (> 0), 0 at end of stream, -1 once aborted.
    int read(uint8_t* destination, int max_bytes);

    bool isAborted() const { return m_aborted.load(); }
    Counters counters() const;
    // The chunk whose bytes contain stream offset; nullopt past the end of what arrived.
    std::optional<ChunkSpan> chunkAtOffset(qint64 offset) const;
    // The chunk that global frame belongs to by the metadata's num_frames (not by which
    // payload carried its bytes: fragments lag one frame behind chunks).
    std::optional<ChunkSpan> chunkForFrame(qint64 global_frame) const;

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_readable;
    std::deque<QByteArray> m_pending;
    qint64 m_front_consumed = 0;
    std::vector<ChunkSpan> m_chunks;
    Counters m_counters;
    std::atomic<bool> m_aborted{false};
};

} // namespace lbm::media
