#pragma once
// Where a decoded frame belongs in the session: its global number, the chunk that the
// metadata's num_frames assigns it to (that chunk's own identity record) and its place there.

#include "metrics/chunk_record.h"

#include <QtGlobal>

#include <optional>

namespace lbm::media {

struct FrameTag {
    // Global frame number in stream order: 0, 1, 2, ...
    qint64 global_frame_number = 0;
    // The chunk the frame belongs to by the metadata's num_frames; absent for a frame beyond
    // the sum of num_frames announced so far.
    std::optional<ChunkIdentity> chunk;
    // The frame's place in that chunk (0 .. num_frames - 1); -1 when it has no chunk.
    int index_in_chunk = -1;
    // The payload whose bytes carried the frame: usually the next one for a chunk's last
    // frame, because fragments lag one frame behind chunks.
    qint64 carried_by_transport_index = -1;
    // Presentation time from the container, in seconds from the stream start.
    double pts_s = 0.0;

    // The chunk the frame is shown as part of (its shown index; 0 for a frame beyond the
    // metadata, which has none).
    qint64 chunkIndex() const { return chunk ? chunk->shownIndex() : 0; }
    // generation_chunk_index of its chunk, when it has one.
    std::optional<qint64> generationIndex() const {
        return chunk ? chunk->generation_index : std::nullopt;
    }
    bool isFirstOfChunk() const { return index_in_chunk == 0; }
    bool isLastOfChunk() const {
        return chunk && chunk->num_frames > 0 && index_in_chunk == chunk->num_frames - 1;
    }
};

} // namespace lbm::media
