#pragma once
// Model and benchmark constants from the seed (vLLM-Omni benchmarks/lingbot_world/workload.py).
// They come from the checkpoint's transformer/config.json; see the seed's module docstring.

#include <string_view>

namespace lbm {

// transformer.config.num_frames_per_block: latent frames committed per AR block (= chunk).
inline constexpr int kFramesPerBlock = 3;
// vae_scale_factor_temporal: latent frames -> pixel frames, after the first.
inline constexpr int kTemporalCompression = 4;
// (sink 9 + recent window 9) / kFramesPerBlock: chunks until chunk cost is stationary.
inline constexpr int kDefaultWarmupChunks = 6;

inline constexpr std::string_view kDefaultModel =
    "robbyant/lingbot-world-v2-14b-causal-fast-diffusers";
inline constexpr std::string_view kDefaultPrompt =
    "The camera moves slowly forward through the scene.";
inline constexpr int kDefaultWidth = 832;
inline constexpr int kDefaultHeight = 480;
inline constexpr int kDefaultFps = 16;
inline constexpr double kDefaultFlowShift = 5.0;
inline constexpr int kDefaultSeed = 42;
inline constexpr int kDefaultTransitionChunks = 3;

} // namespace lbm
