#pragma once
// Paints the simulator's frames from a session's first frame: a camera view of the image
// that pans, zooms and turns with the pose, the prompt's colour grade and caption, the
// chunk index, and the machine-readable frame-number band.

#include "app/sim/camera_pose.h"

#include <QColor>
#include <QImage>
#include <QString>

namespace lbm::sim {

// Everything that decides one frame's pixels.
struct FrameState {
    CameraPose pose;
    QColor grade;    // the prompt colour grade resolved for this frame
    QString caption; // prompt text (and transition progress) shown at the top
    qint64 frame_number = 0;
    qint64 generation_chunk_index = 0;
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

private:
    int m_width;
    int m_height;
    QImage m_tile; // first frame mirrored 2x2, so any pan wraps without a seam
};

} // namespace lbm::sim
