#include "app/protocol/camera_keys.h"
#include "app/protocol/client_messages.h"

#include <QJsonArray>

#include <catch2/catch.hpp>

#include <cmath>

using lbm::protocol::CameraKeys;
using lbm::protocol::CameraSe3;
using lbm::protocol::velocityForKeys;

namespace {

void requireClose(const std::array<double, 4>& actual, const std::array<double, 4>& expected) {
    for (std::size_t n = 0; n < 4; ++n) {
        INFO("component " << n << ": " << actual[n] << " vs " << expected[n]);
        REQUIRE(std::abs(actual[n] - expected[n]) < 5e-8);
    }
}

double norm(const std::array<double, 4>& q) {
    return std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
}

} // namespace

TEST_CASE("keys map to the reference clients' velocities", "[protocol][camera]") {
    SECTION("i alone pitches up 4 degrees about +X (protocol.md example)") {
        const CameraSe3 v = velocityForKeys(CameraKeys::fromLetters(QStringLiteral("i")));
        requireClose(v.rotation, {0.0348995, 0.0, 0.0, 0.9993908});
        REQUIRE(v.translation == std::array<double, 3>{0.0, 0.0, 0.0});
    }
    SECTION("l alone yaws right 6 degrees about +Y (protocol.md example)") {
        const CameraSe3 v = velocityForKeys(CameraKeys::fromLetters(QStringLiteral("l")));
        requireClose(v.rotation, {0.0, 0.0523360, 0.0, 0.9986295});
    }
    SECTION("k and j are the opposite directions") {
        requireClose(velocityForKeys(CameraKeys::fromLetters(QStringLiteral("k"))).rotation,
                     {-0.0348995, 0.0, 0.0, 0.9993908});
        requireClose(velocityForKeys(CameraKeys::fromLetters(QStringLiteral("j"))).rotation,
                     {0.0, -0.0523360, 0.0, 0.9986295});
    }
    SECTION("translation is 0.05 per latent frame: w forward +Z, d right +X") {
        const CameraSe3 wd = velocityForKeys(CameraKeys::fromLetters(QStringLiteral("wd")));
        REQUIRE(wd.translation == std::array<double, 3>{0.05, 0.0, 0.05});
        const CameraSe3 sa = velocityForKeys(CameraKeys::fromLetters(QStringLiteral("sa")));
        REQUIRE(sa.translation == std::array<double, 3>{-0.05, 0.0, -0.05});
        REQUIRE(sa.rotation == std::array<double, 4>{0.0, 0.0, 0.0, 1.0});
    }
    SECTION("opposite keys cancel") {
        REQUIRE(velocityForKeys(CameraKeys::fromLetters(QStringLiteral("wsadikjl"))).isIdentity());
    }
    SECTION("no keys is exactly the identity, with no negative zeros on the wire") {
        const CameraSe3 v = velocityForKeys(CameraKeys{});
        REQUIRE(v.isIdentity());
        const QString text = lbm::protocol::toWireText(
            lbm::protocol::cameraVelocityInteractionMessage(QStringLiteral("x"), v));
        REQUIRE_FALSE(text.contains(QStringLiteral("-0")));
        REQUIRE(text.contains(QStringLiteral("\"translation\":[0,0,0]")));
        REQUIRE(text.contains(QStringLiteral("\"rotation\":[0,0,0,1]")));
    }
    SECTION("combined pitch and yaw compose as q = yaw (x) pitch") {
        const CameraSe3 v = velocityForKeys(CameraKeys::fromLetters(QStringLiteral("il")));
        const double sp = std::sin(2.0 * M_PI / 180.0), cp = std::cos(2.0 * M_PI / 180.0);
        const double sy = std::sin(3.0 * M_PI / 180.0), cy = std::cos(3.0 * M_PI / 180.0);
        // yaw (x) pitch, written out: pitch first, then yaw; the z term is negative.
        requireClose(v.rotation, {cy * sp, sy * cp, -sy * sp, cy * cp});
        REQUIRE(std::abs(norm(v.rotation) - 1.0) < 1e-12);
    }
    SECTION("the speed factor scales steps and angles, clamped to 0.1..2") {
        const CameraSe3 half = velocityForKeys(CameraKeys::fromLetters(QStringLiteral("wi")), 0.5);
        REQUIRE(half.translation[2] == Approx(0.025));
        requireClose(half.rotation,
                     {std::sin(1.0 * M_PI / 180.0), 0.0, 0.0, std::cos(1.0 * M_PI / 180.0)});
        const CameraSe3 fast = velocityForKeys(CameraKeys::fromLetters(QStringLiteral("w")), 10.0);
        REQUIRE(fast.translation[2] == Approx(0.1));
        const CameraSe3 slow = velocityForKeys(CameraKeys::fromLetters(QStringLiteral("w")), 0.0);
        REQUIRE(slow.translation[2] == Approx(0.005));
    }
}

TEST_CASE("camera keys read and print letters", "[protocol][camera]") {
    const CameraKeys keys = CameraKeys::fromLetters(QStringLiteral("LiW?"));
    REQUIRE(keys.w);
    REQUIRE(keys.i);
    REQUIRE(keys.l);
    REQUIRE_FALSE(keys.a);
    REQUIRE(keys.letters() == QStringLiteral("wil"));
    REQUIRE(CameraKeys{}.none());
}
