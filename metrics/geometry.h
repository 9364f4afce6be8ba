#pragma once
// Chunk geometry: how pixel frames, latent frames and streamed chunks relate (seed: geometry
// functions). All throw MetricError with the seed's message on invalid input.

#include <cstdint>

namespace lbm {

// num_frames_for_chunks: pixel-frame count whose rollout is exactly num_chunks chunks.
std::int64_t numFramesForChunks(std::int64_t num_chunks);
// chunks_for_num_frames: the server's own ((num_frames - 1) // 4 + 1) // 3.
std::int64_t chunksForNumFrames(std::int64_t num_frames);
// pixel_frames_in_chunk: 9 for chunk 0, 12 afterwards.
int pixelFramesInChunk(std::int64_t chunk_index);
// steady_chunk_deadline_ms: wall-clock budget of a steady (12-frame) chunk at fps.
double steadyChunkDeadlineMs(double fps);

} // namespace lbm
