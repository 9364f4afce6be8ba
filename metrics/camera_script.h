#pragma once
// Camera action scripts: one entry per chunk, three per-latent-frame key lists per entry.

#include <string>
#include <string_view>
#include <vector>

namespace lbm {

using FrameActions = std::vector<std::string>;  // keys held during one latent frame
using ChunkActions = std::vector<FrameActions>; // kFramesPerBlock entries
using CameraScript = std::vector<ChunkActions>; // one entry per generated chunk

// The seed's CAMERA_PATTERNS, in its order.
const std::vector<std::string>& cameraPatterns();
// camera_actions_for_chunk(pattern, chunk_index).
ChunkActions cameraActionsForChunk(std::string_view pattern, long long chunk_index);
// build_camera_script(num_chunks, pattern).
CameraScript buildCameraScript(long long num_chunks, std::string_view pattern);
// The structural half of _validate_camera_script that survives typing: each entry holds
// exactly three frame lists and the script is not empty. (Type checks of JSON input happen
// in app/report with the same messages, in the seed's order.)
void validateCameraScript(const CameraScript& script);

} // namespace lbm
