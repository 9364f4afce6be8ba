#pragma once
// The keyboard steering of the reference clients: which of W A S D I J K L are held, and the
// SE3 velocity those keys mean (protocol.md "Keys -> velocity"). The GUI and any scripted
// steering use the same mapping, so a key press means the same thing everywhere.

#include "app/protocol/camera_se3.h"

#include <QString>

namespace lbm::protocol {

// Per-latent-frame step sizes of the reference clients at speed factor 1.
inline constexpr double kTranslationStepPerFrame = 0.05;
inline constexpr double kPitchStepDeg = 4.0;
inline constexpr double kYawStepDeg = 6.0;
// The browser player's speed slider range.
inline constexpr double kMinSpeedFactor = 0.1;
inline constexpr double kMaxSpeedFactor = 2.0;

struct CameraKeys {
    bool w = false; // forward (+Z)
    bool a = false; // left (-X)
    bool s = false; // back (-Z)
    bool d = false; // right (+X)
    bool i = false; // pitch up (+ about +X)
    bool j = false; // yaw left (- about +Y)
    bool k = false; // pitch down
    bool l = false; // yaw right

    // Keys named by a string of letters, e.g. "wl"; other characters are ignored.
    static CameraKeys fromLetters(const QString& letters);
    // The held keys as letters in "wasdijkl" order ("" when none).
    QString letters() const;
    bool none() const { return letters().isEmpty(); }
    bool operator==(const CameraKeys&) const = default;
};

// translation [0.05(d-a), 0, 0.05(w-s)], pitch 4deg(i-k) about +X, yaw 6deg(l-j) about +Y,
// q = yaw (x) pitch; every step multiplied by speed_factor (clamped to [0.1, 2]). No keys
// gives the identity, which is the "stop" a client sends on release.
CameraSe3 velocityForKeys(const CameraKeys& keys, double speed_factor = 1.0);

} // namespace lbm::protocol
