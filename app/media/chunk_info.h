#pragma once
// What the session knows about one transport payload when it hands the bytes to the media
// layer: the chunk's identity from its video.chunk_metadata and how many frames it holds.

#include <QString>
#include <QtGlobal>

#include <optional>

namespace lbm::media {

enum class ChunkKind { Media, Trailer };

struct ChunkInfo {
    qint64 transport_index = 0;
    // generation_chunk_index; absent for the trailer.
    std::optional<qint64> generation_index;
    int num_frames = 0;
    ChunkKind kind = ChunkKind::Media;
};

// "chunk 7" / "trailer (transport chunk 16)": how errors and logs name a chunk.
inline QString describeChunk(const ChunkInfo& info) {
    if (info.kind == ChunkKind::Trailer) {
        return QStringLiteral("trailer (transport chunk %1)").arg(info.transport_index);
    }
    return QStringLiteral("chunk %1").arg(info.generation_index.value_or(info.transport_index));
}

} // namespace lbm::media
