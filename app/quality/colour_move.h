#pragma once
// How far a chunk's colour moved from the chunk before's, on what the camera kept in view.

#include "app/quality/chunk_quality.h"

#include <vector>

namespace lbm::quality {

struct ColourMove {
    double u = 0.0; // 8-bit levels
    double v = 0.0;
};

// The frames' chroma steps summed from the last frame before them (content the motion kept
// in view), per axis agreed with the whole picture's move (picture_u, picture_v: the last
// latent frame's mean against the chunk before's). Without a step for every frame, the
// picture's move.
ColourMove colourMove(const std::vector<FrameQuality>& frames, double picture_u, double picture_v);

} // namespace lbm::quality
