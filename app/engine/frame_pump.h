#pragma once
// Takes the decoded frames off the decoder on its own thread, the one consumer the
// decoder's bounded queue allows, and fans each frame out: it counts it (per chunk), hands
// it to every frame consumer (the visual-quality analysis, a test reading barcodes) and,
// when a view presents frames, queues it in a bounded presentation queue. A full
// presentation queue blocks the pump, which blocks the decoder, so a paused or slow view
// holds compressed bytes rather than pictures, as ffplay's picture queue does.
//
// Consumers run on the pump thread and must not block; the frames are reference-counted
// FFmpeg buffers, so handing one on copies no pixels.

#include "app/media/bounded_frame_queue.h"
#include "app/media/decoded_frame.h"

#include <QtGlobal>

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace lbm::media {
class StreamDecoder;
}

namespace lbm::engine {

using FrameConsumer = std::function<void(const media::DecodedFrame& frame)>;

class FramePump {
public:
    struct Hooks {
        // The presentation queue went from empty to non-empty (pump thread).
        std::function<void()> presentation_ready;
        // Every frame was taken off the decoder and handed on (pump thread, once).
        std::function<void()> finished;
    };

    // presentation may be null (no view). Starts the thread.
    FramePump(media::StreamDecoder& decoder, std::vector<FrameConsumer> consumers,
              media::BoundedFrameQueue* presentation, Hooks hooks);
    // Aborts the presentation queue and joins; abort the decoder first so the pump's wait for
    // the next frame returns.
    ~FramePump();
    FramePump(const FramePump&) = delete;
    FramePump& operator=(const FramePump&) = delete;

    qint64 framesPumped() const { return m_frames.load(); }
    // generation index -> frames decoded for it.
    std::map<qint64, qint64> framesPerChunk() const;
    bool finished() const { return m_finished.load(); }

private:
    void run();

    media::StreamDecoder& m_decoder;
    const std::vector<FrameConsumer> m_consumers;
    media::BoundedFrameQueue* m_presentation;
    const Hooks m_hooks;
    std::atomic<qint64> m_frames{0};
    std::atomic<bool> m_finished{false};
    mutable std::mutex m_mutex;
    std::map<qint64, qint64> m_per_chunk;
    std::thread m_thread;
};

} // namespace lbm::engine
