#pragma once
// Decodes the session's fragmented-MP4 byte stream incrementally on its own thread, the way
// ffplay's read + decode threads do: libavformat's mov demuxer reads through a custom
// AVIOContext whose read callback blocks until the network side pushes more bytes, and
// libavcodec decodes H.264 (receive until EAGAIN, then send; drain at the end). Frames come
// out tagged with their chunk, their index in it and their global number, through one
// bounded picture queue (the decoder's own, or the presenter's): a slow consumer stalls the
// decoder, never the network thread.
//
// Threading contract:
//  - pushChunk(), finish(), abort() and stats() may be called from any thread and never
//    wait for the decoder (a short lock to append, then a notify).
//  - popFrame() is for one consumer thread; it blocks only the caller.
//  - DecoderOptions::frame_observer runs on the decoder thread.
//  - Signals are emitted from the decoder thread; connect with the default (auto) type and
//    receivers living on other threads get them queued.
//  - The decoder thread starts in the constructor; the destructor aborts and joins it.

#include "app/media/bounded_frame_queue.h"
#include "app/media/chunk_byte_queue.h"
#include "app/media/decoded_frame.h"
#include "app/media/decoder_stats.h"
#include "metrics/chunk_record.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace lbm::media {

using FrameObserver = std::function<void(const DecodedFrame& frame)>;

struct DecoderOptions {
    // Frames the decoder may get ahead of the consumer before it blocks (its own queue).
    int frame_queue_capacity = 32;
    // The picture queue frames go to when a presenter owns it (shared, so it outlives the
    // decoder for a presenter still showing its last frames); null: the decoder's own.
    std::shared_ptr<BoundedFrameQueue> picture_queue;
    // False: frames go to frame_observer only and none is queued (nobody presents them).
    bool queue_frames = true;
    // Sees every frame on the decoder thread before it is queued (counting, analysis), in
    // stream order. It holds up decoding while it runs, so it must hand work on, not do it.
    FrameObserver frame_observer;
    // libavcodec threads; 0 lets FFmpeg choose from the core count.
    int thread_count = 0;
    // Slice threads only (and AV_CODEC_FLAG_LOW_DELAY), so a frame leaves the decoder as soon
    // as its packet is in. Frame threading decodes faster but holds thread_count - 1 frames
    // back until later bytes arrive, which a live view cannot afford.
    bool low_latency = true;
};

class StreamDecoder : public QObject {
    Q_OBJECT
public:
    explicit StreamDecoder(const DecoderOptions& options = {}, QObject* parent = nullptr);
    ~StreamDecoder() override;
    StreamDecoder(const StreamDecoder&) = delete;
    StreamDecoder& operator=(const StreamDecoder&) = delete;

    // Any thread, never blocks: hands one transport payload (media chunk or trailer) over.
    // A payload may also be handed over in pieces: consecutive pushes with the same
    // transport_index and kind extend one chunk (its num_frames counted once).
    void pushChunk(const ChunkIdentity& info, const QByteArray& bytes);
    // End of stream: the decoder drains what it has, then ends (state Finished).
    void finish();
    // Stops at once: a read blocked waiting for bytes and a push blocked on a full queue
    // both return; queued frames are dropped (state Aborted).
    void abort();

    // Consumer: the next frame in stream order. Waits up to timeout_ms (negative: until a
    // frame arrives or decoding ends). nullopt on timeout or once everything was taken.
    std::optional<DecodedFrame> popFrame(int timeout_ms = -1);
    // True once the decoder thread has ended and every frame was taken.
    bool isDrained() const;
    // True once the decoder thread has ended (every frame went to the observer and queue).
    bool hasEnded() const;
    qint64 framesDecoded() const { return m_frames_decoded.load(); }
    // Waits for the decoder thread to end (it may be blocked on a full queue until the
    // consumer pops). True when it ended within timeout_ms.
    bool waitForEnd(int timeout_ms) const;

    DecoderStats stats() const;
    const DecoderOptions& options() const { return m_options; }

    // generation index -> frames decoded for it.
    std::map<qint64, qint64> framesPerChunk() const;

signals:
    // The frame queue went from empty to non-empty (pop until popFrame(0) returns nullopt),
    // or a chunk's first or last frame was queued (a start buffer of whole chunks may now be
    // complete). At most a few per chunk, so a presenter need not poll.
    void framesAvailable();
    // "chunk 7: Invalid data found when processing input (...)". Decoding goes on after a
    // damaged frame; it stops (state Failed) when the container itself is broken.
    void errorOccurred(const QString& message);
    // The decoder thread ended; stats().state says how.
    void ended();

private:
    struct Worker;
    friend struct Worker;

    void run();
    void reportError(const QString& message, bool fatal);
    void endWith(DecoderState state);

    const DecoderOptions m_options;
    ChunkByteQueue m_bytes;
    const std::shared_ptr<BoundedFrameQueue> m_frames;

    mutable std::mutex m_status_mutex;
    mutable std::condition_variable m_status_changed;
    DecoderState m_state = DecoderState::Running;
    int m_error_count = 0;
    QString m_first_error;
    std::map<qint64, qint64> m_frames_per_chunk; // guarded by m_status_mutex

    std::atomic<qint64> m_frames_decoded{0};
    std::atomic<qint64> m_frames_corrupt{0};
    std::atomic<qint64> m_frames_unexpected{0};
    std::thread m_thread;
};

} // namespace lbm::media
