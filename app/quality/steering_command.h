#pragma once
// A camera command as the steering analysis sees it: which way the picture should move
// while it is in force. The camera's motion reaches the picture as a pan (strafing and
// yawing move the content sideways, pitching moves it up or down) and a zoom (moving forward
// or back), so each command is reduced to the sign it asks of each of those three; an axis
// the command does not drive (or drives both ways at once, like 'd' with 'j') is 0 and not
// judged.

#include <QString>

#include <array>
#include <optional>

namespace lbm::quality {

struct SteeringCommand {
    // The camera interaction's event id, or "script:<chunk>" for a camera_action_script entry.
    QString event_id;
    // The keys it stands for in "wasdijkl" order ("" for a stop or a velocity of other
    // origin), for people reading reports.
    QString keys;
    // Expected sign of the content's motion: pan_x + = content moves right (the camera
    // strafes or turns left), pan_y + = content moves down (the camera pitches up), zoom + =
    // content grows (the camera moves forward).
    int pan_x = 0;
    int pan_y = 0;
    int zoom = 0;
    // Session clock (seconds) when a live command was sent; nullopt for a script entry.
    std::optional<double> sent_s;

    bool moves() const { return pan_x != 0 || pan_y != 0 || zoom != 0; }
    // Same expected motion (which command it is does not matter).
    bool sameMotion(const SteeringCommand& other) const {
        return pan_x == other.pan_x && pan_y == other.pan_y && zoom == other.zoom;
    }
    bool operator==(const SteeringCommand&) const = default;

    // The keys held over a latent frame of a camera_action_script ("w", "a", ...).
    static SteeringCommand fromKeys(const QString& letters);
    // A velocity interaction: translation [x right, y up, z forward] per latent frame and a
    // rotation quaternion [qx, qy, qz, qw] (yaw about +Y, pitch about +X).
    static SteeringCommand fromVelocity(const std::array<double, 3>& translation,
                                        const std::array<double, 4>& rotation);
};

} // namespace lbm::quality
