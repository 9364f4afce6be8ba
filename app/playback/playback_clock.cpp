#include "app/playback/playback_clock.h"

#include <algorithm>
#include <cmath>

namespace lbm::playback {

namespace {

using namespace std::chrono_literals;

// A frame is shown when the timer fires within this of its slot, early or late. Qt's precise
// timer keeps to about a millisecond and the screen shows a frame only at its next refresh
// (16.7 ms at 60 Hz), so waiting out the last millisecond by spinning (as this clock once
// did, 1-2 % of a core at 16 fps) buys nothing a viewer can see; ffplay allows 10 ms.
constexpr auto kSlotTolerance = 2ms;

double secondsBetween(PlaybackClock::SteadyClock::time_point from,
                      PlaybackClock::SteadyClock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

} // namespace

PlaybackClock::PlaybackClock(QObject* parent)
    : QObject(parent) {
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &PlaybackClock::onTimer);
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

void PlaybackClock::reset() {
    m_timer.stop();
    m_queue.clear();
    m_current.reset();
    m_announced_frames.clear();
    m_received_frames.clear();
    m_highest_chunk_seen = -1;
    m_stream_finished = false;
    m_frames_since_anchor = 0;
    m_frames_presented = 0;
    m_last_error = std::chrono::nanoseconds{0};
    m_stall_count = 0;
    m_stall_total_s = 0.0;
    m_stall_longest_s = 0.0;
    m_stall_accumulated_s = 0.0;
    m_in_stall = false;
    setState(State::Buffering);
}

void PlaybackClock::announceChunk(qint64 chunk_index, int num_frames) {
    m_announced_frames[chunk_index] = num_frames;
    maybeStart();
}

void PlaybackClock::addFrame(const PlaybackFrame& frame) {
    if (m_state == State::Idle || m_state == State::Finished) {
        // A frame without a reset() belongs to a new stream.
        if (m_state == State::Idle) {
            setState(State::Buffering);
        } else {
            return;
        }
    }
    m_queue.push_back(frame);
    ++m_received_frames[frame.chunk_index];
    m_highest_chunk_seen = std::max(m_highest_chunk_seen, frame.chunk_index);

    if (m_state == State::Buffering) {
        maybeStart();
    } else if (m_state == State::Stalled) {
        const auto now = SteadyClock::now();
        endStall(now);
        setState(State::Playing);
        anchorAt(now);
        presentFront(now, now);
        scheduleNext();
    }
}

void PlaybackClock::finishStream() {
    m_stream_finished = true;
    if (m_state == State::Buffering) {
        if (m_queue.empty()) {
            setState(State::Finished);
        } else {
            maybeStart();
        }
    } else if (m_state == State::Stalled) {
        endStall(SteadyClock::now());
        setState(State::Finished);
    }
}

void PlaybackClock::pause() {
    if (m_state != State::Playing && m_state != State::Stalled && m_state != State::Buffering) {
        return;
    }
    m_timer.stop();
    if (m_state == State::Stalled) {
        // Time spent paused is the viewer's choice, not a stall.
        m_stall_accumulated_s += secondsBetween(m_stall_began, SteadyClock::now());
    }
    m_state_before_pause = m_state;
    setState(State::Paused);
}

void PlaybackClock::resume() {
    if (m_state != State::Paused) {
        return;
    }
    const auto now = SteadyClock::now();
    if (m_state_before_pause == State::Buffering) {
        setState(State::Buffering);
        maybeStart();
        return;
    }
    if (!m_queue.empty()) {
        if (m_in_stall) {
            endStall(now);
        }
        setState(State::Playing);
        anchorAt(now);
        presentFront(now, now);
        scheduleNext();
        return;
    }
    if (m_stream_finished) {
        if (m_in_stall) {
            endStall(now);
        }
        setState(State::Finished);
        return;
    }
    beginStall(now);
}

bool PlaybackClock::stepForward() {
    if (m_state != State::Paused || m_queue.empty()) {
        return false;
    }
    const auto now = SteadyClock::now();
    presentFront(now, now);
    return true;
}

PlaybackStalls PlaybackClock::stalls() const {
    PlaybackStalls stalls;
    stalls.count = m_stall_count;
    if (m_in_stall) {
        stalls.ongoing_s = m_stall_accumulated_s;
        if (m_state == State::Stalled) {
            stalls.ongoing_s += secondsBetween(m_stall_began, SteadyClock::now());
        }
    }
    stalls.total_s = m_stall_total_s + stalls.ongoing_s;
    stalls.longest_s = std::max(m_stall_longest_s, stalls.ongoing_s);
    return stalls;
}

void PlaybackClock::setState(State state) {
    if (m_state == state) {
        return;
    }
    m_state = state;
    emit stateChanged(state);
}

bool PlaybackClock::startBufferReady() const {
    if (m_queue.empty()) {
        return false;
    }
    if (m_stream_finished || m_highest_chunk_seen >= m_start_buffer_chunks) {
        return true;
    }
    // Frames arrive in stream order, so chunks below the highest one seen are complete;
    // the newest one is complete when its metadata's frame count has been decoded.
    for (qint64 chunk = 0; chunk < m_start_buffer_chunks; ++chunk) {
        const auto announced = m_announced_frames.find(chunk);
        const auto received = m_received_frames.find(chunk);
        if (announced == m_announced_frames.end() || received == m_received_frames.end() ||
            received->second < announced->second) {
            return false;
        }
    }
    return true;
}

void PlaybackClock::maybeStart() {
    if (m_state != State::Buffering || !startBufferReady()) {
        return;
    }
    const auto now = SteadyClock::now();
    setState(State::Playing);
    anchorAt(now);
    presentFront(now, now);
    scheduleNext();
}

void PlaybackClock::scheduleNext() {
    const auto remaining = nextSlot() - SteadyClock::now();
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::max<SteadyClock::duration>(remaining, SteadyClock::duration{0}));
    m_timer.start(wait);
}

void PlaybackClock::onTimer() {
    if (m_state != State::Playing) {
        return;
    }
    const auto slot = nextSlot();
    const auto now = SteadyClock::now();
    if (slot - now > kSlotTolerance) {
        scheduleNext();
        return;
    }
    if (m_queue.empty()) {
        if (m_stream_finished) {
            setState(State::Finished);
        } else {
            // The stall began when the frame was due, not when we noticed.
            beginStall(slot);
        }
        return;
    }
    if (now - slot > period()) {
        // Far behind (the event loop was blocked): showing the backlog back to back would
        // be a fast-forward, so the cadence restarts from here instead.
        anchorAt(now);
        presentFront(now, slot);
    } else {
        presentFront(now, slot);
    }
    scheduleNext();
}

void PlaybackClock::presentFront(SteadyClock::time_point now, SteadyClock::time_point ideal) {
    PlaybackFrame frame = std::move(m_queue.front());
    m_queue.pop_front();
    ++m_frames_since_anchor;
    ++m_frames_presented;
    m_last_error = std::chrono::duration_cast<std::chrono::nanoseconds>(now - ideal);
    m_current = frame;
    if (m_presenter) {
        m_presenter(frame);
    }
    emit framePresented(frame, m_last_error);
}

void PlaybackClock::anchorAt(SteadyClock::time_point time) {
    m_anchor_time = time;
    m_frames_since_anchor = 0;
}

PlaybackClock::SteadyClock::time_point PlaybackClock::nextSlot() const {
    const auto offset = std::chrono::duration_cast<SteadyClock::duration>(
        std::chrono::duration<double>(static_cast<double>(m_frames_since_anchor) / m_fps));
    return m_anchor_time + offset;
}

std::chrono::nanoseconds PlaybackClock::period() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::duration<double>(1.0 / m_fps));
}

void PlaybackClock::beginStall(SteadyClock::time_point at) {
    if (!m_in_stall) {
        ++m_stall_count;
        m_in_stall = true;
        m_stall_accumulated_s = 0.0;
        emit stallStarted();
    }
    m_stall_began = at;
    setState(State::Stalled);
}

void PlaybackClock::endStall(SteadyClock::time_point at) {
    if (!m_in_stall) {
        return;
    }
    double duration_s = m_stall_accumulated_s;
    if (m_state == State::Stalled) {
        duration_s += std::max(0.0, secondsBetween(m_stall_began, at));
    }
    m_in_stall = false;
    m_stall_accumulated_s = 0.0;
    m_stall_total_s += duration_s;
    m_stall_longest_s = std::max(m_stall_longest_s, duration_s);
    emit stallEnded(duration_s);
}

} // namespace lbm::playback
