#pragma once
// The simulated world's fixed geometry and its objects. The protocol gives camera motion in
// units without a metric scale; the simulator takes one unit as kMetresPerUnit metres, so a
// held `w` (0.05 per latent frame, three latent frames per 0.75 s chunk) walks at 4 m/s and
// houses, trees and poles along the road pass at a pace a viewer can follow.
//
// The ground is an endless plane with a straight road along +Z through the start pose; the
// objects stand in 10 m cells over the whole plane, placed by a hash of the session's seed
// and the cell, so the same seed always builds the same world and any direction the camera
// goes has something in it (denser near the road, where the camera starts).

#include "app/sim/camera_pose.h"

#include <QtGlobal>

#include <vector>

namespace lbm::sim {

inline constexpr float kMetresPerUnit = 20.0f;
inline constexpr float kEyeHeightM = 1.7f;
inline constexpr float kMinEyeHeightM = 0.3f; // the camera never goes below the ground
inline constexpr float kHorizontalFovDeg = 65.0f;
inline constexpr float kRoadHalfWidthM = 4.0f;
inline constexpr float kDrawDistanceM = 180.0f;
inline constexpr float kNearPlaneM = 0.25f;
inline constexpr float kCellM = 10.0f;

struct WorldObject {
    enum class Kind { House, Tree, Pole };
    qint64 id = 0; // unique per cell and slot, stable for the seed
    Kind kind = Kind::Tree;
    float x = 0.0f; // metres; the footprint's centre on the ground
    float z = 0.0f;
    float width = 1.0f; // along X (houses: before their turn)
    float depth = 1.0f; // along Z
    float height = 1.0f;
    float turn_deg = 0.0f; // houses: 0 or 90, facing the road or along it
    quint32 style = 0;     // colours, window layout, canopy shape
};

// Where the camera's eye is in metres: the pose scaled, at eye height, never below the floor.
struct EyePoint {
    float x = 0.0f;
    float y = kEyeHeightM;
    float z = 0.0f;
};
EyePoint eyeOf(const CameraPose& pose);

// The focal length in pixels for the session's width.
float focalLengthPx(int width);

class WorldLayout {
public:
    explicit WorldLayout(quint64 seed);

    // Every object whose footprint centre is within radius metres of (x, z).
    std::vector<WorldObject> objectsNear(float x, float z, float radius) const;
    // The objects a frame of width x height from this pose shows (in front of the camera,
    // within the draw distance, some part inside the picture).
    std::vector<qint64> visibleObjectIds(const CameraPose& pose, int width, int height) const;

private:
    void objectsInCell(int cell_x, int cell_z, std::vector<WorldObject>& out) const;

    quint64 m_seed;
};

} // namespace lbm::sim
