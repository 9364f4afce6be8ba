#pragma once
// The decoder's output, ffplay's picture queue: a FIFO of decoded frames with a capacity.
// When the consumer (the presenter) falls behind, the decoder thread blocks in push()
// (backpressure stops at the decoder; the network thread only ever appends bytes). close()
// marks the end of the stream, abort() releases both sides at once. The capacity may grow
// while frames flow (the presenter sizes it by the chunks' frame counts as they are announced).

#include "app/media/decoded_frame.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>

namespace lbm::media {

class BoundedFrameQueue {
public:
    explicit BoundedFrameQueue(int capacity);

    enum class PushResult { Queued, QueuedAfterEmpty, Aborted };
    // Producer. Blocks while the queue is full. QueuedAfterEmpty tells the producer the
    // consumer may be idle and wants a notification.
    PushResult push(DecodedFrame frame);
    // Producer: no more frames will come.
    void close();
    // Either side: wakes everyone; push() and pop() return at once from now on.
    void abort();

    // Consumer. Waits up to timeout_ms (negative: until a frame comes or the stream ends).
    // nullopt on timeout, at the end of the stream or after abort().
    std::optional<DecodedFrame> pop(int timeout_ms);
    std::optional<DecodedFrame> tryPop() { return pop(0); }
    // True once close() or abort() was called and every frame was taken.
    bool isDrained() const;

    // What a presenter decides on, read in one lock.
    struct Contents {
        int frames = 0;
        // FrameTag::chunkIndex() of the newest frame ever pushed; -1 before the first.
        qint64 newest_chunk = -1;
        // close() or abort() was called: no frame will follow those queued.
        bool closed = false;
    };
    Contents contents() const;

    // Any thread; a blocked push() re-checks at once. At least 1.
    void setCapacity(int capacity);
    int capacity() const;
    int size() const;
    int highWater() const;

private:
    int m_capacity;
    mutable std::mutex m_mutex;
    std::condition_variable m_not_full;
    std::condition_variable m_not_empty;
    std::deque<DecodedFrame> m_frames;
    int m_high_water = 0;
    qint64 m_newest_chunk = -1;
    bool m_closed = false;
    bool m_aborted = false;
};

} // namespace lbm::media
