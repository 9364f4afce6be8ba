#pragma once
// The LL-HLS media playlist of one broadcast session (RFC 8216bis): segments (one per
// generation chunk) made of partial segments, every one a byte range of the session's stream.
// It renders the playlist text (EXT-X-PART for the newest segments, EXT-X-PRELOAD-HINT for the
// next part, EXT-X-SERVER-CONTROL with CAN-BLOCK-RELOAD) and answers what blocking reloads
// and preload-hinted requests wait for. A PLAYLIST-TYPE:EVENT playlist: segments are only
// ever appended, so at the end EXT-X-ENDLIST turns the same URL into the whole session.

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <optional>
#include <vector>

namespace lbm::broadcast {

struct ByteRange {
    qint64 offset = 0;
    qint64 size_bytes = 0;
    qint64 end() const { return offset + size_bytes; }
};

struct HlsPart {
    ByteRange bytes;
    double duration_s = 0.0;
    int frames = 0;
    bool independent = false; // starts with a sync sample
};

struct HlsSegment {
    qint64 sequence = 0;          // the media sequence number (MSN)
    qint64 generation_chunk = -1; // the chunk its frames belong to
    std::vector<HlsPart> parts;   // in order; contiguous bytes
    bool complete = false;
    double durationS() const;
    int frames() const;
    ByteRange bytes() const;
};

struct PlaylistTiming {
    int target_duration_s = 1; // EXT-X-TARGETDURATION: whole seconds, never changes
    double part_target_s = 0.25;
    double partHoldBackS() const { return 3.0 * part_target_s; } // the RFC's SHOULD
};

class LlHlsPlaylist {
public:
    // Set once, before the first part (the RFC forbids changing either later).
    void setTiming(const PlaylistTiming& timing) { m_timing = timing; }
    const PlaylistTiming& timing() const { return m_timing; }

    // Opens the next segment (closing the open one) for the given generation chunk.
    void openSegment(qint64 generation_chunk);
    void appendPart(const HlsPart& part);
    void closeSegment();
    // The session ended: no more parts; the playlist gets EXT-X-ENDLIST.
    void end();

    bool ended() const { return m_ended; }
    bool hasParts() const { return !m_segments.empty() && !m_segments.front().parts.empty(); }
    const std::vector<HlsSegment>& segments() const { return m_segments; }
    const HlsSegment* segment(qint64 sequence) const;
    const HlsPart* part(qint64 sequence, qint64 part_index) const;
    // The part the preload hint names: (sequence, index); nullopt once ended.
    std::optional<std::pair<qint64, qint64>> nextPart() const;

    // A blocking reload (_HLS_msn, _HLS_part) may be answered now: the playlist holds that
    // part (or that whole segment without _HLS_part), or the session ended.
    bool satisfies(qint64 sequence, std::optional<qint64> part_index) const;
    // _HLS_msn beyond the next segment plus two: the RFC's 400 Bad Request.
    bool tooFarAhead(qint64 sequence) const;

    // The playlist text; segment and part URIs are relative ("seg3.m4s", "part3.1.m4s").
    QByteArray render() const;

    static QString segmentUri(qint64 sequence);
    static QString partUri(qint64 sequence, qint64 part_index);

private:
    PlaylistTiming m_timing;
    std::vector<HlsSegment> m_segments;
    bool m_ended = false;
};

} // namespace lbm::broadcast
