#include "app/broadcast/ll_hls_playlist.h"

#include <cmath>

namespace lbm::broadcast {
namespace {

QString seconds(double value) {
    return QString::number(value, 'f', 5);
}

} // namespace

double HlsSegment::durationS() const {
    double total = 0.0;
    for (const HlsPart& part : parts) {
        total += part.duration_s;
    }
    return total;
}

int HlsSegment::frames() const {
    int total = 0;
    for (const HlsPart& part : parts) {
        total += part.frames;
    }
    return total;
}

ByteRange HlsSegment::bytes() const {
    if (parts.empty()) {
        return {};
    }
    return {parts.front().bytes.offset, parts.back().bytes.end() - parts.front().bytes.offset};
}

void LlHlsPlaylist::openSegment(qint64 generation_chunk) {
    closeSegment();
    HlsSegment segment;
    segment.sequence = static_cast<qint64>(m_segments.size());
    segment.generation_chunk = generation_chunk;
    m_segments.push_back(segment);
}

void LlHlsPlaylist::appendPart(const HlsPart& part) {
    if (m_segments.empty() || m_segments.back().complete) {
        openSegment(m_segments.empty() ? 0 : m_segments.back().generation_chunk + 1);
    }
    m_segments.back().parts.push_back(part);
}

void LlHlsPlaylist::closeSegment() {
    if (!m_segments.empty()) {
        HlsSegment& last = m_segments.back();
        if (last.parts.empty()) {
            m_segments.pop_back(); // opened, never filled: nothing to announce
        } else {
            last.complete = true;
        }
    }
}

void LlHlsPlaylist::end() {
    closeSegment();
    m_ended = true;
}

const HlsSegment* LlHlsPlaylist::segment(qint64 sequence) const {
    if (sequence < 0 || sequence >= static_cast<qint64>(m_segments.size())) {
        return nullptr;
    }
    return &m_segments[static_cast<size_t>(sequence)];
}

const HlsPart* LlHlsPlaylist::part(qint64 sequence, qint64 part_index) const {
    const HlsSegment* owner = segment(sequence);
    if (!owner || part_index < 0 || part_index >= static_cast<qint64>(owner->parts.size())) {
        return nullptr;
    }
    return &owner->parts[static_cast<size_t>(part_index)];
}

std::optional<std::pair<qint64, qint64>> LlHlsPlaylist::nextPart() const {
    if (m_ended) {
        return std::nullopt;
    }
    if (m_segments.empty()) {
        return std::make_pair(qint64(0), qint64(0));
    }
    const HlsSegment& last = m_segments.back();
    if (last.complete) {
        return std::make_pair(last.sequence + 1, qint64(0));
    }
    return std::make_pair(last.sequence, static_cast<qint64>(last.parts.size()));
}

bool LlHlsPlaylist::satisfies(qint64 sequence, std::optional<qint64> part_index) const {
    if (m_ended) {
        return true;
    }
    const HlsSegment* wanted = segment(sequence);
    if (!wanted) {
        return false;
    }
    if (!part_index) {
        return wanted->complete;
    }
    // A part index past the segment's last part means the next segment's first (RFC 8216bis
    // 6.2.5.2): answered once this segment is complete and a later part exists.
    if (*part_index < static_cast<qint64>(wanted->parts.size())) {
        return true;
    }
    return wanted->complete && segment(sequence + 1) && !segment(sequence + 1)->parts.empty();
}

bool LlHlsPlaylist::tooFarAhead(qint64 sequence) const {
    const qint64 last = m_segments.empty() ? -1 : m_segments.back().sequence;
    return !m_ended && sequence > last + 2;
}

QString LlHlsPlaylist::segmentUri(qint64 sequence) {
    return QStringLiteral("seg%1.m4s").arg(sequence);
}

QString LlHlsPlaylist::partUri(qint64 sequence, qint64 part_index) {
    return QStringLiteral("part%1.%2.m4s").arg(sequence).arg(part_index);
}

QByteArray LlHlsPlaylist::render() const {
    QString text = QStringLiteral("#EXTM3U\n#EXT-X-VERSION:6\n");
    text += QStringLiteral("#EXT-X-TARGETDURATION:%1\n").arg(m_timing.target_duration_s);
    text += QStringLiteral("#EXT-X-PLAYLIST-TYPE:EVENT\n#EXT-X-MEDIA-SEQUENCE:0\n");
    text += QStringLiteral("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=%1\n")
                .arg(seconds(m_timing.partHoldBackS()));
    text += QStringLiteral("#EXT-X-PART-INF:PART-TARGET=%1\n").arg(seconds(m_timing.part_target_s));
    text += QStringLiteral("#EXT-X-MAP:URI=\"init.mp4\"\n");

    // Parts are listed for the segments within three target durations of the live edge (the
    // RFC's minimum); older segments are plain EXTINF lines. A finished session keeps listing
    // its last ones: a player that is part-way through a segment when the session ends goes on
    // with the next part. Were the parts to vanish it would fetch the whole segment, whose
    // first frames it already has; Media Source takes a decode time going backwards for a
    // discontinuity and then drops every frame until a keyframe (here none before the end).
    size_t first_with_parts = m_segments.size();
    double from_end_s = 0.0;
    while (first_with_parts > 0) {
        from_end_s += m_segments[first_with_parts - 1].durationS();
        if (from_end_s > 3.0 * m_timing.target_duration_s) {
            break;
        }
        --first_with_parts;
    }
    for (size_t i = 0; i < m_segments.size(); ++i) {
        const HlsSegment& segment = m_segments[i];
        if (i >= first_with_parts) {
            for (size_t p = 0; p < segment.parts.size(); ++p) {
                const HlsPart& part = segment.parts[p];
                text += QStringLiteral("#EXT-X-PART:DURATION=%1,URI=\"%2\"%3\n")
                            .arg(seconds(part.duration_s),
                                 partUri(segment.sequence, static_cast<qint64>(p)),
                                 part.independent ? QStringLiteral(",INDEPENDENT=YES") : QString());
            }
        }
        if (segment.complete) {
            text += QStringLiteral("#EXTINF:%1,\n%2\n")
                        .arg(seconds(segment.durationS()), segmentUri(segment.sequence));
        }
    }
    if (const auto next = nextPart()) {
        text += QStringLiteral("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"%1\"\n")
                    .arg(partUri(next->first, next->second));
    }
    if (m_ended) {
        text += QStringLiteral("#EXT-X-ENDLIST\n");
    }
    return text.toUtf8();
}

} // namespace lbm::broadcast
