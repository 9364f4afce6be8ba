#pragma once
// Paints the simulator's frames from a session's first frame: a camera view of the image
// that pans, zooms and turns with the pose, the prompt's colour grade and caption, the
// chunk index, and the machine-readable frame-number band.

#include "app/sim/camera_pose.h"

#include <QColor>
#include <QImage>
#include <QPointF>
#include <QString>

namespace lbm::sim {

// Everything that decides one frame's pixels.
struct FrameState {
    CameraPose pose;
    QColor grade;    // the prompt colour grade resolved for this frame
    QString caption; // prompt text (and transition progress) shown at the top
    qint64 frame_number = 0;
    qint64 generation_chunk_index = 0;
    // Injected visual faults (FaultKind::Seam, Blur, Tint). They change the picture only:
    // the caption and the barcode band are drawn over it afterwards, so frame numbers stay
    // readable.
    QPointF view_offset_px;     // added to the camera's pan (the tile is 2x2 mirrored)
    double blur_sigma_px = 0.0; // Gaussian blur of the picture
    double warm_cast = 0.0;     // added to red and taken from blue, in 8-bit levels
};

class FrameRenderer {
public:
    // first_frame is scaled (aspect preserving, cropped) to width x height.
    FrameRenderer(const QImage& first_frame, int width, int height);

    QImage render(const FrameState& state) const;

    // A deterministic colour for a prompt text (stable across runs and machines).
    static QColor gradeForPrompt(const QString& prompt);
    // Component-wise blend, t in [0, 1].
    static QColor blend(const QColor& from, const QColor& to, double t);
    // In place on an RGB32 image: three box passes per axis (a close Gaussian
    // approximation whose cost does not grow with sigma), edges replicated.
    static void blurImage(QImage& image, double sigma_px);
    // In place on an RGB32 image: red + cast, blue - cast, clamped to 0..255.
    static void castImage(QImage& image, double cast);

private:
    int m_width;
    int m_height;
    QImage m_tile; // first frame mirrored 2x2, so any pan wraps without a seam
};

} // namespace lbm::sim
