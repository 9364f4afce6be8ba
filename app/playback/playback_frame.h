#pragma once
// One picture waiting for (or on) the screen, with where it came from in the stream. The
// picture is the decoder's reference-counted YUV frame: queueing it and handing it across
// threads copies no pixels, and it becomes RGB only when a view draws it, at the view's size.

#include "app/media/decoded_frame.h"

#include <QtGlobal>

namespace lbm::playback {

struct PlaybackFrame {
    media::DecodedFrame picture;
    // Global frame number from the start of the session (what the frame's barcode says).
    qint64 frame_number = 0;
    // generation_chunk_index of the chunk the frame belongs to.
    qint64 chunk_index = 0;
    // Position inside its chunk (0 .. num_frames - 1).
    int index_in_chunk = 0;

    // A decoded frame placed by its tag.
    static PlaybackFrame fromDecoded(const media::DecodedFrame& frame) {
        PlaybackFrame playback;
        playback.picture = frame;
        playback.frame_number = frame.globalFrameNumber();
        const auto& tag = frame.tag();
        playback.chunk_index = tag.chunkIndex();
        playback.index_in_chunk = tag.index_in_chunk;
        return playback;
    }
};

} // namespace lbm::playback
