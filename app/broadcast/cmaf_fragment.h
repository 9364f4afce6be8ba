#pragma once
// One piece of the incoming fragmented MP4 stream as the broadcast republishes it: the init
// segment (ftyp + moov) or one frame's moof + mdat pair, located by its byte range in the
// stream (the concatenation of every payload, which is exactly what the recording holds).

#include <QtGlobal>

namespace lbm::broadcast {

struct CmafFragment {
    qint64 stream_offset = 0;
    qint64 size_bytes = 0;
    // Decode time and duration in the track's timescale (tfdt, trun/tfhd/trex).
    qint64 decode_time = 0;
    qint64 duration = 0;
    int sample_count = 0;
    // The first sample is a sync sample (an IDR frame): a player may start here.
    bool keyframe = false;
};

} // namespace lbm::broadcast
