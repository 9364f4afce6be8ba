#pragma once
// Everything that decides one simulated frame: what the renderer draws (pose, look, time,
// faults) and the ground truth the send log records for it (the velocity commanded and the
// one applied, the interactions in force, the transition's progress).

#include "app/sim/camera_pose.h"
#include "app/sim/world_look.h"

#include <QPointF>
#include <QString>
#include <QStringList>

namespace lbm::sim {

// How far a seam jumps the view (protocol units: 20 m to the right, off the road among the
// houses, and 44 m ahead).
inline constexpr float kSeamJumpRightUnits = 1.0f;
inline constexpr float kSeamJumpAheadUnits = 2.2f;

struct FrameState {
    CameraPose pose;
    WorldLook look;
    QString caption; // prompt text (and transition progress) shown at the top
    qint64 frame_number = 0;
    qint64 generation_chunk_index = 0;
    // The world's clock: clouds drift, grass sways and grain changes with it. A freeze holds
    // it with the pose, so a frozen chunk repeats one picture.
    double world_time_s = 0.0;
    // 1 = the client's image as it was sent (chunk 0's first frame), fading into the world.
    double first_frame_mix = 0.0;

    // Injected visual faults (FaultKind::Seam, Blur, Tint). They change the picture only:
    // the caption and the barcode band are drawn over it afterwards, so frame numbers stay
    // readable.
    // A seam: the world is drawn from a place kSeamJump*Units away from the pose. The
    // camera's motion goes on the same way from there (a mirrored or turned view would make
    // every later command look reversed to a steering instrument).
    bool seam_jump = false;
    double blur_sigma_px = 0.0; // Gaussian blur of the picture
    double warm_cast = 0.0;     // added to red and taken from blue, in 8-bit levels

    // Ground truth only (the log), never drawn.
    CameraVelocity commanded; // per latent frame, what the command in force asks
    CameraVelocity applied;   // per latent frame, what the camera did
    QString camera_event_id;  // "script" under camera_action_script, empty when none
    QString prompt_event_id;  // the last prompt transition started, empty before any
    qint64 transition_chunks = 0;
    double transition_progress = 1.0; // of that transition at this frame (1 = settled)
    QStringList faults;               // every fault shaping this frame, as KIND@CHUNK
};

} // namespace lbm::sim
