#pragma once
// The simulated camera: a pose in the protocol's Unity frame (+X right, +Y up, +Z forward)
// relative to the session's start pose, advanced once per latent frame the way the server
// integrates camera_action_script keys and velocity interactions.
//
// Signs are the reference clients' (protocol.md "Keys -> velocity", app/protocol/camera_keys.h):
// l turns right (+ about +Y), i looks up (+ about +X), w moves along the view, d to its right.
// The camera walks like a game camera: yaw turns about the world's up axis and pitch about
// the camera's right axis, so the horizon stays level (no roll); the protocol does not say
// how the model composes them, and a rolling horizon is not what a key press asks for.

#include <QQuaternion>
#include <QString>
#include <QVector3D>

#include <vector>

namespace lbm::sim {

// Per-latent-frame motion: translation in the camera's own frame (x right, y up, z along
// the view), rotation as yaw (about +Y) composed with pitch (about +X).
struct CameraVelocity {
    QVector3D translation;
    QQuaternion rotation;

    bool isZero() const;
    // The turn and tilt this rotation asks for, in degrees (l and i positive).
    float yawDeg() const;
    float pitchDeg() const;
    // The same motion backwards (translation negated, rotation inverted).
    CameraVelocity reversed() const;
    // The reference clients' key mapping: translation [0.05(d-a), 0, 0.05(w-s)], pitch
    // 4 deg (i-k) about +X, yaw 6 deg (l-j) about +Y, composed yaw * pitch.
    static CameraVelocity fromKeys(const std::vector<QString>& keys);
    // The velocity that moves from to to in one latent frame (target interactions).
    static CameraVelocity between(const struct CameraPose& from, const struct CameraPose& to);
};

struct CameraPose {
    static constexpr float kMaxPitchDeg = 85.0f;

    QVector3D position;
    QQuaternion orientation; // yaw about +Y then pitch about +X; never rolled

    static CameraPose fromAngles(const QVector3D& position, float yaw_deg, float pitch_deg);

    // One latent frame of motion; pitch is clamped to +-85 deg like the server's.
    CameraPose advanced(const CameraVelocity& velocity) const;
    // Straight-line position and interpolated angles; t in [0, 1].
    static CameraPose interpolated(const CameraPose& from, const CameraPose& to, float t);

    float yawDeg() const;   // + turned right
    float pitchDeg() const; // + looking up
    float rollDeg() const;  // always 0; kept for callers that print a full attitude

    // The camera's axes in the world: along the view, to its right, and its up.
    QVector3D forward() const;
    QVector3D right() const;
    QVector3D up() const;
};

} // namespace lbm::sim
