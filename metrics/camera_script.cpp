#include "metrics/camera_script.h"

#include "metrics/constants.h"
#include "metrics/metric_error.h"
#include "metrics/python_text.h"

#include <algorithm>
#include <array>

namespace lbm {
namespace {

constexpr std::string_view kForward = "forward";
constexpr std::string_view kHold = "hold";
constexpr std::string_view kOrbit = "orbit";
// Orbit cycles through the four movement keys, one per chunk.
constexpr std::array<std::string_view, 4> kActionKeys = {"w", "a", "s", "d"};

ChunkActions repeatedFrames(const FrameActions& frame) {
    return ChunkActions(kFramesPerBlock, frame);
}

} // namespace

const std::vector<std::string>& cameraPatterns() {
    static const std::vector<std::string> patterns = {std::string(kForward), std::string(kOrbit),
                                                      std::string(kHold)};
    return patterns;
}

ChunkActions cameraActionsForChunk(std::string_view pattern, long long chunk_index) {
    if (chunk_index < 0) {
        throw MetricError("chunk_index must be non-negative.");
    }
    if (pattern == kForward) {
        return repeatedFrames({"w"});
    }
    if (pattern == kHold) {
        return repeatedFrames({});
    }
    if (pattern == kOrbit) {
        const auto key = kActionKeys[static_cast<std::size_t>(chunk_index) % kActionKeys.size()];
        return repeatedFrames({std::string(key)});
    }
    // The seed lists sorted(CAMERA_PATTERNS), not the declaration order.
    std::vector<std::string> sorted = cameraPatterns();
    std::sort(sorted.begin(), sorted.end());
    throw MetricError("Unknown camera pattern " + pythonRepr(pattern) + "; expected one of " +
                      pythonListRepr(sorted) + ".");
}

CameraScript buildCameraScript(long long num_chunks, std::string_view pattern) {
    if (num_chunks < 1) {
        throw MetricError("num_chunks must be at least 1.");
    }
    CameraScript script;
    script.reserve(static_cast<std::size_t>(num_chunks));
    for (long long index = 0; index < num_chunks; ++index) {
        script.push_back(cameraActionsForChunk(pattern, index));
    }
    return script;
}

void validateCameraScript(const CameraScript& script) {
    for (std::size_t chunk_index = 0; chunk_index < script.size(); ++chunk_index) {
        const std::size_t got = script[chunk_index].size();
        if (got != static_cast<std::size_t>(kFramesPerBlock)) {
            throw MetricError("camera_action_script[" + std::to_string(chunk_index) +
                              "] must hold exactly " + std::to_string(kFramesPerBlock) +
                              " action lists (got " + std::to_string(got) + "); one AR block is " +
                              std::to_string(kFramesPerBlock) + " latent frames.");
        }
    }
    if (script.empty()) {
        throw MetricError("camera_action_script must not be empty.");
    }
}

} // namespace lbm
