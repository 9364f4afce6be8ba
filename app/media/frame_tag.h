#pragma once
// Where a decoded frame belongs in the session: its global number and the chunk that the
// metadata's num_frames assigns it to.

#include <QtGlobal>

#include <optional>

namespace lbm::media {

struct FrameTag {
    // Global frame number in stream order: 0, 1, 2, ...
    qint64 global_frame_number = 0;
    // The chunk the frame belongs to by the metadata's num_frames and its place in it;
    // transport_index is -1 for a frame beyond the sum of num_frames announced so far.
    qint64 transport_index = -1;
    std::optional<qint64> generation_index;
    int index_in_chunk = -1;
    // How many frames that chunk holds (its metadata's num_frames); 0 when unplaced.
    int frames_in_chunk = 0;
    // The payload whose bytes carried the frame: usually the next one for a chunk's last
    // frame, because fragments lag one frame behind chunks.
    qint64 carried_by_transport_index = -1;
    // Presentation time from the container, in seconds from the stream start.
    double pts_s = 0.0;

    // The chunk the frame is shown as part of: its generation index, else its transport
    // index (0 for a frame beyond the metadata, which has neither).
    qint64 chunkIndex() const {
        return generation_index.value_or(transport_index < 0 ? 0 : transport_index);
    }
    bool isFirstOfChunk() const { return index_in_chunk == 0; }
    bool isLastOfChunk() const {
        return frames_in_chunk > 0 && index_in_chunk == frames_in_chunk - 1;
    }
};

} // namespace lbm::media
