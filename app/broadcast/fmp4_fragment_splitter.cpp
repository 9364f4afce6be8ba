#include "app/broadcast/fmp4_fragment_splitter.h"

#include <cstring>

namespace lbm::broadcast {
namespace {

// A moof or moov is a few hundred bytes; an mdat one frame. Anything over this is a corrupt
// size the scanner would have refused already; the bound keeps the pending buffer honest.
constexpr qint64 kMaxBoxBytes = qint64(64) * 1024 * 1024;
constexpr quint32 kSampleIsNonSync = 0x00010000;

quint32 be32(const char* bytes) {
    const auto* b = reinterpret_cast<const unsigned char*>(bytes);
    return (quint32(b[0]) << 24) | (quint32(b[1]) << 16) | (quint32(b[2]) << 8) | quint32(b[3]);
}

quint64 be64(const char* bytes) {
    return (quint64(be32(bytes)) << 32) | be32(bytes + 4);
}

// The child boxes of a box's payload, by type. Box layouts are ISO/IEC 14496-12's.
struct BoxView {
    const char* data = nullptr; // the payload (after the 8-byte header)
    qint64 size = 0;
    bool valid() const { return data != nullptr; }
};

BoxView findChild(BoxView parent, const char* type, qint64 skip = 0) {
    qint64 at = skip;
    while (parent.valid() && at + 8 <= parent.size) {
        const qint64 size = be32(parent.data + at);
        if (size < 8 || at + size > parent.size) {
            return {};
        }
        if (std::memcmp(parent.data + at + 4, type, 4) == 0) {
            return {parent.data + at + 8, size - 8};
        }
        at += size;
    }
    return {};
}

BoxView findPath(BoxView root, std::initializer_list<const char*> path) {
    BoxView box = root;
    for (const char* type : path) {
        box = findChild(box, type);
    }
    return box;
}

} // namespace

std::vector<CmafFragment> Fmp4FragmentSplitter::consume(const QByteArray& bytes) {
    std::vector<CmafFragment> fragments;
    if (failed()) {
        return fragments;
    }
    if (!m_scanner.consume(reinterpret_cast<const uint8_t*>(bytes.constData()), bytes.size())) {
        fail(m_scanner.errorString());
        return fragments;
    }
    m_pending.append(bytes);
    qint64 at = 0;
    while (m_pending.size() - at >= 8) {
        qint64 size = be32(m_pending.constData() + at);
        if (size == 1) {
            if (m_pending.size() - at < 16) {
                break;
            }
            size = static_cast<qint64>(be64(m_pending.constData() + at + 8));
        }
        if (size < 8 || size > kMaxBoxBytes) {
            fail(QStringLiteral("a box of %1 bytes at stream offset %2")
                     .arg(size)
                     .arg(m_pending_offset + at));
            return fragments;
        }
        if (m_pending.size() - at < size) {
            break;
        }
        const char* type = m_pending.constData() + at + 4;
        const QByteArray box = QByteArray::fromRawData(m_pending.constData() + at, size);
        const qint64 box_offset = m_pending_offset + at;
        if (std::memcmp(type, "moof", 4) == 0) {
            if (!hasInit()) {
                m_init_size_bytes = box_offset;
            }
            m_open_moof = readMoof(box);
            if (m_open_moof) {
                m_open_moof->stream_offset = box_offset;
            }
        } else if (std::memcmp(type, "mdat", 4) == 0 && m_open_moof) {
            CmafFragment fragment = *m_open_moof;
            fragment.size_bytes = box_offset + size - fragment.stream_offset;
            fragments.push_back(fragment);
            m_open_moof.reset();
        } else if (std::memcmp(type, "moov", 4) == 0) {
            readMoov(box);
        }
        // ftyp, mfra (the trailer's random access index) and the like carry no frames.
        if (failed()) {
            return fragments;
        }
        at += size;
    }
    m_pending.remove(0, at);
    m_pending_offset += at;
    return fragments;
}

void Fmp4FragmentSplitter::fail(const QString& why) {
    if (m_error.isEmpty()) {
        m_error = QStringLiteral("the stream is not fragmented MP4 the broadcast can republish: %1")
                      .arg(why);
    }
}

void Fmp4FragmentSplitter::readMoov(const QByteArray& moov) {
    const BoxView root{moov.constData(), moov.size()};
    const BoxView trex = findPath(root, {"moov", "mvex", "trex"});
    if (trex.valid() && trex.size >= 24) {
        m_trex_duration = be32(trex.data + 12);
        m_trex_flags = be32(trex.data + 20);
    }
    const BoxView trak = findPath(root, {"moov", "trak"});
    const BoxView mdhd = findPath(trak, {"mdia", "mdhd"});
    if (mdhd.valid() && mdhd.size >= 24) {
        const bool version1 = mdhd.data[0] == 1;
        m_timescale = be32(mdhd.data + (version1 ? 20 : 12));
    }
    if (m_timescale == 0) {
        fail(QStringLiteral("the init segment (moov) has no track timescale"));
        return;
    }
    const BoxView tkhd = findChild(trak, "tkhd");
    if (tkhd.valid()) {
        const qint64 at = tkhd.data[0] == 1 ? 88 : 76;
        if (tkhd.size >= at + 8) {
            m_width = static_cast<int>(be32(tkhd.data + at) >> 16);
            m_height = static_cast<int>(be32(tkhd.data + at + 4) >> 16);
        }
    }
    const BoxView stsd = findPath(trak, {"mdia", "minf", "stbl", "stsd"});
    const BoxView avc1 = findChild(stsd, "avc1", 8);
    const BoxView avcc = findChild(avc1, "avcC", 78);
    if (avcc.valid() && avcc.size >= 4) {
        m_codecs = QStringLiteral("avc1.%1%2%3")
                       .arg(quint8(avcc.data[1]), 2, 16, QLatin1Char('0'))
                       .arg(quint8(avcc.data[2]), 2, 16, QLatin1Char('0'))
                       .arg(quint8(avcc.data[3]), 2, 16, QLatin1Char('0'));
    }
}

std::optional<CmafFragment> Fmp4FragmentSplitter::readMoof(const QByteArray& moof) {
    if (m_timescale == 0) {
        fail(QStringLiteral("a movie fragment (moof) arrived before the init segment (moov)"));
        return std::nullopt;
    }
    const BoxView traf = findPath({moof.constData(), moof.size()}, {"moof", "traf"});
    const BoxView tfhd = findChild(traf, "tfhd");
    const BoxView trun = findChild(traf, "trun");
    if (!tfhd.valid() || tfhd.size < 8 || !trun.valid() || trun.size < 8) {
        fail(QStringLiteral("a movie fragment without its track header or sample table"));
        return std::nullopt;
    }
    quint32 default_duration = m_trex_duration;
    quint32 default_flags = m_trex_flags;
    const quint32 tfhd_flags = be32(tfhd.data) & 0xffffff;
    qint64 at = 8;
    at += (tfhd_flags & 0x01) ? 8 : 0;
    at += (tfhd_flags & 0x02) ? 4 : 0;
    if ((tfhd_flags & 0x08) && tfhd.size >= at + 4) {
        default_duration = be32(tfhd.data + at);
        at += 4;
    }
    at += (tfhd_flags & 0x10) ? 4 : 0;
    if ((tfhd_flags & 0x20) && tfhd.size >= at + 4) {
        default_flags = be32(tfhd.data + at);
    }

    CmafFragment fragment;
    const BoxView tfdt = findChild(traf, "tfdt");
    if (tfdt.valid() && tfdt.size >= 8) {
        fragment.decode_time = tfdt.data[0] == 1 && tfdt.size >= 12
                                   ? static_cast<qint64>(be64(tfdt.data + 4))
                                   : static_cast<qint64>(be32(tfdt.data + 4));
    }
    const quint32 trun_flags = be32(trun.data) & 0xffffff;
    const quint32 samples = be32(trun.data + 4);
    qint64 pos = 8 + ((trun_flags & 0x01) ? 4 : 0);
    std::optional<quint32> first_flags;
    if (trun_flags & 0x04) {
        first_flags = be32(trun.data + pos);
        pos += 4;
    }
    const int per_sample = ((trun_flags & 0x100) ? 4 : 0) + ((trun_flags & 0x200) ? 4 : 0) +
                           ((trun_flags & 0x400) ? 4 : 0) + ((trun_flags & 0x800) ? 4 : 0);
    if (samples == 0 || samples > 10000 || pos + qint64(samples) * per_sample > trun.size) {
        fail(QStringLiteral("a movie fragment whose sample table does not fit its box"));
        return std::nullopt;
    }
    fragment.sample_count = static_cast<int>(samples);
    for (quint32 i = 0; i < samples; ++i) {
        const char* sample = trun.data + pos + qint64(i) * per_sample;
        fragment.duration += (trun_flags & 0x100) ? be32(sample) : default_duration;
        if (i == 0) {
            quint32 flags = first_flags.value_or(default_flags);
            if (trun_flags & 0x400) {
                flags =
                    be32(sample + ((trun_flags & 0x100) ? 4 : 0) + ((trun_flags & 0x200) ? 4 : 0));
            }
            fragment.keyframe = (flags & kSampleIsNonSync) == 0;
        }
    }
    return fragment;
}

} // namespace lbm::broadcast
