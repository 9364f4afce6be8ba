#pragma once
// Paints the simulator's frames: the world seen from the frame's pose (WorldRenderer), the
// client's image as chunk 0's first frame fading into it, the realism pass (grain, flicker,
// white balance), the injected visual faults, then the caption, the chunk index and the
// machine-readable frame-number band, which faults never touch.

#include "app/sim/frame_state.h"
#include "app/sim/realism.h"
#include "app/sim/world_renderer.h"

#include <QColor>
#include <QImage>
#include <QPointF>
#include <QString>

#include <array>

namespace lbm::sim {

class FrameRenderer {
public:
    // first_frame is scaled (aspect preserving, cropped) to width x height; seed builds the
    // world (the session's seed: same seed, same world).
    FrameRenderer(const QImage& first_frame, int width, int height, quint64 seed = 42,
                  Realism realism = Realism::Low);

    // Thread-safe (const, no shared mutable state): ChunkProducer renders a chunk's frames
    // on several threads.
    QImage render(const FrameState& state) const;
    // The same into `frame`, reusing its pixels when it is already an RGB32 image of the
    // session's size and not shared (every pixel is drawn anew): a fresh 832x480 image costs
    // its 1.6 MB in page faults, a third of a chunk's production on a VM where a fault
    // takes 10-20 us.
    void renderInto(QImage& frame, const FrameState& state) const;
    // Builds the textures every session shares, so the first session need not wait for them.
    static void warmUp();
    // In place on an RGB32 image: three box passes per axis (a close Gaussian
    // approximation whose cost does not grow with sigma), edges replicated.
    static void blurImage(QImage& image, double sigma_px);
    // The three passes' box radii for sigma_px (exposed so a test can run plain box filters
    // of the same radii beside blurImage).
    static std::array<int, 3> blurBoxRadii(double sigma_px);
    // In place on an RGB32 image: red + cast, blue - cast, clamped to 0..255.
    static void castImage(QImage& image, double cast);

private:
    int m_width;
    int m_height;
    Realism m_realism;
    QImage m_first_frame; // the client's image at the session's size
    WorldRenderer m_world;
    RealismPass m_realism_pass;
};

} // namespace lbm::sim
