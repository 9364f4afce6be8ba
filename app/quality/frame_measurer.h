#pragma once
// The per-frame measures behind every quality signal, read straight from a decoded frame's
// 8-bit YUV planes in one pass over a subsampled window: mean absolute luma change to the
// previous frame, mean absolute Laplacian of luma (fine detail), and mean Y, U and V.
//
// Why not libavfilter: signalstats (YDIF, UAVG, VAVG) and blurdetect have these measures,
// and the tests' FilterGraphProbe (tests/quality) runs them to cross-check this class, but a
// filter graph costs tens of times more per frame (benchmarks/quality prints both): it copies each
// frame into the graph, signalstats computes saturation and hue per pixel that nobody reads, and
// blurdetect's edge-width search costs ~10 ms per 832x480 frame, over three times the whole
// budget of 3 % of a core at 16 fps. These sums reuse the decoder's planes as they are.

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

struct AVFrame;

namespace lbm::quality {

struct FrameMeasures {
    std::optional<double> change; // nullopt: no previous frame of the same geometry
    double sharpness = 0.0;
    double mean_y = 0.0;
    double mean_u = 0.0;
    double mean_v = 0.0;
};

class FrameMeasurer {
public:
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
    int m_previous_width = 0;
    int m_previous_height = 0;
};

} // namespace lbm::quality
