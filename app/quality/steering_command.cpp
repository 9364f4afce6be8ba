#include "app/quality/steering_command.h"

namespace lbm::quality {
namespace {

constexpr double kEpsilon = 1e-9;

int signOf(double value) {
    return value > kEpsilon ? 1 : (value < -kEpsilon ? -1 : 0);
}

// Two motions that drive one axis: their common sign, or 0 when they disagree.
int combined(int a, int b) {
    if (a == 0) {
        return b;
    }
    if (b == 0 || a == b) {
        return a;
    }
    return 0;
}

int held(const QString& letters, char positive, char negative) {
    return (letters.contains(QLatin1Char(positive)) ? 1 : 0) -
           (letters.contains(QLatin1Char(negative)) ? 1 : 0);
}

} // namespace

SteeringCommand SteeringCommand::fromKeys(const QString& letters) {
    SteeringCommand command;
    for (const char key : {'w', 'a', 's', 'd', 'i', 'j', 'k', 'l'}) {
        if (letters.contains(QLatin1Char(key))) {
            command.keys.append(QLatin1Char(key));
        }
    }
    // Strafing right (d) and turning right (l) both carry the content to the left; looking
    // up (i) carries it down; moving forward (w) makes it grow.
    command.pan_x = combined(-held(letters, 'd', 'a'), -held(letters, 'l', 'j'));
    command.pan_y = held(letters, 'i', 'k');
    command.zoom = held(letters, 'w', 's');
    return command;
}

SteeringCommand SteeringCommand::fromVelocity(const std::array<double, 3>& translation,
                                              const std::array<double, 4>& rotation) {
    SteeringCommand command;
    // rotation = yaw (about +Y) x pitch (about +X): qy carries the yaw's sign, qx the pitch's.
    const int strafe = signOf(translation[0]);
    const int yaw = signOf(rotation[1]);
    const int pitch = signOf(rotation[0]);
    const int forward = signOf(translation[2]);
    command.pan_x = combined(-strafe, -yaw);
    command.pan_y = combined(pitch, signOf(translation[1]));
    command.zoom = forward;
    const auto add = [&command](bool on, char key) {
        if (on) {
            command.keys.append(QLatin1Char(key));
        }
    };
    add(forward > 0, 'w');
    add(strafe < 0, 'a');
    add(forward < 0, 's');
    add(strafe > 0, 'd');
    add(pitch > 0, 'i');
    add(yaw < 0, 'j');
    add(pitch < 0, 'k');
    add(yaw > 0, 'l');
    return command;
}

} // namespace lbm::quality
