#include "app/playback/playback_schedule.h"

#include <algorithm>
#include <cmath>

namespace lbm::playback {

namespace {

using namespace std::chrono_literals;

// A frame is shown when asked within this of its slot, early or late. Qt's precise timer
// keeps to about a millisecond and the screen shows a frame only at its next refresh
// (16.7 ms at 60 Hz), so waiting out the last millisecond by spinning buys nothing a viewer
// can see; ffplay allows 10 ms.
constexpr auto kSlotTolerance = 2ms;

double secondsBetween(PlaybackSchedule::TimePoint from, PlaybackSchedule::TimePoint to) {
    return std::chrono::duration<double>(to - from).count();
}

} // namespace

PlaybackSchedule::PlaybackSchedule(double fps, int start_buffer_chunks)
    : m_fps(fps > 0 && std::isfinite(fps) ? fps : 16.0)
    , m_start_buffer_chunks(std::max(1, start_buffer_chunks)) {}

void PlaybackSchedule::restart() {
    *this = PlaybackSchedule(m_fps, m_start_buffer_chunks);
    m_state = PlaybackState::Buffering;
}

void PlaybackSchedule::announceChunk(qint64 chunk_index, int num_frames) {
    m_announced_frames[chunk_index] = num_frames;
}

PlaybackSchedule::Decision PlaybackSchedule::decide(TimePoint now, const QueueView& queue) {
    switch (m_state) {
    case PlaybackState::Idle:
        if (queue.frames == 0) {
            return wait();
        }
        m_state = PlaybackState::Buffering; // frames without a restart(): a new stream
        [[fallthrough]];
    case PlaybackState::Buffering:
        if (queue.frames == 0 && queue.closed) {
            m_state = PlaybackState::Finished;
            return wait();
        }
        if (!startBufferReady(queue)) {
            return wait();
        }
        m_state = PlaybackState::Playing;
        anchorAt(now);
        return present(now, now);
    case PlaybackState::Stalled:
        if (queue.frames > 0) {
            endStall(now);
            m_state = PlaybackState::Playing;
            anchorAt(now);
            return present(now, now);
        }
        if (queue.closed) {
            endStall(now);
            m_state = PlaybackState::Finished;
        }
        return wait();
    case PlaybackState::Playing: {
        const TimePoint slot = nextSlot();
        if (slot - now > kSlotTolerance) {
            return wait(slot);
        }
        if (queue.frames == 0) {
            if (queue.closed) {
                m_state = PlaybackState::Finished;
            } else {
                beginStall(slot); // it began when the frame was due, not when we noticed
            }
            return wait();
        }
        if (now - slot > period()) {
            // Far behind (the event loop was blocked): showing the backlog back to back would
            // be a fast-forward, so the cadence restarts from here instead.
            anchorAt(now);
        }
        return present(now, slot);
    }
    case PlaybackState::Paused:
    case PlaybackState::Finished:
        return wait();
    }
    return wait();
}

void PlaybackSchedule::pause(TimePoint now) {
    if (m_state != PlaybackState::Playing && m_state != PlaybackState::Stalled &&
        m_state != PlaybackState::Buffering) {
        return;
    }
    if (m_state == PlaybackState::Stalled) {
        // Time spent paused is the viewer's choice, not a stall.
        m_stall_accumulated_s += secondsBetween(m_stall_began, now);
    }
    m_state_before_pause = m_state;
    m_state = PlaybackState::Paused;
}

void PlaybackSchedule::resume(TimePoint now, const QueueView& queue) {
    if (m_state != PlaybackState::Paused) {
        return;
    }
    if (m_state_before_pause == PlaybackState::Buffering) {
        m_state = PlaybackState::Buffering;
        return;
    }
    if (queue.frames > 0) {
        if (m_in_stall) {
            endStall(now);
        }
        m_state = PlaybackState::Playing;
        anchorAt(now); // the front frame's slot is now
        return;
    }
    if (queue.closed) {
        if (m_in_stall) {
            endStall(now);
        }
        m_state = PlaybackState::Finished;
        return;
    }
    beginStall(now);
}

bool PlaybackSchedule::stepForward(const QueueView& queue) {
    if (m_state != PlaybackState::Paused || queue.frames == 0) {
        return false;
    }
    ++m_frames_presented;
    return true;
}

PlaybackStalls PlaybackSchedule::stalls(TimePoint now) const {
    PlaybackStalls stalls;
    stalls.count = m_stall_count;
    if (m_in_stall) {
        stalls.ongoing_s = m_stall_accumulated_s;
        if (m_state == PlaybackState::Stalled) {
            stalls.ongoing_s += std::max(0.0, secondsBetween(m_stall_began, now));
        }
    }
    stalls.total_s = m_stall_total_s + stalls.ongoing_s;
    stalls.longest_s = std::max(m_stall_longest_s, stalls.ongoing_s);
    return stalls;
}

bool PlaybackSchedule::startBufferReady(const QueueView& queue) const {
    if (queue.frames == 0) {
        return false;
    }
    if (queue.closed || queue.newest_chunk >= m_start_buffer_chunks) {
        return true;
    }
    // Nothing was shown yet, so the queue holds every frame decoded so far, in stream order:
    // the buffer is complete once it holds every frame the buffer's chunks announced.
    qint64 buffer_frames = 0;
    for (qint64 chunk = 0; chunk < m_start_buffer_chunks; ++chunk) {
        const auto announced = m_announced_frames.find(chunk);
        if (announced == m_announced_frames.end()) {
            return false;
        }
        buffer_frames += announced->second;
    }
    return m_frames_presented + queue.frames >= buffer_frames;
}

PlaybackSchedule::Decision PlaybackSchedule::present(TimePoint now, TimePoint ideal) {
    ++m_frames_since_anchor;
    ++m_frames_presented;
    Decision decision;
    decision.present = true;
    decision.lateness = std::max(std::chrono::nanoseconds{0},
                                 std::chrono::duration_cast<std::chrono::nanoseconds>(now - ideal));
    decision.wake_at = nextSlot();
    return decision;
}

PlaybackSchedule::Decision PlaybackSchedule::wait(std::optional<TimePoint> until) const {
    Decision decision;
    decision.wake_at = until;
    return decision;
}

void PlaybackSchedule::anchorAt(TimePoint time) {
    m_anchor_time = time;
    m_frames_since_anchor = 0;
}

PlaybackSchedule::TimePoint PlaybackSchedule::nextSlot() const {
    const auto offset = std::chrono::duration_cast<TimePoint::duration>(
        std::chrono::duration<double>(static_cast<double>(m_frames_since_anchor) / m_fps));
    return m_anchor_time + offset;
}

std::chrono::nanoseconds PlaybackSchedule::period() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::duration<double>(1.0 / m_fps));
}

void PlaybackSchedule::beginStall(TimePoint at) {
    if (!m_in_stall) {
        ++m_stall_count;
        m_in_stall = true;
        m_stall_accumulated_s = 0.0;
    }
    m_stall_began = at;
    m_state = PlaybackState::Stalled;
}

void PlaybackSchedule::endStall(TimePoint at) {
    if (!m_in_stall) {
        return;
    }
    double duration_s = m_stall_accumulated_s;
    if (m_state == PlaybackState::Stalled) {
        duration_s += std::max(0.0, secondsBetween(m_stall_began, at));
    }
    m_in_stall = false;
    m_stall_accumulated_s = 0.0;
    m_stall_total_s += duration_s;
    m_stall_longest_s = std::max(m_stall_longest_s, duration_s);
    m_last_stall_s = duration_s;
}

} // namespace lbm::playback
