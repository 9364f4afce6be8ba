#include "app/playback/playback_clock.h"

#include <algorithm>
#include <cmath>

namespace lbm::playback {

PlaybackClock::PlaybackClock(QObject* parent)
    : QObject(parent)
    , m_now([] { return std::chrono::steady_clock::now(); }) {
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &PlaybackClock::update);
}

void PlaybackClock::setTargetFps(double fps) {
    if (fps > 0 && std::isfinite(fps)) {
        m_fps = fps;
    }
}

void PlaybackClock::setStartBufferChunks(int chunks) {
    m_start_buffer_chunks = std::max(1, chunks);
}

void PlaybackClock::setPresenter(Presenter presenter) {
    m_presenter = std::move(presenter);
}

void PlaybackClock::setTimeSource(TimeSource now) {
    m_now = std::move(now);
}

void PlaybackClock::reset(std::shared_ptr<media::BoundedFrameQueue> pictures) {
    arm(std::nullopt);
    m_pictures = std::move(pictures);
    m_current.reset();
    m_last_error = std::chrono::nanoseconds{0};
    applying([this] {
        m_schedule = PlaybackSchedule(m_fps, m_start_buffer_chunks);
        if (m_pictures) {
            m_schedule.restart(); // Buffering; without a stream the clock stays Idle
        }
    });
    update();
}

void PlaybackClock::announceChunk(qint64 chunk_index, int num_frames) {
    m_schedule.announceChunk(chunk_index, num_frames);
    update();
}

void PlaybackClock::update() {
    if (!m_pictures) {
        return;
    }
    // Each present moves the next slot a period on, so this ends within a frame or two even
    // after a late wake-up (the schedule re-anchors when it is a whole period behind).
    for (;;) {
        PlaybackSchedule::Decision decision;
        applying([&] { decision = m_schedule.decide(m_now(), queueView()); });
        if (decision.present) {
            showFront(decision.lateness);
        }
        if (!decision.present || m_schedule.state() != State::Playing) {
            arm(decision.wake_at);
            return;
        }
        if (decision.wake_at && *decision.wake_at > m_now()) {
            arm(decision.wake_at);
            return;
        }
    }
}

void PlaybackClock::pause() {
    applying([this] { m_schedule.pause(m_now()); });
    if (state() == State::Paused) {
        arm(std::nullopt);
    }
}

void PlaybackClock::resume() {
    if (state() != State::Paused || !m_pictures) {
        return;
    }
    applying([this] { m_schedule.resume(m_now(), queueView()); });
    update();
}

bool PlaybackClock::stepForward() {
    if (!m_pictures || !m_schedule.stepForward(queueView())) {
        return false;
    }
    showFront(std::chrono::nanoseconds{0});
    return true;
}

QueueView PlaybackClock::queueView() const {
    const media::BoundedFrameQueue::Contents contents = m_pictures->contents();
    return QueueView{contents.frames, contents.newest_chunk, contents.closed};
}

void PlaybackClock::showFront(std::chrono::nanoseconds lateness) {
    // The clock is the queue's one consumer, so the frame it decided on is still in front.
    const auto picture = m_pictures->tryPop();
    if (!picture) {
        return; // aborted under us: the session was torn down
    }
    m_last_error = lateness;
    m_current = *picture;
    if (m_presenter) {
        m_presenter(*m_current);
    }
    emit framePresented(*m_current, lateness);
}

template <typename Change>
void PlaybackClock::applying(Change change) {
    const State state_before = m_schedule.state();
    const bool stalled_before = m_schedule.inStall();
    change();
    if (!stalled_before && m_schedule.inStall()) {
        emit stallStarted();
    } else if (stalled_before && !m_schedule.inStall()) {
        emit stallEnded(m_schedule.lastStallS());
    }
    if (m_schedule.state() != state_before) {
        emit stateChanged(m_schedule.state());
    }
}

void PlaybackClock::arm(std::optional<TimePoint> wake_at) {
    m_wake_at = wake_at;
    if (!wake_at) {
        m_timer.stop();
        return;
    }
    const auto remaining = std::max<TimePoint::duration>(*wake_at - m_now(), {});
    // Rounded up: waking a moment early would only find the slot not yet due.
    m_timer.start(std::chrono::ceil<std::chrono::milliseconds>(remaining));
}

} // namespace lbm::playback
