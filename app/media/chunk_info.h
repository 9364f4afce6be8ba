#pragma once
// What the session knows about one transport payload when it hands the bytes to the media
// layer: the chunk's identity from its video.chunk_metadata and how many frames it holds.

#include "metrics/chunk_record.h"

#include <QString>
#include <QtGlobal>

#include <optional>

namespace lbm::media {

using ChunkKind = lbm::ChunkKind;

struct ChunkInfo {
    qint64 transport_index = 0;
    // generation_chunk_index; absent for the trailer.
    std::optional<qint64> generation_index;
    int num_frames = 0;
    ChunkKind kind = ChunkKind::Media;
};

// "chunk 7" / "trailer (transport chunk 16)": how errors and logs name a chunk.
inline QString describeChunk(const ChunkInfo& info) {
    return QString::fromStdString(
        lbm::chunkName(info.kind, info.transport_index, info.generation_index));
}

} // namespace lbm::media
