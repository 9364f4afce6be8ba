#include "app/media/fmp4_box_scanner.h"

#include <algorithm>
#include <cstring>

namespace lbm::media {
namespace {

// Top-level boxes a fragmented MP4 stream may carry (ISO/IEC 14496-12 and DASH). Anything
// else at top level means the byte stream lost its framing.
constexpr std::array<const char*, 16> kTopLevelBoxes = {
    "ftyp", "styp", "moov", "moof", "mdat", "mfra", "sidx", "ssix",
    "prft", "emsg", "free", "skip", "wide", "uuid", "meta", "pdin"};

// One frame of 832x480 H.264 is tens of KiB; a box claiming more than this is a corrupt
// size field, and waiting for it would stall the decoder for the rest of the session.
constexpr qint64 kMaxBoxBytes = qint64(512) * 1024 * 1024;

quint32 readBigEndian32(const uint8_t* bytes) {
    return (quint32(bytes[0]) << 24) | (quint32(bytes[1]) << 16) | (quint32(bytes[2]) << 8) |
           quint32(bytes[3]);
}

bool isKnownTopLevelBox(const std::array<char, 4>& type) {
    return std::any_of(kTopLevelBoxes.begin(), kTopLevelBoxes.end(),
                       [&](const char* known) { return std::memcmp(known, type.data(), 4) == 0; });
}

QString printableType(const std::array<char, 4>& type) {
    QString text;
    for (char c : type) {
        const auto byte = static_cast<unsigned char>(c);
        text += (byte >= 0x20 && byte < 0x7f)
                    ? QChar::fromLatin1(c)
                    : QStringLiteral("\\x%1").arg(byte, 2, 16, QLatin1Char('0'));
    }
    return text;
}

} // namespace

Fmp4BoxScanner::Fmp4BoxScanner(bool record_boxes)
    : m_record_boxes(record_boxes) {}

bool Fmp4BoxScanner::consume(const uint8_t* data, qint64 size) {
    while (size > 0 && !failed()) {
        if (m_payload_remaining > 0) {
            const qint64 skipped = std::min(size, m_payload_remaining);
            m_payload_remaining -= skipped;
            m_offset += skipped;
            data += skipped;
            size -= skipped;
            if (m_payload_remaining == 0) {
                completeBox();
            }
            continue;
        }
        if (m_header_length == 0) {
            m_box_offset = m_offset;
        }
        const int copied =
            static_cast<int>(std::min<qint64>(size, m_header_needed - m_header_length));
        std::memcpy(m_header.data() + m_header_length, data, static_cast<size_t>(copied));
        m_header_length += copied;
        m_offset += copied;
        data += copied;
        size -= copied;
        if (m_header_length == m_header_needed && !acceptHeader()) {
            return false;
        }
    }
    return !failed();
}

bool Fmp4BoxScanner::acceptHeader() {
    const quint32 size32 = readBigEndian32(m_header.data());
    if (m_header_needed == 8) {
        std::memcpy(m_current.type.data(), m_header.data() + 4, 4);
        m_current.offset = m_box_offset;
        if (!isKnownTopLevelBox(m_current.type) ||
            (m_box_count == 0 && std::memcmp(m_current.type.data(), "ftyp", 4) != 0 &&
             std::memcmp(m_current.type.data(), "styp", 4) != 0)) {
            m_error =
                m_box_count == 0
                    ? QStringLiteral("the stream does not start with an ftyp box (found '%1'); "
                                     "it is not fragmented MP4")
                          .arg(printableType(m_current.type))
                    : QStringLiteral("unexpected top-level box '%1' at byte %2; the fragmented "
                                     "MP4 stream is corrupt")
                          .arg(printableType(m_current.type))
                          .arg(m_box_offset);
            m_error_offset = m_box_offset;
            return false;
        }
        if (size32 == 1) {
            m_header_needed = 16;
            return true;
        }
        // size 0 ("to the end of the file") never appears in a live fragment stream.
        if (size32 < 8) {
            m_error = QStringLiteral("box '%1' at byte %2 declares an impossible size of %3 bytes")
                          .arg(m_current.typeName())
                          .arg(m_box_offset)
                          .arg(size32);
            m_error_offset = m_box_offset;
            return false;
        }
        m_current.size_bytes = size32;
    } else {
        const quint64 large = (quint64(readBigEndian32(m_header.data() + 8)) << 32) |
                              readBigEndian32(m_header.data() + 12);
        m_current.size_bytes = large > quint64(kMaxBoxBytes) ? kMaxBoxBytes + 1 : qint64(large);
        if (m_current.size_bytes < 16) {
            m_error = QStringLiteral("box '%1' at byte %2 declares an impossible size")
                          .arg(m_current.typeName())
                          .arg(m_box_offset);
            m_error_offset = m_box_offset;
            return false;
        }
    }
    if (m_current.size_bytes > kMaxBoxBytes) {
        m_error = QStringLiteral("box '%1' at byte %2 declares %3 bytes, far more than any video "
                                 "fragment; the stream is corrupt")
                      .arg(m_current.typeName())
                      .arg(m_box_offset)
                      .arg(m_current.size_bytes);
        m_error_offset = m_box_offset;
        return false;
    }
    m_payload_remaining = m_current.size_bytes - m_header_needed;
    m_header_length = 0;
    m_header_needed = 8;
    ++m_box_count;
    if (m_payload_remaining == 0) {
        completeBox();
    }
    return true;
}

void Fmp4BoxScanner::completeBox() {
    const qint64 end = m_current.offset + m_current.size_bytes;
    if (std::memcmp(m_current.type.data(), "mdat", 4) == 0) {
        ++m_complete_mdat_count;
    }
    if (std::memcmp(m_current.type.data(), "moof", 4) != 0) {
        m_playable_end = end;
    }
    if (m_record_boxes) {
        m_boxes.push_back(m_current);
    }
}

} // namespace lbm::media
