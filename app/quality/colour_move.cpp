#include "app/quality/colour_move.h"

#include <cmath>

namespace lbm::quality {
namespace {

// A cast moves both measures; a pan onto differently coloured content moves only the
// picture's (so the steps follow content the motion kept in view), and a motion the
// pan-and-zoom estimate gets wrong moves only the steps: flying toward a near pole with the
// view tilted up, the parallax read -20 px pans, the steps summed to 4.2 levels over the
// chunk while the picture's colour moved 1.9, a tint flag in a clean scripted session. So
// each axis takes the move both agree on: the smaller of the two, or none where they part.
double agreed(double steps, double picture) {
    if (steps * picture <= 0.0) {
        return 0.0;
    }
    return std::abs(steps) < std::abs(picture) ? steps : picture;
}

} // namespace

ColourMove colourMove(const std::vector<FrameQuality>& frames, double picture_u, double picture_v) {
    double u = 0.0;
    double v = 0.0;
    for (const FrameQuality& frame : frames) {
        if (!frame.u_step || !frame.v_step) {
            return ColourMove{picture_u, picture_v};
        }
        u += *frame.u_step;
        v += *frame.v_step;
    }
    if (frames.empty()) {
        return ColourMove{picture_u, picture_v};
    }
    return ColourMove{agreed(u, picture_u), agreed(v, picture_v)};
}

} // namespace lbm::quality
