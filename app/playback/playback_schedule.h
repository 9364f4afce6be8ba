#pragma once
// The live player's decisions, as pure functions of time and of what the picture queue
// holds: no timer, no clock of its own, no frames. PlaybackClock asks it what to do at a
// moment (show the queue's front frame now, or wait until a time or until the queue
// changes) and does it; tests ask it at virtual moments.
//
// It follows the seed's playback model as a real viewer lives it: nothing is shown until the
// start buffer (whole chunks) is decoded; when a frame is due and not there the player
// stalls, and the frame that lands next is shown at once and restarts the cadence. Every
// stall it really had is counted (count, total, longest). Slots are computed from an anchor
// (anchor time + n periods), never by adding timer intervals, so lateness in waking up does
// not accumulate as drift.

#include "app/playback/playback_stalls.h"

#include <QtGlobal>

#include <chrono>
#include <map>
#include <optional>

namespace lbm::playback {

enum class PlaybackState {
    Idle,      // no session
    Buffering, // waiting for the start buffer
    Playing,
    Stalled,  // a frame is due and has not been decoded yet
    Paused,   // by the viewer
    Finished, // the stream ended and every frame was shown
};

// The picture queue as the schedule sees it (media::BoundedFrameQueue::Contents).
struct QueueView {
    int frames = 0;
    // The chunk of the newest frame ever queued; -1 before the first.
    qint64 newest_chunk = -1;
    // No frame will follow those queued.
    bool closed = false;
};

class PlaybackSchedule {
public:
    using TimePoint = std::chrono::steady_clock::time_point;

    // fps must be positive (others are ignored), chunks at least 1.
    PlaybackSchedule(double fps = 16.0, int start_buffer_chunks = 1);

    // A new stream: every frame and stall forgotten, waiting for the start buffer.
    void restart();
    // How many frames a chunk holds (its metadata), so the start buffer can be judged
    // complete before a frame of the next chunk arrives.
    void announceChunk(qint64 chunk_index, int num_frames);

    struct Decision {
        // Show the queue's front frame now (the caller takes it off the queue).
        bool present = false;
        // How late that is against the frame's ideal slot (zero or positive; a frame that
        // ends a stall or starts playback has its own new slot, so it is not "late").
        std::chrono::nanoseconds lateness{0};
        // When to ask again; nullopt: once the queue changes (or the viewer acts).
        std::optional<TimePoint> wake_at;
    };
    // What to do at now with queue. After a present, ask again (the next slot may be due
    // too when the caller woke late).
    Decision decide(TimePoint now, const QueueView& queue);

    // The viewer. pause() holds the picture; resume() continues (ask decide() next); while
    // paused, stepForward() says whether the queue's front frame may be shown (the caller
    // takes it) and counts it.
    void pause(TimePoint now);
    void resume(TimePoint now, const QueueView& queue);
    bool stepForward(const QueueView& queue);

    PlaybackState state() const { return m_state; }
    PlaybackStalls stalls(TimePoint now) const;
    bool inStall() const { return m_in_stall; }
    // The length of the stall that ended last, for the caller's signal.
    double lastStallS() const { return m_last_stall_s; }
    qint64 framesPresented() const { return m_frames_presented; }
    double fps() const { return m_fps; }
    int startBufferChunks() const { return m_start_buffer_chunks; }

private:
    bool startBufferReady(const QueueView& queue) const;
    Decision present(TimePoint now, TimePoint ideal);
    Decision wait(std::optional<TimePoint> until = std::nullopt) const;
    void anchorAt(TimePoint time);
    TimePoint nextSlot() const;
    std::chrono::nanoseconds period() const;
    void beginStall(TimePoint at);
    void endStall(TimePoint at);

    double m_fps = 16.0;
    int m_start_buffer_chunks = 1;

    PlaybackState m_state = PlaybackState::Idle;
    PlaybackState m_state_before_pause = PlaybackState::Idle;
    std::map<qint64, int> m_announced_frames; // chunk -> frames it holds

    TimePoint m_anchor_time;
    qint64 m_frames_since_anchor = 0;
    qint64 m_frames_presented = 0;

    int m_stall_count = 0;
    double m_stall_total_s = 0.0;
    double m_stall_longest_s = 0.0;
    double m_last_stall_s = 0.0;
    bool m_in_stall = false;
    // Stall time before a pause, while the stall continues after it.
    double m_stall_accumulated_s = 0.0;
    TimePoint m_stall_began;
};

} // namespace lbm::playback
