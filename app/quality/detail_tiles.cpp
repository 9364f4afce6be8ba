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

DetailStep detailStep(const TileDetail& here, const TileDetail& before) {
    std::vector<double> steps;
    for (size_t i = 0; i < here.size(); ++i) {
        if (here[i] > 0.0 && before[i] > 0.0) {
            steps.push_back(std::log(here[i] / before[i]));
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
