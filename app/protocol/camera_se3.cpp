#include "app/protocol/camera_se3.h"

#include <cmath>

namespace lbm::protocol {

bool CameraSe3::isIdentity() const {
    return *this == identity();
}

std::array<double, 4> quaternionFromAxisAngle(const std::array<double, 3>& unit_axis,
                                              double angle_rad) {
    const double half = angle_rad / 2.0;
    const double s = std::sin(half);
    return {unit_axis[0] * s, unit_axis[1] * s, unit_axis[2] * s, std::cos(half)};
}

std::array<double, 4> quaternionMultiply(const std::array<double, 4>& a,
                                         const std::array<double, 4>& b) {
    const double ax = a[0], ay = a[1], az = a[2], aw = a[3];
    const double bx = b[0], by = b[1], bz = b[2], bw = b[3];
    return {aw * bx + bw * ax + (ay * bz - az * by), aw * by + bw * ay + (az * bx - ax * bz),
            aw * bz + bw * az + (ax * by - ay * bx), aw * bw - (ax * bx + ay * by + az * bz)};
}

} // namespace lbm::protocol
