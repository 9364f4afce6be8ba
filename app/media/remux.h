#pragma once
// Turns a raw .m4s recording into a progressive, fast-start .mp4 by stream copy (no
// re-encode, so the frames stay bit-identical). A partial recording (the session failed or
// the process died mid-fragment) is cut at the last whole fragment and still converted.

#include <QString>
#include <QtGlobal>

namespace lbm::media {

struct RemuxResult {
    bool ok = false;
    qint64 packets_written = 0; // = frames: one H.264 access unit per packet
    qint64 input_bytes_total = 0;
    qint64 input_bytes_used = 0;
    // The recording ended inside a fragment (or in damaged bytes) and the tail was left out.
    bool input_truncated = false;
    QString error; // what went wrong and what to do, when !ok
};

// Writes mp4_path atomically (a temporary file in the same directory, renamed over the
// target once complete), with movflags=+faststart so moov precedes mdat.
RemuxResult remuxToMp4(const QString& m4s_path, const QString& mp4_path);

} // namespace lbm::media
