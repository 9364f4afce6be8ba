#pragma once
// The per-frame measures behind every quality signal, read straight from a decoded frame's
// 8-bit YUV planes in one pass over a subsampled window: mean absolute luma change to the
// previous frame (also with the mean change taken out), mean absolute Laplacian of luma
// (fine detail), and mean Y, U and V; plus the camera's global motion (GlobalMotionEstimator).
//
// Why not libavfilter: signalstats (YDIF, UAVG, VAVG) and blurdetect have these measures,
// and the tests' FilterGraphProbe (tests/quality) runs them to cross-check this class, but a
// filter graph costs tens of times more per frame (benchmarks/quality prints both): it copies each
// frame into the graph, signalstats computes saturation and hue per pixel that nobody reads, and
// blurdetect's edge-width search costs ~10 ms per 832x480 frame, over three times the whole
// budget of 3 % of a core at 16 fps. These sums reuse the decoder's planes as they are.

#include "app/quality/chunk_quality.h"
#include "app/quality/global_motion.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

struct AVFrame;

namespace lbm::quality {

struct FrameMeasures {
    std::optional<double> change; // nullopt: no previous frame of the same geometry
    // change with the mean difference (rounded to a level) taken out of every sample.
    std::optional<double> structural_change;
    std::optional<FrameMotion> motion; // see GlobalMotionEstimator
    // GlobalMotionEstimator::unexplainedChange() for this frame.
    std::optional<double> unexplained_change;
    // Mean chroma change from the previous frame where the camera kept the content in view:
    // each sample compared with the sample the measured motion brought there (without a
    // motion estimate, the change of the mean). A colour cast moves it; a pan over content
    // of other colours does not.
    std::optional<double> u_step;
    std::optional<double> v_step;
    double sharpness = 0.0;
    double coarse_detail = 0.0; // the Laplacian over kCoarseStep pixels (FrameQuality)
    // The same two per tile of the measured window (FrameQuality::tile_*).
    DetailTiles tile_sharpness{};
    DetailTiles tile_coarse{};
    // One tile's size in pixels (the measured window over the grid).
    double tile_width = 0.0;
    double tile_height = 0.0;
    double mean_y = 0.0;
    double mean_u = 0.0;
    double mean_v = 0.0;
};

class FrameMeasurer {
public:
    // The step of the coarse Laplacian: a Gaussian blur of 2 px (what the simulator's blur
    // fault reaches in one chunk) keeps about three quarters of the structure at this scale
    // and almost none of the 1-pixel one.
    static constexpr int kCoarseStep = 8;

    // edge_margin: share of rows left out at the top and at the bottom; sample_step: read
    // every n-th row and column (both clamped to sensible ranges).
    FrameMeasurer(double edge_margin, int sample_step);

    // Measures frame against the previous frame measured. nullopt with error set when the
    // frame is not 8-bit planar YUV (the previous frame is then kept).
    std::optional<FrameMeasures> measure(const AVFrame& frame, QString* error);
    // Forgets the previous frame (the next change is nullopt).
    void reset();

private:
    double m_edge_margin;
    int m_step;
    std::vector<uint8_t> m_previous; // the previous frame's sampled luma window
    std::vector<uint8_t> m_spare;    // recycled as the next frame's sample buffer
    uint64_t m_previous_luma_sum = 0;
    // Chroma sampled every 4 luma pixels (the motion estimate's grid), this frame and the last.
    struct ChromaGrid {
        std::vector<uint8_t> u;
        std::vector<uint8_t> v;
        int columns = 0;
        int rows = 0;
        double mean_u = 0.0;
        double mean_v = 0.0;
    };
    ChromaGrid m_chroma;
    ChromaGrid m_previous_chroma;
    GlobalMotionEstimator m_motion;
    int m_previous_width = 0;
    int m_previous_height = 0;
};

} // namespace lbm::quality
