#pragma once
// One picture waiting for (or on) the screen, with where it came from in the stream. The
// image is implicitly shared, so queueing and handing it across threads copies no pixels.

#include <QImage>
#include <QtGlobal>

namespace lbm::playback {

struct PlaybackFrame {
    QImage image;
    // Global frame number from the start of the session (what the frame's barcode says).
    qint64 frame_number = 0;
    // generation_chunk_index of the chunk the frame belongs to.
    qint64 chunk_index = 0;
    // Position inside its chunk (0 .. num_frames - 1).
    int index_in_chunk = 0;
};

} // namespace lbm::playback
