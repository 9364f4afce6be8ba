#include "app/media/bounded_frame_queue.h"

#include <algorithm>
#include <chrono>

namespace lbm::media {

BoundedFrameQueue::BoundedFrameQueue(int capacity)
    : m_capacity(std::max(capacity, 1)) {}

BoundedFrameQueue::PushResult BoundedFrameQueue::push(DecodedFrame frame) {
    bool was_empty = false;
    {
        std::unique_lock lock(m_mutex);
        m_not_full.wait(
            lock, [&] { return m_aborted || static_cast<int>(m_frames.size()) < m_capacity; });
        if (m_aborted) {
            return PushResult::Aborted;
        }
        was_empty = m_frames.empty();
        m_newest_chunk = frame.tag().chunkIndex();
        m_frames.push_back(std::move(frame));
        m_high_water = std::max(m_high_water, static_cast<int>(m_frames.size()));
    }
    m_not_empty.notify_one();
    return was_empty ? PushResult::QueuedAfterEmpty : PushResult::Queued;
}

void BoundedFrameQueue::close() {
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
    }
    m_not_empty.notify_all();
}

void BoundedFrameQueue::abort() {
    {
        std::lock_guard lock(m_mutex);
        m_aborted = true;
        m_frames.clear();
    }
    m_not_full.notify_all();
    m_not_empty.notify_all();
}

std::optional<DecodedFrame> BoundedFrameQueue::pop(int timeout_ms) {
    std::optional<DecodedFrame> frame;
    {
        std::unique_lock lock(m_mutex);
        const auto ready = [&] { return m_aborted || m_closed || !m_frames.empty(); };
        if (timeout_ms < 0) {
            m_not_empty.wait(lock, ready);
        } else if (!m_not_empty.wait_for(lock, std::chrono::milliseconds(timeout_ms), ready)) {
            return std::nullopt;
        }
        if (m_aborted || m_frames.empty()) {
            return std::nullopt;
        }
        frame = std::move(m_frames.front());
        m_frames.pop_front();
    }
    m_not_full.notify_one();
    return frame;
}

bool BoundedFrameQueue::isDrained() const {
    std::lock_guard lock(m_mutex);
    return (m_closed || m_aborted) && m_frames.empty();
}

BoundedFrameQueue::Contents BoundedFrameQueue::contents() const {
    std::lock_guard lock(m_mutex);
    return Contents{static_cast<int>(m_frames.size()), m_newest_chunk, m_closed || m_aborted};
}

void BoundedFrameQueue::setCapacity(int capacity) {
    {
        std::lock_guard lock(m_mutex);
        m_capacity = std::max(capacity, 1);
    }
    m_not_full.notify_all();
}

int BoundedFrameQueue::capacity() const {
    std::lock_guard lock(m_mutex);
    return m_capacity;
}

int BoundedFrameQueue::size() const {
    std::lock_guard lock(m_mutex);
    return static_cast<int>(m_frames.size());
}

int BoundedFrameQueue::highWater() const {
    std::lock_guard lock(m_mutex);
    return m_high_water;
}

} // namespace lbm::media
