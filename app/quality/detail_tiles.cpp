#include "app/quality/detail_tiles.h"

#include "metrics/latency_summary.h"

#include <algorithm>
#include <cmath>

namespace lbm::quality {
namespace {

// 8-bit levels: far below the grain of any decoded picture.
constexpr double kMinFineDetail = 0.01;

} // namespace

TileDetail tileDetail(const std::vector<FrameQuality>& frames, int look_frames) {
    TileDetail detail{};
    const size_t from = frames.size() > static_cast<size_t>(std::max(0, look_frames))
                            ? frames.size() - static_cast<size_t>(look_frames)
                            : 0;
    if (frames.size() <= from) {
        return detail;
    }
    const auto count = static_cast<double>(frames.size() - from);
    for (size_t tile = 0; tile < detail.size(); ++tile) {
        double fine = 0.0;
        double coarse = 0.0;
        for (size_t i = from; i < frames.size(); ++i) {
            fine += frames[i].tile_sharpness[tile];
            coarse += frames[i].tile_coarse[tile];
        }
        if (coarse / count >= kStructuredTileCoarse) {
            // A structured tile blurred to no fine detail at all still counts, as detail lost.
            detail[tile] = std::max(fine, kMinFineDetail * count) / coarse;
        }
    }
    return detail;
}

int structuredTiles(const std::vector<FrameQuality>& frames) {
    const TileDetail detail = tileDetail(frames, static_cast<int>(frames.size()));
    return static_cast<int>(
        std::count_if(detail.begin(), detail.end(), [](double tile) { return tile > 0.0; }));
}

ChunkMotion chunkMotion(const std::vector<FrameQuality>& frames) {
    double zoom = 0.0;
    double pan_x = 0.0;
    double pan_y = 0.0;
    int measured = 0;
    for (const FrameQuality& frame : frames) {
        if (frame.motion) {
            zoom += frame.motion->zoom;
            pan_x += frame.motion->dx;
            pan_y += frame.motion->dy;
            ++measured;
        }
    }
    ChunkMotion motion;
    if (measured == 0) {
        return motion;
    }
    const double scale = static_cast<double>(frames.size()) / measured;
    const auto tiles = [](double pixels, double tile) {
        return tile > 0.0 ? static_cast<int>(std::lround(pixels / tile)) : 0;
    };
    motion.zoom = zoom * scale;
    motion.shift_columns = tiles(pan_x * scale, frames.back().tile_width);
    motion.shift_rows = tiles(pan_y * scale, frames.back().tile_height);
    return motion;
}

DetailStep detailStep(const TileDetail& here, const TileDetail& before, int shift_columns,
                      int shift_rows) {
    std::vector<double> steps;
    for (int row = 0; row < kDetailTileRows; ++row) {
        const int from_row = row - shift_rows;
        for (int column = 0; column < kDetailTileColumns; ++column) {
            const int from_column = column - shift_columns;
            if (from_row < 0 || from_row >= kDetailTileRows || from_column < 0 ||
                from_column >= kDetailTileColumns) {
                continue;
            }
            const double now = here[static_cast<size_t>(row * kDetailTileColumns + column)];
            const double then =
                before[static_cast<size_t>(from_row * kDetailTileColumns + from_column)];
            if (now > 0.0 && then > 0.0) {
                steps.push_back(std::log(now / then));
            }
        }
    }
    DetailStep step;
    step.tiles = static_cast<int>(steps.size());
    if (step.tiles < kMinComparedTiles) {
        return step;
    }
    step.log_step = percentile(std::move(steps), 0.5); // the median
    return step;
}

} // namespace lbm::quality
