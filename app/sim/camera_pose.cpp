#include "app/sim/camera_pose.h"

#include <algorithm>

namespace lbm::sim {
namespace {

constexpr float kStepTranslation = 0.05f;
constexpr float kStepPitchDeg = 4.0f;
constexpr float kStepYawDeg = 6.0f;

int held(const std::vector<QString>& keys, QLatin1String key) {
    return std::find(keys.cbegin(), keys.cend(), QString(key)) != keys.cend() ? 1 : 0;
}

} // namespace

bool CameraVelocity::isZero() const {
    const QQuaternion unit = rotation.normalized();
    return translation.isNull() && qFuzzyIsNull(unit.x()) && qFuzzyIsNull(unit.y()) &&
           qFuzzyIsNull(unit.z());
}

CameraVelocity CameraVelocity::fromKeys(const std::vector<QString>& keys) {
    const int w = held(keys, QLatin1String("w"));
    const int a = held(keys, QLatin1String("a"));
    const int s = held(keys, QLatin1String("s"));
    const int d = held(keys, QLatin1String("d"));
    const int i = held(keys, QLatin1String("i"));
    const int k = held(keys, QLatin1String("k"));
    const int j = held(keys, QLatin1String("j"));
    const int l = held(keys, QLatin1String("l"));
    CameraVelocity velocity;
    velocity.translation = QVector3D(kStepTranslation * static_cast<float>(d - a), 0.0f,
                                     kStepTranslation * static_cast<float>(w - s));
    const QQuaternion pitch =
        QQuaternion::fromAxisAndAngle(1, 0, 0, kStepPitchDeg * static_cast<float>(i - k));
    const QQuaternion yaw =
        QQuaternion::fromAxisAndAngle(0, 1, 0, kStepYawDeg * static_cast<float>(l - j));
    velocity.rotation = yaw * pitch;
    return velocity;
}

CameraPose CameraPose::advanced(const CameraVelocity& velocity) const {
    CameraPose next;
    next.position = position + orientation.rotatedVector(velocity.translation);
    const QQuaternion turned = (orientation * velocity.rotation.normalized()).normalized();
    QVector3D euler = turned.toEulerAngles(); // (pitch, yaw, roll) in degrees
    euler.setX(std::clamp(euler.x(), -kMaxPitchDeg, kMaxPitchDeg));
    next.orientation = QQuaternion::fromEulerAngles(euler);
    return next;
}

CameraPose CameraPose::interpolated(const CameraPose& from, const CameraPose& to, float t) {
    CameraPose pose;
    pose.position = from.position + (to.position - from.position) * t;
    pose.orientation = QQuaternion::slerp(from.orientation, to.orientation, t);
    return pose;
}

float CameraPose::yawDeg() const {
    return orientation.toEulerAngles().y();
}

float CameraPose::pitchDeg() const {
    return orientation.toEulerAngles().x();
}

float CameraPose::rollDeg() const {
    return orientation.toEulerAngles().z();
}

} // namespace lbm::sim
