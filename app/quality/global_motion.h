#pragma once
// The camera's apparent motion between two consecutive frames, estimated from their luma:
// a pan (dx, dy in pixels of the full frame; positive = the picture's content moves right /
// down) and a zoom (relative scale change: positive = the content grows, the camera moves
// in), fitted to the displacements of a 3 x 3 grid of blocks.
//
// How: both frames are reduced to a quarter of their size (each 4 x 4 cell the mean of four
// pixels), each block of the newer frame is matched against the older one by the sum of
// absolute differences over +-kSearchRadius quarter-pixels (sub-pixel by a parabola through
// the best match and its neighbours), and the model d = t + zoom * p (p: the block's place
// relative to the frame centre) is fitted to the block displacements by least squares. A
// block on flat content (no clear best match) is left out, and so is a displacement along
// an axis in which the block's content does not change (a sky graded top to bottom says how
// far it moved vertically, not sideways); without enough of either there is no estimate.
//
// Why our own and not OpenCV or vidstabdetect: the quality analysis already walks the luma
// window once per frame, and this estimate costs about one more walk (about 0.15 ms per
// 832x480 frame, benchmarks/quality) without copying the frame anywhere; OpenCV would add a
// dependency of its own for phaseCorrelate / estimateAffinePartial2D (a feature detector per
// frame costs more than this whole estimate), and vidstabdetect needs a filter graph that
// copies every frame (FilterGraphProbe measured ~10 ms per frame for signalstats +
// blurdetect) and writes its transforms to a file.

#include <cstdint>
#include <optional>
#include <vector>

struct AVFrame;

namespace lbm::quality {

struct FrameMotion {
    double dx = 0.0;   // full-frame pixels per frame, + = content moves right
    double dy = 0.0;   // + = content moves down
    double zoom = 0.0; // relative scale change per frame, + = content grows
    // Mean distance of the block displacements from the fitted model (full-frame pixels): low
    // for a camera moving over a rigid scene, high across a cut or a seam.
    double residual = 0.0;
    // Mean absolute luma difference (8-bit levels, quarter-size picture) between this frame and
    // the previous one moved by the fitted pan and zoom, with the mean difference taken out:
    // what the camera's motion and a uniform change of brightness do not explain. Small for
    // a moving camera, large across a seam.
    double compensated_change = 0.0;

    bool operator==(const FrameMotion&) const = default;
};

class GlobalMotionEstimator {
public:
    // Quarter-resolution pixels a block is searched over in each direction (24 full-frame
    // pixels per frame: the simulator's fastest key, a 6 degree yaw per latent frame, moves
    // the 3-D world's view by 17 to 19 pixels a frame).
    static constexpr int kSearchRadius = 6;

    // Estimates the motion from the previous frame given to this one, over rows [top, bottom)
    // of the 8-bit luma plane. nullopt for the first frame, after a change of geometry and
    // when too few blocks carry texture.
    std::optional<FrameMotion> estimate(const uint8_t* luma, int stride, int width, int top,
                                        int bottom);
    // After estimate(): the change its motion does not explain (FrameMotion's
    // compensated_change), or when this frame's own fit failed, the change the last fitted
    // motion does not explain (a camera keeps moving; a seam is where the fit breaks).
    // nullopt without any fit since the last reset or change of geometry.
    std::optional<double> unexplainedChange() const { return m_unexplained; }
    void reset();

private:
    // FrameMotion::compensated_change of m_current against m_previous under the fitted model
    // (quarter-size pan tx, ty and zoom), with the frames' mean difference offset taken out.
    double compensatedChange(int width, int height, double tx, double ty, double zoom,
                             int offset) const;

    struct Fit {
        double tx = 0.0; // quarter-size pixels
        double ty = 0.0;
        double zoom = 0.0;
    };
    std::optional<Fit> m_last_fit;
    std::optional<double> m_unexplained;
    std::vector<uint8_t> m_previous; // the previous frame at quarter size
    std::vector<uint8_t> m_current;
    int m_width = 0; // quarter-size geometry of m_previous
    int m_height = 0;
};

} // namespace lbm::quality
