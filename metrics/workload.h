#pragma once
// One rollout: what a client asks the server to generate (seed: Workload). The JSON forms
// (session.start payload, describe(), workload files) live in app/report/workload_json.h,
// because this layer is standard C++ only.

#include "metrics/camera_script.h"
#include "metrics/constants.h"
#include "metrics/prompt_update.h"

#include <optional>
#include <string>
#include <vector>

namespace lbm {

struct Workload {
    std::string prompt;
    std::string image_reference; // http(s):// or data: URL
    CameraScript camera_script;
    int width = kDefaultWidth;
    int height = kDefaultHeight;
    int fps = kDefaultFps;
    long long seed = kDefaultSeed;
    double flow_shift = kDefaultFlowShift;
    std::optional<std::string> negative_prompt;
    std::vector<PromptUpdate> prompt_updates;
    // The workload's extra_params object as compact JSON text ("{}" when none). It is merged
    // over {flow_shift, camera_action_script} in the session.start payload, as the seed does.
    std::string extra_params_json = "{}";

    // __post_init__: every check in the seed's order, with its text. Throws MetricError.
    void validate() const;

    long long numChunks() const { return static_cast<long long>(camera_script.size()); }
    long long numFrames() const;
    double videoSeconds() const;
};

// default_workload(): a fixed prompt and a generated camera script; validated.
Workload defaultWorkload(const std::string& image_reference, long long num_chunks,
                         std::string_view camera_pattern = "forward",
                         std::string prompt = std::string(kDefaultPrompt),
                         int width = kDefaultWidth, int height = kDefaultHeight,
                         int fps = kDefaultFps, long long seed = kDefaultSeed,
                         double flow_shift = kDefaultFlowShift,
                         std::optional<std::string> negative_prompt = std::nullopt);

} // namespace lbm
