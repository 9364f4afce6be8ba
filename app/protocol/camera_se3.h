#pragma once
// An SE3 value in the server's Unity frame (+X right, +Y up, +Z forward): a translation and
// a unit quaternion [qx, qy, qz, qw]. It is both a camera velocity (applied once per latent
// frame) and a camera target pose (relative to the session's start pose).

#include <array>

namespace lbm::protocol {

struct CameraSe3 {
    std::array<double, 3> translation{0.0, 0.0, 0.0};
    std::array<double, 4> rotation{0.0, 0.0, 0.0, 1.0}; // [qx, qy, qz, qw]

    // The identity: as a velocity it is "stop"; nothing on the server expires by itself.
    static CameraSe3 identity() { return {}; }
    bool isIdentity() const;
    bool operator==(const CameraSe3&) const = default;
};

// Axis-angle to quaternion, [ax*sin(t/2), ay*sin(t/2), az*sin(t/2), cos(t/2)]; the axis must
// be a unit vector.
std::array<double, 4> quaternionFromAxisAngle(const std::array<double, 3>& unit_axis,
                                              double angle_rad);
// Hamilton product a (x) b: rotating by b first, then by a.
std::array<double, 4> quaternionMultiply(const std::array<double, 4>& a,
                                         const std::array<double, 4>& b);

} // namespace lbm::protocol
