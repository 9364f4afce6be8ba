#include "metrics/geometry.h"

#include "metrics/constants.h"
#include "metrics/metric_error.h"

namespace lbm {

std::int64_t numFramesForChunks(std::int64_t num_chunks) {
    if (num_chunks < 1) {
        throw MetricError("num_chunks must be at least 1.");
    }
    return (num_chunks * kFramesPerBlock - 1) * kTemporalCompression + 1;
}

std::int64_t chunksForNumFrames(std::int64_t num_frames) {
    if (num_frames < 1) {
        throw MetricError("num_frames must be at least 1.");
    }
    return ((num_frames - 1) / kTemporalCompression + 1) / kFramesPerBlock;
}

int pixelFramesInChunk(std::int64_t chunk_index) {
    if (chunk_index < 0) {
        throw MetricError("chunk_index must be non-negative.");
    }
    if (chunk_index == 0) {
        return (kFramesPerBlock - 1) * kTemporalCompression + 1;
    }
    return kFramesPerBlock * kTemporalCompression;
}

double steadyChunkDeadlineMs(double fps) {
    if (fps <= 0) {
        throw MetricError("fps must be positive.");
    }
    return pixelFramesInChunk(1) / fps * 1000.0;
}

} // namespace lbm
