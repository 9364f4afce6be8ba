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
// The camera's motion over a chunk (its frames' measured motion, scaled up to the frames
// without one): the zoom between the two chunks' last latent frames magnifies the picture and
// thins its detail per pixel by that much; the pan moves the content across tiles (a tilt up a
// tile's height a chunk compared the grass's fine texture with the flat houses that took its
// place: a blur flag, 0.66x, in a clean session).
struct ChunkMotion {
    double zoom = 0.0;     // relative scale change over the chunk
    int shift_columns = 0; // the pan in whole tiles, + = content moved right / down
    int shift_rows = 0;
};
ChunkMotion chunkMotion(const std::vector<FrameQuality>& frames);

// Each tile here is compared with the one its content came from: shift_columns and
// shift_rows tiles left and up of it in before (the camera's pan over the chunk, rounded).
DetailStep detailStep(const TileDetail& here, const TileDetail& before, int shift_columns = 0,
                      int shift_rows = 0);

} // namespace lbm::quality
