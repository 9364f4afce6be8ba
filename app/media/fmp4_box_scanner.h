#pragma once
// Walks the top-level ISO-BMFF boxes of a byte stream as it arrives, without buffering it.
// The decoder uses it to catch a broken box structure the moment the bad header arrives
// (libavformat's mov demuxer would otherwise skip or wait on a garbage size), and the
// remuxer uses it to find the longest prefix of a truncated recording that holds only
// whole fragments.

#include <QString>
#include <QtGlobal>

#include <array>
#include <cstdint>
#include <vector>

namespace lbm::media {

class Fmp4BoxScanner {
public:
    struct Box {
        std::array<char, 4> type{};
        qint64 offset = 0;
        qint64 size_bytes = 0;
        QString typeName() const { return QString::fromLatin1(type.data(), 4); }
    };

    // record_boxes keeps every completed box (for tests and tools); a live stream leaves
    // it off so memory stays flat however long the session runs.
    explicit Fmp4BoxScanner(bool record_boxes = false);

    // Feeds the next size bytes of the stream. Returns false once the stream stops looking
    // like fragmented MP4; errorString() and errorOffset() then say why and where.
    bool consume(const uint8_t* data, qint64 size);

    bool failed() const { return !m_error.isEmpty(); }
    const QString& errorString() const { return m_error; }
    // Stream offset of the box header that was rejected.
    qint64 errorOffset() const { return m_error_offset; }

    qint64 bytesConsumed() const { return m_offset; }
    // True while the stream has stopped inside a box (a truncated recording or a stream
    // that is still arriving).
    bool insideBox() const { return m_header_length > 0 || m_payload_remaining > 0; }
    qint64 currentBoxOffset() const { return m_box_offset; }
    // End of the last complete box after which a demuxer has only whole fragments: a
    // trailing moof whose mdat is missing does not count.
    qint64 playableEnd() const { return m_playable_end; }
    qint64 completeMediaBoxes() const { return m_complete_mdat_count; }
    const std::vector<Box>& boxes() const { return m_boxes; }

private:
    bool acceptHeader();
    void completeBox();

    bool m_record_boxes;
    std::array<uint8_t, 16> m_header{};
    int m_header_length = 0;
    int m_header_needed = 8;
    qint64 m_payload_remaining = 0;
    qint64 m_offset = 0;
    qint64 m_box_offset = 0;
    Box m_current;
    qint64 m_playable_end = 0;
    qint64 m_complete_mdat_count = 0;
    qint64 m_box_count = 0;
    std::vector<Box> m_boxes;
    QString m_error;
    qint64 m_error_offset = -1;
};

} // namespace lbm::media
