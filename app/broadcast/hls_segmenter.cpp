#include "app/broadcast/hls_segmenter.h"

#include <algorithm>
#include <cmath>

namespace lbm::broadcast {

HlsSegmenter::HlsSegmenter(const SegmenterSettings& settings)
    : m_settings(settings) {
    m_settings.frames_per_part = std::max(1, m_settings.frames_per_part);
    m_settings.frames_per_segment =
        std::max(m_settings.frames_per_part, m_settings.frames_per_segment);
}

bool HlsSegmenter::addPayload(const PayloadInfo& info, const QByteArray& bytes) {
    if (m_playlist.ended()) {
        return !m_splitter.failed();
    }
    if (!info.trailer && info.num_frames > 0) {
        // Registered before the bytes: the frames of this chunk that arrive in this payload
        // must already know where they belong.
        m_chunk_frames.emplace_back(m_frames_announced, info.num_frames);
        m_frames_announced += info.num_frames;
    }
    m_stream_bytes += bytes.size();
    for (const CmafFragment& fragment : m_splitter.consume(bytes)) {
        addFragment(fragment);
    }
    if (m_splitter.failed()) {
        finish();
        return false;
    }
    return true;
}

void HlsSegmenter::finish() {
    if (m_playlist.ended()) {
        return;
    }
    flushHeldPart();
    m_playlist.end();
}

qint64 HlsSegmenter::chunkOfFrame(qint64 frame) const {
    // Frames arrive in order, so the answer is nearly always one of the last two chunks.
    for (auto it = m_chunk_frames.rbegin(); it != m_chunk_frames.rend(); ++it) {
        if (frame >= it->first) {
            return static_cast<qint64>(m_chunk_frames.rend() - it) - 1;
        }
    }
    return 0;
}

void HlsSegmenter::addFragment(const CmafFragment& fragment) {
    const double timescale = m_splitter.timescale();
    const double duration_s = static_cast<double>(fragment.duration) / timescale;
    if (!m_timing_known) {
        // The first frame's duration fixes the timing for the session (the mux fps).
        const double frame_s = duration_s / std::max(1, fragment.sample_count);
        PlaylistTiming timing;
        timing.part_target_s = frame_s * m_settings.frames_per_part;
        m_segment_limit_s = frame_s * m_settings.frames_per_segment;
        timing.target_duration_s =
            std::max(1, static_cast<int>(std::ceil(m_segment_limit_s - 1e-6)));
        m_playlist.setTiming(timing);
        m_timing_known = true;
    }
    const qint64 chunk = chunkOfFrame(m_frames_seen);
    m_frames_seen += fragment.sample_count;
    const bool new_chunk = !m_open_chunk || *m_open_chunk != chunk;
    const bool too_long = m_open_chunk && m_open_duration_s + duration_s > m_segment_limit_s + 1e-6;
    if (new_chunk || too_long) {
        flushHeldPart();
        m_playlist.openSegment(chunk);
        m_open_chunk = chunk;
        m_open_duration_s = 0.0;
    }
    m_held.push_back(fragment);
    m_open_duration_s += duration_s;
    int held_frames = 0;
    for (const CmafFragment& held : m_held) {
        held_frames += held.sample_count;
    }
    if (held_frames >= m_settings.frames_per_part) {
        flushHeldPart();
    }
}

void HlsSegmenter::flushHeldPart() {
    if (m_held.empty()) {
        return;
    }
    HlsPart part;
    part.bytes = {m_held.front().stream_offset, m_held.back().stream_offset +
                                                    m_held.back().size_bytes -
                                                    m_held.front().stream_offset};
    const auto timescale = static_cast<double>(m_splitter.timescale());
    qint64 ticks = 0;
    for (const CmafFragment& held : m_held) {
        if (held.keyframe) {
            m_newest_keyframe_s = m_published_s + static_cast<double>(ticks) / timescale;
        }
        ticks += held.duration;
        part.frames += held.sample_count;
    }
    part.duration_s = static_cast<double>(ticks) / timescale;
    part.independent = m_held.front().keyframe;
    m_playlist.appendPart(part);
    m_published_s += part.duration_s;
    m_held.clear();
}

} // namespace lbm::broadcast
