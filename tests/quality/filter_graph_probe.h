#pragma once
// The same per-frame measures from libavfilter, over the same window of the frame: crop ->
// signalstats (YAVG, UAVG, VAVG, YDIF) -> blurdetect. A reference implementation rather than
// the analysis itself: the tests check FrameMeasurer against it on real decoded frames, and
// benchmarks/quality times both (the graph costs tens of times more; see frame_measurer.h).
// signalstats reads every pixel of the window; FrameMeasurer samples it.

#include <QString>

#include <optional>

struct AVFilterGraph;
struct AVFilterContext;
struct AVFrame;

namespace lbm::quality {

class FilterGraphProbe {
public:
    struct Measures {
        double y_average = 0.0;
        double u_average = 0.0;
        double v_average = 0.0;
        // signalstats' YDIF: mean absolute luma difference to the previous frame; nullopt
        // for the first frame.
        std::optional<double> y_difference;
        // blurdetect's lavfi.blur: edge width, larger when blurrier.
        double blur = 0.0;
    };

    // edge_margin as in QualitySettings: rows left out at the top and at the bottom.
    explicit FilterGraphProbe(double edge_margin = 0.10);
    ~FilterGraphProbe();
    FilterGraphProbe(const FilterGraphProbe&) = delete;
    FilterGraphProbe& operator=(const FilterGraphProbe&) = delete;

    // The graph is built for the first frame's geometry and format; a frame of another
    // geometry rebuilds it. nullopt with error set when libavfilter fails.
    std::optional<Measures> measure(const AVFrame& frame, QString* error);

private:
    bool build(const AVFrame& frame, QString* error);
    void release();

    double m_edge_margin;
    AVFilterGraph* m_graph = nullptr; // owns the two contexts below
    AVFilterContext* m_source = nullptr;
    AVFilterContext* m_sink = nullptr;
    int m_width = 0;
    int m_height = 0;
    int m_format = -1;
    long long m_next_pts = 0;
};

} // namespace lbm::quality
