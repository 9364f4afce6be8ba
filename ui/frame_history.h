#pragma once
// Every frame the player showed, kept JPEG-compressed so the whole recording can be
// scrubbed after the session (about 40 KiB a frame instead of 1.6 MiB). Bounded: past
// max_frames the oldest frames are dropped and firstFrameNumber() says where it starts.

#include "app/playback/playback_frame.h"

#include <QByteArray>
#include <QImage>

#include <deque>
#include <optional>

namespace lbm::ui {

class FrameHistory {
public:
    explicit FrameHistory(int max_frames = 6000)
        : m_max_frames(max_frames) {}

    void clear();
    void add(const lbm::playback::PlaybackFrame& frame);
    int count() const { return static_cast<int>(m_frames.size()); }
    // The JPEG bytes held: what the history costs in memory (the soak attributes RSS by it).
    qint64 bytes() const { return m_bytes; }
    // The full-size picture and tags of the i-th kept frame; nullopt out of range.
    std::optional<lbm::playback::PlaybackFrame> frame(int i) const;
    qint64 chunkOf(int i) const;

private:
    struct Entry {
        QByteArray jpeg;
        qint64 frame_number;
        qint64 chunk_index;
        int index_in_chunk;
    };
    int m_max_frames;
    std::deque<Entry> m_frames;
    qint64 m_bytes = 0; // sum of m_frames' jpeg sizes
};

} // namespace lbm::ui
