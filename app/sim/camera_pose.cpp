#include "app/sim/camera_pose.h"

#include <algorithm>
#include <cmath>

namespace lbm::sim {
namespace {

constexpr float kStepTranslation = 0.05f;
constexpr float kStepPitchDeg = 4.0f;
constexpr float kStepYawDeg = 6.0f;
constexpr float kRadPerDeg = 3.14159265358979f / 180.0f;

int held(const std::vector<QString>& keys, QLatin1String key) {
    return std::find(keys.cbegin(), keys.cend(), QString(key)) != keys.cend() ? 1 : 0;
}

// Wraps an angle to (-180, 180].
float wrapDeg(float degrees) {
    float wrapped = std::fmod(degrees + 180.0f, 360.0f);
    if (wrapped <= 0.0f) {
        wrapped += 360.0f;
    }
    return wrapped - 180.0f;
}

} // namespace

bool CameraVelocity::isZero() const {
    const QQuaternion unit = rotation.normalized();
    return translation.isNull() && qFuzzyIsNull(unit.x()) && qFuzzyIsNull(unit.y()) &&
           qFuzzyIsNull(unit.z());
}

float CameraVelocity::yawDeg() const {
    return rotation.normalized().toEulerAngles().y();
}

float CameraVelocity::pitchDeg() const {
    return rotation.normalized().toEulerAngles().x();
}

CameraVelocity CameraVelocity::reversed() const {
    // yaw * pitch inverted as a key press would: the opposite turn and the opposite tilt.
    const QQuaternion back = QQuaternion::fromAxisAndAngle(0, 1, 0, -yawDeg()) *
                             QQuaternion::fromAxisAndAngle(1, 0, 0, -pitchDeg());
    return CameraVelocity{-translation, back};
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

CameraVelocity CameraVelocity::between(const CameraPose& from, const CameraPose& to) {
    const QVector3D delta = to.position - from.position;
    CameraVelocity velocity;
    velocity.translation = QVector3D(QVector3D::dotProduct(delta, from.right()),
                                     QVector3D::dotProduct(delta, from.up()),
                                     QVector3D::dotProduct(delta, from.forward()));
    velocity.rotation =
        QQuaternion::fromAxisAndAngle(0, 1, 0, wrapDeg(to.yawDeg() - from.yawDeg())) *
        QQuaternion::fromAxisAndAngle(1, 0, 0, to.pitchDeg() - from.pitchDeg());
    return velocity;
}

CameraPose CameraPose::fromAngles(const QVector3D& position, float yaw_deg, float pitch_deg) {
    CameraPose pose;
    pose.position = position;
    pose.orientation = QQuaternion::fromEulerAngles(pitch_deg, wrapDeg(yaw_deg), 0.0f);
    return pose;
}

CameraPose CameraPose::advanced(const CameraVelocity& velocity) const {
    const QVector3D moved = position + right() * velocity.translation.x() +
                            up() * velocity.translation.y() + forward() * velocity.translation.z();
    const float pitch = std::clamp(pitchDeg() + velocity.pitchDeg(), -kMaxPitchDeg, kMaxPitchDeg);
    return fromAngles(moved, yawDeg() + velocity.yawDeg(), pitch);
}

CameraPose CameraPose::interpolated(const CameraPose& from, const CameraPose& to, float t) {
    const QVector3D position = from.position + (to.position - from.position) * t;
    const float yaw = from.yawDeg() + wrapDeg(to.yawDeg() - from.yawDeg()) * t;
    const float pitch = from.pitchDeg() + (to.pitchDeg() - from.pitchDeg()) * t;
    return fromAngles(position, yaw, pitch);
}

float CameraPose::yawDeg() const {
    return orientation.toEulerAngles().y();
}

float CameraPose::pitchDeg() const {
    return orientation.toEulerAngles().x();
}

float CameraPose::rollDeg() const {
    return 0.0f;
}

QVector3D CameraPose::forward() const {
    const float yaw = yawDeg() * kRadPerDeg;
    const float pitch = pitchDeg() * kRadPerDeg;
    return {std::sin(yaw) * std::cos(pitch), std::sin(pitch), std::cos(yaw) * std::cos(pitch)};
}

QVector3D CameraPose::right() const {
    const float yaw = yawDeg() * kRadPerDeg;
    return {std::cos(yaw), 0.0f, -std::sin(yaw)};
}

QVector3D CameraPose::up() const {
    const float yaw = yawDeg() * kRadPerDeg;
    const float pitch = pitchDeg() * kRadPerDeg;
    return {-std::sin(yaw) * std::sin(pitch), std::cos(pitch), -std::cos(yaw) * std::sin(pitch)};
}

} // namespace lbm::sim
