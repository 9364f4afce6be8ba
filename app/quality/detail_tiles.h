#pragma once
// The sharpness comparison between two chunks, tile by tile: the measured window cut into
// kDetailTileColumns x kDetailTileRows tiles (FrameQuality::tile_*), each tile's fine detail
// over its coarse structure, compared where both chunks show structure.

#include "app/quality/chunk_quality.h"

#include <array>
#include <optional>
#include <vector>

namespace lbm::quality {

// Per tile: fine over coarse detail, 0 where the tile shows too little structure to say.
using TileDetail = std::array<double, kDetailTileColumns * kDetailTileRows>;

// A tile shows structure when its coarse Laplacian (over 8 px, 8-bit levels) is at least this:
// sky, haze and a blank wall do not, since their fine detail is the picture's grain and their
// ratio says nothing about focus. (A daylight view of the simulated world has 25 to 29 of its
// 32 tiles above it, open sky 2 to 5, a house wall filling the view 0 to 1 and a window's edge
// on it about 3.)
inline constexpr double kStructuredTileCoarse = 6.0;
// Sharpness is judged only when at least this many tiles show structure in both chunks.
inline constexpr int kMinComparedTiles = 8;

// The tiles' detail over the last look_frames frames (the chunk's last latent frame).
TileDetail tileDetail(const std::vector<FrameQuality>& frames, int look_frames);

// How many tiles show structure over the given frames (a blank wall or open sky: few).
int structuredTiles(const std::vector<FrameQuality>& frames);

struct DetailStep {
    std::optional<double> log_step; // nullopt: too few tiles with structure in both
    int tiles = 0;                  // how many had
};

// log(here / before) of fine over coarse detail: the median over the tiles with structure in
// both, so what the camera brings into or takes out of view (a near house, open sky) moves
// only the tiles it covers, while a blur lowers nearly all of them. A view that a blank wall
// fills leaves too few tiles to tell focus from content: the whole window's ratio, used
// before, read such walls as a blur (0.57x and 0.64x in two steered sessions without one).
DetailStep detailStep(const TileDetail& here, const TileDetail& before);

} // namespace lbm::quality
