#pragma once
// The presentation clock of the live player: decoded frames wait in a queue and go to the
// view (a presenter callback) one per slot of the target fps, on a steady clock. It follows the
// seed's playback model as a real viewer lives it: nothing is shown until the start buffer (whole
// chunks) is decoded; when a frame is due and not there the player stalls, and the frame
// that lands next is shown at once and restarts the cadence. Every stall it really had is
// counted (count, total, longest).
//
// Slots are computed from an anchor (anchor time + n periods), never by adding timer
// intervals, so timer lateness does not accumulate as drift.

#include "app/playback/playback_frame.h"
#include "app/playback/playback_stalls.h"

#include <QObject>
#include <QTimer>

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <optional>

namespace lbm::playback {

class PlaybackClock : public QObject {
    Q_OBJECT
public:
    enum class State {
        Idle,      // no session
        Buffering, // waiting for the start buffer
        Playing,
        Stalled,  // a frame is due and has not been decoded yet
        Paused,   // by the viewer
        Finished, // the stream ended and every frame was shown
    };
    Q_ENUM(State)

    using SteadyClock = std::chrono::steady_clock;
    // Shows a frame (the view's job; called on the clock's thread at the frame's slot).
    using Presenter = std::function<void(const PlaybackFrame& frame)>;

    explicit PlaybackClock(QObject* parent = nullptr);

    // Both apply from the next reset(). fps must be positive, chunks at least 1.
    void setTargetFps(double fps);
    void setStartBufferChunks(int chunks);
    double targetFps() const { return m_fps; }
    int startBufferChunks() const { return m_start_buffer_chunks; }

    // May be empty (frames are then only signalled).
    void setPresenter(Presenter presenter);

    // Forgets every frame and stall and waits for a new stream.
    void reset();

    // The stream side. announceChunk() tells how many frames a chunk holds (its metadata),
    // so the start buffer can be judged complete; addFrame() queues a decoded frame (in
    // stream order); finishStream() says no frame will follow, so an empty queue from then
    // on is the end rather than a stall.
    void announceChunk(qint64 chunk_index, int num_frames);
    void addFrame(const PlaybackFrame& frame);
    void finishStream();

    // The viewer side.
    void pause();
    void resume();
    // While paused: shows the next queued frame. False when there is none.
    bool stepForward();

    State state() const { return m_state; }
    PlaybackStalls stalls() const;
    qint64 framesPresented() const { return m_frames_presented; }
    int queuedFrames() const { return static_cast<int>(m_queue.size()); }
    // Seconds of decoded video waiting to be shown.
    double bufferedAheadSeconds() const { return queuedFrames() / m_fps; }
    const std::optional<PlaybackFrame>& currentFrame() const { return m_current; }
    // How late the last frame went to the sink against its ideal slot.
    std::chrono::nanoseconds lastPresentationError() const { return m_last_error; }

signals:
    // A frame went to the sink. lateness is actual minus ideal presentation time (zero or
    // positive; a frame that ends a stall has its own new slot, so it is not "late").
    void framePresented(const lbm::playback::PlaybackFrame& frame,
                        std::chrono::nanoseconds lateness);
    void stateChanged(lbm::playback::PlaybackClock::State state);
    void stallStarted();
    void stallEnded(double duration_s);

private:
    void setState(State state);
    bool startBufferReady() const;
    void maybeStart();
    void scheduleNext();
    void onTimer();
    void presentFront(SteadyClock::time_point now, SteadyClock::time_point ideal);
    void anchorAt(SteadyClock::time_point time);
    SteadyClock::time_point nextSlot() const;
    std::chrono::nanoseconds period() const;
    void beginStall(SteadyClock::time_point at);
    void endStall(SteadyClock::time_point at);

    double m_fps = 16.0;
    int m_start_buffer_chunks = 1;
    Presenter m_presenter;
    QTimer m_timer;

    State m_state = State::Idle;
    State m_state_before_pause = State::Idle;
    std::deque<PlaybackFrame> m_queue;
    std::optional<PlaybackFrame> m_current;
    std::map<qint64, int> m_announced_frames; // chunk -> frames it holds
    std::map<qint64, int> m_received_frames;  // chunk -> frames decoded so far
    qint64 m_highest_chunk_seen = -1;
    bool m_stream_finished = false;

    SteadyClock::time_point m_anchor_time;
    qint64 m_frames_since_anchor = 0;
    qint64 m_frames_presented = 0;
    std::chrono::nanoseconds m_last_error{0};

    int m_stall_count = 0;
    double m_stall_total_s = 0.0;
    double m_stall_longest_s = 0.0;
    bool m_in_stall = false;
    // Stall time before a pause, while the stall continues after it.
    double m_stall_accumulated_s = 0.0;
    SteadyClock::time_point m_stall_began;
};

} // namespace lbm::playback
