#pragma once
// One media chunk as the client observed it (seed: ChunkRecord).

#include <cstdint>

namespace lbm {

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
