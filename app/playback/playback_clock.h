#pragma once
// The live player's presenter, in ffplay's shape: the decoder thread fills one bounded
// picture queue, and this clock, on the GUI thread, takes each frame off it at its slot and
// hands it to the view (a presenter callback). What to show when is PlaybackSchedule's
// decision, a function of the time and of what the queue holds; the clock reads the time
// from a time source (steady_clock by default; tests inject a virtual one) and is driven by
// one single-shot timer armed for the next decision, as Qt Multimedia's playback engine
// drives its frames, plus update() whenever the queue changes (the decoder says so a few
// times per chunk, never per poll).

#include "app/media/bounded_frame_queue.h"
#include "app/media/decoded_frame.h"
#include "app/playback/playback_schedule.h"
#include "app/playback/playback_stalls.h"

#include <QObject>
#include <QTimer>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace lbm::playback {

class PlaybackClock : public QObject {
    Q_OBJECT
public:
    using State = PlaybackState;
    using TimePoint = PlaybackSchedule::TimePoint;
    using TimeSource = std::function<TimePoint()>;
    // Shows a frame (the view's job; called on the clock's thread at the frame's slot).
    using Presenter = std::function<void(const media::DecodedFrame& frame)>;

    explicit PlaybackClock(QObject* parent = nullptr);

    // Both apply from the next reset(). fps must be positive, chunks at least 1.
    void setTargetFps(double fps);
    void setStartBufferChunks(int chunks);
    double targetFps() const { return m_fps; }
    int startBufferChunks() const { return m_start_buffer_chunks; }

    // May be empty (frames are then only signalled).
    void setPresenter(Presenter presenter);
    // Where "now" comes from; for tests on virtual time.
    void setTimeSource(TimeSource now);

    // Follows a new stream whose frames the decoder queues in pictures (null: no stream, the
    // clock is Idle); every frame and stall of the last one is forgotten.
    void reset(std::shared_ptr<media::BoundedFrameQueue> pictures = nullptr);
    // How many frames a chunk holds (its metadata), so the start buffer can be judged.
    void announceChunk(qint64 chunk_index, int num_frames);
    // Decides again now: the queue changed (frames came, the stream ended) or time passed.
    // Shows whatever is due and re-arms the timer for the next decision.
    void update();

    // The viewer side.
    void pause();
    void resume();
    // While paused: shows the next queued frame. False when there is none.
    bool stepForward();

    State state() const { return m_schedule.state(); }
    PlaybackStalls stalls() const { return m_schedule.stalls(m_now()); }
    qint64 framesPresented() const { return m_schedule.framesPresented(); }
    int queuedFrames() const { return m_pictures ? m_pictures->size() : 0; }
    // Seconds of decoded video waiting to be shown.
    double bufferedAheadSeconds() const { return queuedFrames() / m_fps; }
    const std::optional<media::DecodedFrame>& currentFrame() const { return m_current; }
    // How late the last frame went to the sink against its ideal slot.
    std::chrono::nanoseconds lastPresentationError() const { return m_last_error; }
    // When the timer is armed to decide next; nullopt while waiting for the queue.
    std::optional<TimePoint> nextWakeUp() const { return m_wake_at; }

signals:
    // A frame went to the sink. lateness is actual minus ideal presentation time (zero or
    // positive; a frame that ends a stall has its own new slot, so it is not "late").
    void framePresented(const lbm::media::DecodedFrame& frame, std::chrono::nanoseconds lateness);
    void stateChanged(lbm::playback::PlaybackState state);
    void stallStarted();
    void stallEnded(double duration_s);

private:
    QueueView queueView() const;
    void showFront(std::chrono::nanoseconds lateness);
    // Runs change (a schedule call), then signals what it changed.
    template <typename Change>
    void applying(Change change);
    void arm(std::optional<TimePoint> wake_at);

    double m_fps = 16.0;
    int m_start_buffer_chunks = 1;
    Presenter m_presenter;
    TimeSource m_now;
    QTimer m_timer;
    std::optional<TimePoint> m_wake_at;

    PlaybackSchedule m_schedule;
    std::shared_ptr<media::BoundedFrameQueue> m_pictures;
    std::optional<media::DecodedFrame> m_current;
    std::chrono::nanoseconds m_last_error{0};
};

} // namespace lbm::playback
