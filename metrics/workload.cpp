#include "metrics/workload.h"

#include "metrics/geometry.h"
#include "metrics/metric_error.h"
#include "metrics/python_text.h"

#include <set>
#include <utility>

namespace lbm {

void Workload::validate() const {
    // In the seed every PromptUpdate validates itself when it is constructed, which is
    // before the Workload holding it exists, so its messages win over the workload's.
    for (const PromptUpdate& update : prompt_updates) {
        update.validate();
    }
    if (isPythonBlank(prompt)) {
        throw MetricError("Workload.prompt must contain non-whitespace text.");
    }
    if (image_reference.empty()) {
        throw MetricError(
            "Workload.image_reference is required; LingBot-World is image-conditioned.");
    }
    if (width <= 0 || height <= 0 || width % 16 != 0 || height % 16 != 0) {
        throw MetricError("Workload width/height must be positive multiples of 16.");
    }
    if (fps <= 0) {
        throw MetricError("Workload.fps must be positive.");
    }
    validateCameraScript(camera_script);
    std::set<int> seen_update_chunks;
    for (const PromptUpdate& update : prompt_updates) {
        if (!seen_update_chunks.insert(update.after_chunk).second) {
            throw MetricError("Duplicate prompt update after chunk " +
                              std::to_string(update.after_chunk) + "; event IDs must be unique.");
        }
        if (update.after_chunk >= numChunks()) {
            throw MetricError("Prompt update after chunk " + std::to_string(update.after_chunk) +
                              " never fires in a " + std::to_string(numChunks()) +
                              "-chunk rollout.");
        }
    }
}

long long Workload::numFrames() const {
    return numFramesForChunks(numChunks());
}

double Workload::videoSeconds() const {
    return static_cast<double>(numFrames()) / static_cast<double>(fps);
}

Workload defaultWorkload(const std::string& image_reference, long long num_chunks,
                         std::string_view camera_pattern, std::string prompt, int width, int height,
                         int fps, long long seed, double flow_shift,
                         std::optional<std::string> negative_prompt) {
    Workload workload;
    workload.prompt = std::move(prompt);
    workload.image_reference = image_reference;
    workload.camera_script = buildCameraScript(num_chunks, camera_pattern);
    workload.width = width;
    workload.height = height;
    workload.fps = fps;
    workload.seed = seed;
    workload.flow_shift = flow_shift;
    workload.negative_prompt = std::move(negative_prompt);
    workload.validate();
    return workload;
}

} // namespace lbm
