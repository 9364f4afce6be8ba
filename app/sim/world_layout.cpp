#include "app/sim/world_layout.h"

#include <algorithm>
#include <cmath>

namespace lbm::sim {
namespace {

constexpr float kRadPerDeg = 3.14159265358979f / 180.0f;
// Poles stand on the road's right-hand shoulder every third cell (30 m).
constexpr float kPoleOffsetM = kRoadHalfWidthM + 1.6f;
constexpr int kPoleEveryCells = 3;
// Nothing else stands closer to the road's centre line than this.
constexpr float kClearOfRoadM = kRoadHalfWidthM + 3.0f;

// splitmix64: a well-mixed hash of the seed and the cell, the same on every machine.
quint64 mix(quint64 value) {
    value += 0x9E3779B97F4A7C15ull;
    value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ull;
    value = (value ^ (value >> 27)) * 0x94D049BB133111EBull;
    return value ^ (value >> 31);
}

// A uniform number in [0, 1) from the hash's bits at `shift`.
float unit(quint64 hash, int shift) {
    return static_cast<float>((hash >> shift) & 0xFFFF) / 65536.0f;
}

} // namespace

EyePoint eyeOf(const CameraPose& pose) {
    EyePoint eye;
    eye.x = pose.position.x() * kMetresPerUnit;
    eye.y = std::max(kMinEyeHeightM, kEyeHeightM + pose.position.y() * kMetresPerUnit);
    eye.z = pose.position.z() * kMetresPerUnit;
    return eye;
}

float focalLengthPx(int width) {
    return 0.5f * static_cast<float>(width) / std::tan(0.5f * kHorizontalFovDeg * kRadPerDeg);
}

WorldLayout::WorldLayout(quint64 seed)
    : m_seed(mix(seed ^ 0x5BD1E995ull)) {}

void WorldLayout::objectsInCell(int cell_x, int cell_z, std::vector<WorldObject>& out) const {
    const quint64 hash =
        mix(m_seed ^ mix(static_cast<quint64>(static_cast<qint64>(cell_x)) * 0x100000001B3ull ^
                         static_cast<quint64>(static_cast<qint64>(cell_z))));
    const qint64 base_id = (static_cast<qint64>(cell_z) * 4096 + cell_x) * 4;
    const float origin_x = static_cast<float>(cell_x) * kCellM;
    const float origin_z = static_cast<float>(cell_z) * kCellM;
    if (cell_x == 0 && cell_z % kPoleEveryCells == 0) {
        WorldObject pole;
        pole.id = base_id + 1;
        pole.kind = WorldObject::Kind::Pole;
        pole.x = kPoleOffsetM;
        pole.z = origin_z + 5.0f;
        pole.width = pole.depth = 0.25f;
        pole.height = 7.5f;
        pole.style = static_cast<quint32>(hash);
        out.push_back(pole);
    }
    WorldObject object;
    object.id = base_id;
    object.style = static_cast<quint32>(hash >> 32);
    object.x = origin_x + 2.5f + 5.0f * unit(hash, 0);
    object.z = origin_z + 2.5f + 5.0f * unit(hash, 16);
    const float from_road = std::abs(object.x);
    if (from_road < kClearOfRoadM) {
        return;
    }
    const float pick = unit(hash, 32);
    const bool near_road = from_road < 35.0f;
    const float house_share = near_road ? 0.38f : 0.08f;
    const float tree_share = near_road ? 0.45f : 0.5f;
    if (pick < house_share) {
        object.kind = WorldObject::Kind::House;
        object.width = 5.0f + 2.5f * unit(hash, 48);
        object.depth = 5.0f + 2.0f * unit(hash, 8);
        object.height = 3.5f + 2.5f * unit(hash, 24);
        object.turn_deg = (hash >> 40) & 1 ? 90.0f : 0.0f;
    } else if (pick < house_share + tree_share) {
        object.kind = WorldObject::Kind::Tree;
        object.height = 5.0f + 6.0f * unit(hash, 48);
        object.width = object.depth = object.height * (0.35f + 0.2f * unit(hash, 8));
    } else {
        return;
    }
    out.push_back(object);
}

std::vector<WorldObject> WorldLayout::objectsNear(float x, float z, float radius) const {
    std::vector<WorldObject> objects;
    const int from_x = static_cast<int>(std::floor((x - radius) / kCellM));
    const int to_x = static_cast<int>(std::floor((x + radius) / kCellM));
    const int from_z = static_cast<int>(std::floor((z - radius) / kCellM));
    const int to_z = static_cast<int>(std::floor((z + radius) / kCellM));
    std::vector<WorldObject> cell;
    for (int cz = from_z; cz <= to_z; ++cz) {
        for (int cx = from_x; cx <= to_x; ++cx) {
            cell.clear();
            objectsInCell(cx, cz, cell);
            for (const WorldObject& object : cell) {
                const float dx = object.x - x;
                const float dz = object.z - z;
                if (dx * dx + dz * dz <= radius * radius) {
                    objects.push_back(object);
                }
            }
        }
    }
    return objects;
}

std::vector<qint64> WorldLayout::visibleObjectIds(const CameraPose& pose, int width,
                                                  int height) const {
    const EyePoint eye = eyeOf(pose);
    const QVector3D forward = pose.forward();
    const QVector3D right = pose.right();
    const QVector3D up = pose.up();
    const float focal = focalLengthPx(width);
    std::vector<qint64> visible;
    for (const WorldObject& object : objectsNear(eye.x, eye.z, kDrawDistanceM)) {
        // The object's axis, base to top: visible when a point of it projects inside the frame.
        const float radius = std::max(object.width, object.depth) * 0.5f;
        bool seen = false;
        for (const float level : {0.0f, 0.5f, 1.0f}) {
            const QVector3D offset(object.x - eye.x, object.height * level - eye.y,
                                   object.z - eye.z);
            const float depth = QVector3D::dotProduct(offset, forward);
            if (depth < kNearPlaneM) {
                continue;
            }
            const float sx = focal * QVector3D::dotProduct(offset, right) / depth;
            const float sy = focal * QVector3D::dotProduct(offset, up) / depth;
            const float margin = focal * radius / depth;
            if (std::abs(sx) <= 0.5f * static_cast<float>(width) + margin &&
                std::abs(sy) <= 0.5f * static_cast<float>(height) + margin) {
                seen = true;
                break;
            }
        }
        if (seen) {
            visible.push_back(object.id);
        }
    }
    std::sort(visible.begin(), visible.end());
    return visible;
}

} // namespace lbm::sim
