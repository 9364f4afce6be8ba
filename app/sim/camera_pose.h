#pragma once
// The simulated camera: a pose in the protocol's Unity frame (+X right, +Y up, +Z forward)
// relative to the session's start pose, advanced once per latent frame the way the server
// integrates camera_action_script keys and velocity interactions.

#include <QQuaternion>
#include <QString>
#include <QVector3D>

#include <vector>

namespace lbm::sim {

// Per-latent-frame motion: translation in the camera's own frame, rotation composed on the
// right of the current orientation.
struct CameraVelocity {
    QVector3D translation;
    QQuaternion rotation;

    bool isZero() const;
    // The reference clients' key mapping: translation [0.05(d-a), 0, 0.05(w-s)], pitch
    // 4 deg (i-k) about +X, yaw 6 deg (l-j) about +Y, composed yaw * pitch.
    static CameraVelocity fromKeys(const std::vector<QString>& keys);
};

struct CameraPose {
    static constexpr float kMaxPitchDeg = 85.0f;

    QVector3D position;
    QQuaternion orientation;

    // One latent frame of motion; pitch is clamped to +-85 deg like the server's.
    CameraPose advanced(const CameraVelocity& velocity) const;
    // Straight-line position and slerped orientation; t in [0, 1].
    static CameraPose interpolated(const CameraPose& from, const CameraPose& to, float t);

    float yawDeg() const;
    float pitchDeg() const;
    float rollDeg() const;
};

} // namespace lbm::sim
