#include "app/media/chunk_byte_queue.h"

#include <algorithm>
#include <cstring>

namespace lbm::media {

void ChunkByteQueue::append(const ChunkIdentity& info, const QByteArray& bytes) {
    {
        std::lock_guard lock(m_mutex);
        if (m_counters.finished || m_aborted.load()) {
            return;
        }
        if (!m_chunks.empty() && m_chunks.back().info.transport_index == info.transport_index &&
            m_chunks.back().info.kind == info.kind) {
            // A payload handed over in pieces: extend the chunk, count its frames once.
            m_chunks.back().end_offset += bytes.size();
        } else {
            ChunkSpan span;
            span.info = info;
            span.info.num_frames = std::max(info.num_frames, 0);
            span.begin_offset = m_counters.bytes_pushed;
            span.end_offset = span.begin_offset + bytes.size();
            span.first_frame = m_counters.frames_expected;
            m_chunks.push_back(span);
            m_counters.chunks += 1;
            m_counters.frames_expected += span.info.num_frames;
        }
        m_counters.bytes_pushed += bytes.size();
        if (!bytes.isEmpty()) {
            m_pending.push_back(bytes);
            m_counters.bytes_pending += bytes.size();
            m_counters.bytes_pending_high_water =
                std::max(m_counters.bytes_pending_high_water, m_counters.bytes_pending);
        }
    }
    m_readable.notify_one();
}

void ChunkByteQueue::finish() {
    {
        std::lock_guard lock(m_mutex);
        m_counters.finished = true;
    }
    m_readable.notify_all();
}

void ChunkByteQueue::abort() {
    {
        // Set under the lock so a reader between its predicate check and its wait cannot
        // miss the wake-up.
        std::lock_guard lock(m_mutex);
        m_aborted.store(true);
    }
    m_readable.notify_all();
}

int ChunkByteQueue::read(uint8_t* destination, int max_bytes) {
    if (max_bytes <= 0) {
        return 0;
    }
    QByteArray front;
    qint64 front_offset = 0;
    {
        std::unique_lock lock(m_mutex);
        m_readable.wait(
            lock, [&] { return m_aborted.load() || !m_pending.empty() || m_counters.finished; });
        if (m_aborted.load()) {
            return -1;
        }
        if (m_pending.empty()) {
            return 0;
        }
        front = m_pending.front();
        front_offset = m_front_consumed;
    }
    // The copy runs outside the lock (there is one reader, and the producer only appends),
    // so a large read never delays the network thread.
    const int copied = static_cast<int>(std::min<qint64>(max_bytes, front.size() - front_offset));
    std::memcpy(destination, front.constData() + front_offset, static_cast<size_t>(copied));
    std::lock_guard lock(m_mutex);
    m_front_consumed += copied;
    if (m_front_consumed == m_pending.front().size()) {
        m_pending.pop_front();
        m_front_consumed = 0;
    }
    m_counters.bytes_pending -= copied;
    m_counters.bytes_read += copied;
    return copied;
}

ChunkByteQueue::Counters ChunkByteQueue::counters() const {
    std::lock_guard lock(m_mutex);
    return m_counters;
}

std::optional<ChunkByteQueue::ChunkSpan> ChunkByteQueue::chunkAtOffset(qint64 offset) const {
    std::lock_guard lock(m_mutex);
    auto it = std::upper_bound(
        m_chunks.begin(), m_chunks.end(), offset,
        [](qint64 value, const ChunkSpan& span) { return value < span.end_offset; });
    // Skip empty payloads that share a boundary with the byte's real owner.
    while (it != m_chunks.end() && it->begin_offset == it->end_offset) {
        ++it;
    }
    if (it == m_chunks.end() || offset < it->begin_offset) {
        return std::nullopt;
    }
    return *it;
}

std::optional<ChunkByteQueue::ChunkSpan> ChunkByteQueue::chunkForFrame(qint64 global_frame) const {
    std::lock_guard lock(m_mutex);
    auto it = std::upper_bound(m_chunks.begin(), m_chunks.end(), global_frame,
                               [](qint64 value, const ChunkSpan& span) {
                                   return value < span.first_frame + span.info.num_frames;
                               });
    while (it != m_chunks.end() && it->info.num_frames <= 0) {
        ++it;
    }
    if (it == m_chunks.end() || global_frame < it->first_frame) {
        return std::nullopt;
    }
    return *it;
}

} // namespace lbm::media
