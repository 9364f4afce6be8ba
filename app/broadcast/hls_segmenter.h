#pragma once
// Turns the session's payloads (the chunk metadata and its fMP4 bytes, in arrival order) into
// the LL-HLS playlist, with no re-encode: one segment per generation chunk, partial segments
// of frames_per_part frames (a latent frame's 4 video frames by default). The server's muxer
// writes each frame's fragment one frame late, so chunk k's last frame arrives with chunk k+1
// (or the trailer): a segment closes when a frame of the next chunk arrives, and a part waits
// until it is full or its segment closes (so every part but a segment's last is exactly
// PART-TARGET long, as the RFC asks).

#include "app/broadcast/fmp4_fragment_splitter.h"
#include "app/broadcast/ll_hls_playlist.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <vector>

namespace lbm::broadcast {

struct SegmenterSettings {
    int frames_per_part = 4;
    // A steady chunk's frames (the protocol's 12): sets EXT-X-TARGETDURATION, which may not
    // change later; a longer chunk is cut into several segments rather than break it.
    int frames_per_segment = 12;
};

struct PayloadInfo {
    bool trailer = false;
    std::optional<qint64> generation_chunk; // media chunks
    int num_frames = 0;
};

class HlsSegmenter {
public:
    explicit HlsSegmenter(const SegmenterSettings& settings = {});

    // The next payload. Returns false (errorString()) when its bytes are not fMP4 the
    // broadcast can cut; the playlist then ends where it was.
    bool addPayload(const PayloadInfo& info, const QByteArray& bytes);
    // The session is over (after the trailer, or without one when it failed): the held frames
    // become the last part and the playlist gets EXT-X-ENDLIST.
    void finish();

    const LlHlsPlaylist& playlist() const { return m_playlist; }
    // The playlist has timing and at least one part: players may start.
    bool ready() const { return m_timing_known && m_playlist.hasParts(); }
    const Fmp4FragmentSplitter& splitter() const { return m_splitter; }
    ByteRange initRange() const { return {0, m_splitter.initSizeBytes()}; }
    qint64 streamBytes() const { return m_stream_bytes; }
    qint64 framesSeen() const { return m_frames_seen; }
    // The presentation time of the newest keyframe in a published part (0 before any): where a
    // player joining now can start a picture. The server's encoder makes one IDR per 250
    // frames, which rarely starts a part or a segment, so parts' INDEPENDENT flags miss most.
    double newestKeyframeS() const { return m_newest_keyframe_s; }
    const QString& errorString() const { return m_splitter.errorString(); }

private:
    void addFragment(const CmafFragment& fragment);
    qint64 chunkOfFrame(qint64 frame) const;
    void flushHeldPart();

    SegmenterSettings m_settings;
    Fmp4FragmentSplitter m_splitter;
    LlHlsPlaylist m_playlist;
    bool m_timing_known = false;
    double m_segment_limit_s = 0.0;
    // Media chunks' first global frame and frame count, in order.
    std::vector<std::pair<qint64, int>> m_chunk_frames;
    qint64 m_frames_announced = 0;
    qint64 m_frames_seen = 0;
    qint64 m_stream_bytes = 0;
    std::optional<qint64> m_open_chunk; // the open segment's chunk
    double m_open_duration_s = 0.0;
    std::vector<CmafFragment> m_held; // frames of the part being filled
    double m_published_s = 0.0;       // the published parts' total duration
    double m_newest_keyframe_s = 0.0;
};

} // namespace lbm::broadcast
