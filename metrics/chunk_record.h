#pragma once
// One media chunk as the client observed it (seed: ChunkRecord), and the two kinds of
// transport payload every layer names the same way.

#include <cstdint>
#include <optional>
#include <string>

namespace lbm {

// A transport payload: a media chunk, or the trailer that closes the stream (no generation
// index, no frames of its own). The wire's, the decoder's and the session's one enum.
enum class ChunkKind { Media, Trailer };

// "chunk 7" (its generation index, else its transport index) or "trailer (transport chunk
// 16)": how messages, logs and errors name a payload, everywhere.
inline std::string chunkName(ChunkKind kind, std::int64_t transport_index,
                             std::optional<std::int64_t> generation_index) {
    if (kind == ChunkKind::Trailer) {
        return "trailer (transport chunk " + std::to_string(transport_index) + ")";
    }
    return "chunk " + std::to_string(generation_index.value_or(transport_index));
}

// Which payload a chunk is and how many frames it carries: the part of its
// video.chunk_metadata that every layer after the parser keeps. The session's chunk event,
// the decoder's byte queue and every decoded frame's tag hold this one record, so a chunk is
// named and counted the same way from the wire to the screen.
struct ChunkIdentity {
    std::int64_t transport_index = 0;
    // generation_chunk_index; absent for the trailer.
    std::optional<std::int64_t> generation_index;
    int num_frames = 0;
    ChunkKind kind = ChunkKind::Media;

    // The index a chunk is shown and analysed under: its generation index, else its place on
    // the wire.
    std::int64_t shownIndex() const { return generation_index.value_or(transport_index); }
    bool isMedia() const { return kind == ChunkKind::Media; }
    // chunkName() for this chunk.
    std::string name() const { return chunkName(kind, transport_index, generation_index); }
};

struct ChunkRecord {
    std::int64_t index = 0;
    // Seconds from session.start being sent to this chunk's bytes arriving.
    double arrival_s = 0.0;
    // Seconds since the previous chunk; for chunk zero this equals arrival_s.
    double inter_arrival_s = 0.0;
    std::int64_t byte_length = 0;
    int num_frames = 0;

    // to_dict()'s "inter_arrival_ms".
    double interArrivalMs() const { return inter_arrival_s * 1000.0; }
};

} // namespace lbm
