#pragma once
// How far the incremental decoder has got and what it holds: bytes taken and pending (its
// backlog), frames decoded, corrupt or unexpected, its queue levels and its first error.
// Plain values, so views can show them without seeing the decoder itself.

#include <QString>
#include <QtGlobal>

namespace lbm::media {

enum class DecoderState { Running, Finished, Failed, Aborted };

struct DecoderStats {
    DecoderState state = DecoderState::Running;
    qint64 chunks_pushed = 0;
    qint64 bytes_pushed = 0;
    qint64 bytes_read = 0;    // taken by the demuxer
    qint64 bytes_pending = 0; // pushed but not yet read: the decoder's byte backlog
    qint64 bytes_pending_high_water = 0;
    qint64 frames_expected = 0;   // sum of num_frames over the chunks pushed
    qint64 frames_decoded = 0;    // delivered to the frame queue
    qint64 frames_corrupt = 0;    // packets the decoder rejected, or frames it had to conceal
    qint64 frames_unexpected = 0; // decoded beyond frames_expected
    int frames_queued = 0;
    int frames_queued_high_water = 0;
    int frame_queue_capacity = 0;
    int error_count = 0;
    QString first_error;
};

} // namespace lbm::media
