#include "app/protocol/camera_keys.h"

#include <algorithm>
#include <numbers>

namespace lbm::protocol {

CameraKeys CameraKeys::fromLetters(const QString& letters) {
    CameraKeys keys;
    for (const QChar c : letters.toLower()) {
        switch (c.unicode()) {
        case u'w':
            keys.w = true;
            break;
        case u'a':
            keys.a = true;
            break;
        case u's':
            keys.s = true;
            break;
        case u'd':
            keys.d = true;
            break;
        case u'i':
            keys.i = true;
            break;
        case u'j':
            keys.j = true;
            break;
        case u'k':
            keys.k = true;
            break;
        case u'l':
            keys.l = true;
            break;
        default:
            break;
        }
    }
    return keys;
}

QString CameraKeys::letters() const {
    QString out;
    const std::pair<bool, char16_t> table[] = {{w, u'w'}, {a, u'a'}, {s, u's'}, {d, u'd'},
                                               {i, u'i'}, {j, u'j'}, {k, u'k'}, {l, u'l'}};
    for (const auto& [held, letter] : table) {
        if (held) {
            out += QChar(letter);
        }
    }
    return out;
}

CameraSe3 velocityForKeys(const CameraKeys& keys, double speed_factor) {
    const double speed = std::clamp(speed_factor, kMinSpeedFactor, kMaxSpeedFactor);
    const auto axis = [](bool positive, bool negative) {
        return static_cast<double>(static_cast<int>(positive) - static_cast<int>(negative));
    };
    constexpr double kDegToRad = std::numbers::pi / 180.0;
    CameraSe3 velocity;
    velocity.translation = {kTranslationStepPerFrame * speed * axis(keys.d, keys.a), 0.0,
                            kTranslationStepPerFrame * speed * axis(keys.w, keys.s)};
    const auto pitch = quaternionFromAxisAngle(
        {1.0, 0.0, 0.0}, kPitchStepDeg * speed * axis(keys.i, keys.k) * kDegToRad);
    const auto yaw = quaternionFromAxisAngle({0.0, 1.0, 0.0}, kYawStepDeg * speed *
                                                                  axis(keys.l, keys.j) * kDegToRad);
    velocity.rotation = quaternionMultiply(yaw, pitch);
    // -0.0 would serialise as "-0"; adding +0.0 turns it into +0.0 so that releasing the keys
    // sends exactly the identity the server documents as "stop".
    for (double& component : velocity.translation) {
        component += 0.0;
    }
    for (double& component : velocity.rotation) {
        component += 0.0;
    }
    return velocity;
}

} // namespace lbm::protocol
