#pragma once
// Cuts the incoming fragmented MP4 byte stream into what LL-HLS republishes without
// re-encoding: the init segment (every box before the first moof: ftyp + moov) and one
// CmafFragment per moof + mdat pair, with the decode time, duration and sync flag read from
// the moof (tfdt, trun, tfhd, and the moov's trex and mdhd). Bytes may arrive split anywhere;
// a box is handed on once it is whole. media::Fmp4BoxScanner checks the top-level framing, so
// a broken stream is reported with its reason the moment the bad header arrives.

#include "app/broadcast/cmaf_fragment.h"
#include "app/media/fmp4_box_scanner.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <vector>

namespace lbm::broadcast {

class Fmp4FragmentSplitter {
public:
    // Appends the next bytes of the stream; returns the fragments completed by them. After a
    // failure (errorString()) it returns nothing more.
    std::vector<CmafFragment> consume(const QByteArray& bytes);

    bool failed() const { return !m_error.isEmpty(); }
    const QString& errorString() const { return m_error; }
    // The init segment's byte range, once the first moof showed where it ends.
    bool hasInit() const { return m_init_size_bytes > 0; }
    qint64 initSizeBytes() const { return m_init_size_bytes; }
    // The track's timescale (ticks per second) from the moov's mdhd; 0 before it.
    quint32 timescale() const { return m_timescale; }
    // Codec string for the playlist's CODECS attribute ("avc1.42c01e"), from the avcC.
    const QString& codecs() const { return m_codecs; }
    int width() const { return m_width; }
    int height() const { return m_height; }

private:
    void fail(const QString& why);
    void readMoov(const QByteArray& moov);
    std::optional<CmafFragment> readMoof(const QByteArray& moof);

    media::Fmp4BoxScanner m_scanner;
    QByteArray m_pending;        // bytes of the box being assembled
    qint64 m_pending_offset = 0; // its stream offset
    qint64 m_init_size_bytes = 0;
    std::optional<CmafFragment> m_open_moof; // a moof waiting for its mdat
    quint32 m_timescale = 0;
    quint32 m_trex_duration = 0;
    quint32 m_trex_flags = 0;
    QString m_codecs;
    int m_width = 0;
    int m_height = 0;
    QString m_error;
};

} // namespace lbm::broadcast
