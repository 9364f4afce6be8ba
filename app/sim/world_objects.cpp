// WorldRenderer's solids: houses (a box under a gable roof, windows and a door), trees (a
// trunk under a cone or a round crown, swaying in the wind) and poles with their wires, drawn
// far to near with QPainter after the ground and sky, each face clipped at the near plane so
// that an object the camera walks past leaves the picture instead of popping.

#include "app/sim/world_renderer.h"

#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>

#include <algorithm>
#include <cmath>

namespace lbm::sim {
namespace {

constexpr float kPoleSpacingM = 30.0f;

// Camera space: x right, y up, z along the view.
struct View {
    QVector3D eye;
    QVector3D right;
    QVector3D up;
    QVector3D forward;
    float focal = 1.0f;
    float cx = 0.0f;
    float cy = 0.0f;

    QVector3D toCamera(const QVector3D& world) const {
        const QVector3D offset = world - eye;
        return {QVector3D::dotProduct(offset, right), QVector3D::dotProduct(offset, up),
                QVector3D::dotProduct(offset, forward)};
    }
    QPointF project(const QVector3D& camera) const {
        return {cx + focal * camera.x() / camera.z(), cy - focal * camera.y() / camera.z()};
    }
    // The face's outline in pixels, clipped at the near plane (Sutherland-Hodgman against
    // one plane); empty when it lies wholly behind.
    QPolygonF polygon(const std::vector<QVector3D>& world) const {
        std::vector<QVector3D> camera;
        camera.reserve(world.size());
        for (const QVector3D& point : world) {
            camera.push_back(toCamera(point));
        }
        QPolygonF outline;
        for (size_t i = 0; i < camera.size(); ++i) {
            const QVector3D& a = camera[i];
            const QVector3D& b = camera[(i + 1) % camera.size()];
            const bool a_in = a.z() >= kNearPlaneM;
            const bool b_in = b.z() >= kNearPlaneM;
            if (a_in) {
                outline << project(a);
            }
            if (a_in != b_in) {
                const float t = (kNearPlaneM - a.z()) / (b.z() - a.z());
                outline << project(a + (b - a) * t);
            }
        }
        return outline;
    }
};

QColor shaded(const QColor& base, float brightness, const QColor& fog, float haze) {
    const auto channel = [&](int value, int fog_value) {
        const float lit = static_cast<float>(value) * brightness;
        return std::clamp(static_cast<int>(lit + (static_cast<float>(fog_value) - lit) * haze), 0,
                          255);
    };
    return QColor(channel(base.red(), fog.red()), channel(base.green(), fog.green()),
                  channel(base.blue(), fog.blue()));
}

QColor fromStyle(quint32 style, int shift, const std::initializer_list<QColor>& palette) {
    const auto index = static_cast<size_t>((style >> shift) % palette.size());
    return *(palette.begin() + static_cast<std::ptrdiff_t>(index));
}

QColor mixColour(const QColor& a, const QColor& b, float t) {
    return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                            a.greenF() + (b.greenF() - a.greenF()) * t,
                            a.blueF() + (b.blueF() - a.blueF()) * t);
}

// Faces of a house are lit by a fixed sun from the left and behind the start pose's view.
float faceLight(const QVector3D& normal) {
    static const QVector3D sun = QVector3D(-0.55f, 0.75f, -0.35f).normalized();
    return 0.62f + 0.5f * std::max(0.0f, QVector3D::dotProduct(normal, sun));
}

struct Scene {
    QPainter& painter;
    const View& view;
    const WorldLook& look;
    float time = 0.0f;

    float haze(const QVector3D& at) const {
        return 1.0f - std::exp(-(at - view.eye).length() / static_cast<float>(look.fog_distance));
    }
    void fill(const std::vector<QVector3D>& face, const QColor& colour) const {
        const QPolygonF outline = view.polygon(face);
        if (outline.size() >= 3) {
            painter.setBrush(colour);
            painter.drawPolygon(outline);
        }
    }
    bool facing(const QVector3D& point, const QVector3D& normal) const {
        return QVector3D::dotProduct(normal, view.eye - point) > 0.0f;
    }
};

void drawHouse(const Scene& scene, const WorldObject& house) {
    const bool turned = house.turn_deg > 45.0f;
    const float hx = 0.5f * (turned ? house.depth : house.width);
    const float hz = 0.5f * (turned ? house.width : house.depth);
    const float wall = house.height;
    const bool ridge_along_x = hx >= hz;
    const float roof = 0.55f * std::min(hx, hz) + 0.6f;
    const QVector3D c(house.x, 0.0f, house.z);
    const auto at = [&](float x, float y, float z) { return c + QVector3D(x, y, z); };
    const float light = static_cast<float>(scene.look.light);
    const float snow = static_cast<float>(scene.look.snow);
    const QColor fog = scene.look.sky_horizon;
    const float haze = scene.haze(c);
    // Windows only where they are more than a few pixels tall: far houses are plain blocks.
    const float depth = scene.view.toCamera(c).z();
    const bool detailed = depth < kNearPlaneM || scene.view.focal * 1.2f / depth > 3.0f;
    const QColor wall_base =
        fromStyle(house.style, 0,
                  {QColor(225, 215, 195), QColor(205, 120, 85), QColor(185, 200, 210),
                   QColor(235, 230, 220), QColor(160, 95, 70), QColor(215, 190, 140)});
    const QColor roof_base = mixColour(fromStyle(house.style, 8,
                                                 {QColor(130, 55, 45), QColor(70, 72, 80),
                                                  QColor(105, 80, 60), QColor(150, 75, 50)}),
                                       QColor(240, 242, 248), 0.9f * snow);
    const QColor glass = mixColour(QColor(35, 45, 60), scene.look.sky_horizon, 0.25f);
    const QColor lit_window(255, 205, 120);
    const bool night = light < 0.55f;

    struct Wall {
        QVector3D normal;
        std::vector<QVector3D> outline;
        QVector3D from; // lower left, seen from outside
        QVector3D along;
        float length;
    };
    // Each wall from its lower corner on the left as seen from outside; the two gable walls
    // rise to the ridge's end between their top corners.
    const float apex = wall + roof;
    const auto gabled = [&](bool gable, QVector3D low_a, QVector3D low_b, QVector3D top) {
        std::vector<QVector3D> outline{low_a, low_b, low_b + QVector3D(0, wall, 0)};
        if (gable) {
            outline.push_back(top);
        }
        outline.push_back(low_a + QVector3D(0, wall, 0));
        return outline;
    };
    std::vector<Wall> walls{
        {QVector3D(0, 0, 1), gabled(!ridge_along_x, at(hx, 0, hz), at(-hx, 0, hz), at(0, apex, hz)),
         at(hx, 0, hz), QVector3D(-1, 0, 0), 2 * hx},
        {QVector3D(0, 0, -1),
         gabled(!ridge_along_x, at(-hx, 0, -hz), at(hx, 0, -hz), at(0, apex, -hz)), at(-hx, 0, -hz),
         QVector3D(1, 0, 0), 2 * hx},
        {QVector3D(1, 0, 0), gabled(ridge_along_x, at(hx, 0, -hz), at(hx, 0, hz), at(hx, apex, 0)),
         at(hx, 0, -hz), QVector3D(0, 0, 1), 2 * hz},
        {QVector3D(-1, 0, 0),
         gabled(ridge_along_x, at(-hx, 0, hz), at(-hx, 0, -hz), at(-hx, apex, 0)), at(-hx, 0, hz),
         QVector3D(0, 0, -1), 2 * hz}};

    scene.painter.setPen(Qt::NoPen);
    for (const Wall& face : walls) {
        const QVector3D middle =
            face.from + face.along * (0.5f * face.length) + QVector3D(0, 0.5f * wall, 0);
        if (!scene.facing(middle, face.normal)) {
            continue;
        }
        const float brightness = faceLight(face.normal) * light;
        scene.fill(face.outline, shaded(wall_base, brightness, fog, haze));
        if (!detailed) {
            continue;
        }
        // Windows (and a door on the first wall) just proud of the wall.
        const QVector3D out = face.normal * 0.03f;
        const int count = std::max(1, static_cast<int>(face.length / 2.6f));
        const float spacing = face.length / static_cast<float>(count);
        const int storeys = wall > 5.0f ? 2 : 1;
        for (int storey = 0; storey < storeys; ++storey) {
            for (int i = 0; i < count; ++i) {
                const float along = spacing * (static_cast<float>(i) + 0.5f);
                const bool door = storey == 0 && i == count / 2 && &face == &walls[0];
                const float half = door ? 0.55f : 0.45f;
                const float bottom = door ? 0.0f : 1.0f + 2.6f * static_cast<float>(storey);
                const float top = door ? 2.1f : bottom + 1.2f;
                const QVector3D base = face.from + face.along * along + out;
                const bool lit = night && ((house.style >> (i + 3 * storey)) & 1u);
                const QColor pane = door ? QColor(90, 60, 45) : (lit ? lit_window : glass);
                scene.fill({base - face.along * half + QVector3D(0, bottom, 0),
                            base + face.along * half + QVector3D(0, bottom, 0),
                            base + face.along * half + QVector3D(0, top, 0),
                            base - face.along * half + QVector3D(0, top, 0)},
                           shaded(pane, lit ? 1.0f : std::max(0.6f, brightness), fog, haze));
            }
        }
    }
    // Two roof slopes, each from an eave to the ridge.
    std::vector<std::pair<QVector3D, std::vector<QVector3D>>> roofs;
    if (ridge_along_x) {
        roofs.push_back({QVector3D(0, hz, roof).normalized(),
                         {at(-hx, wall, hz), at(hx, wall, hz), at(hx, wall + roof, 0),
                          at(-hx, wall + roof, 0)}});
        roofs.push_back({QVector3D(0, hz, -roof).normalized(),
                         {at(hx, wall, -hz), at(-hx, wall, -hz), at(-hx, wall + roof, 0),
                          at(hx, wall + roof, 0)}});
    } else {
        roofs.push_back({QVector3D(roof, hx, 0).normalized(),
                         {at(hx, wall, hz), at(hx, wall, -hz), at(0, wall + roof, -hz),
                          at(0, wall + roof, hz)}});
        roofs.push_back({QVector3D(-roof, hx, 0).normalized(),
                         {at(-hx, wall, -hz), at(-hx, wall, hz), at(0, wall + roof, hz),
                          at(0, wall + roof, -hz)}});
    }
    for (const auto& [normal, outline] : roofs) {
        const QVector3D middle = (outline[0] + outline[2]) * 0.5f;
        if (scene.facing(middle, normal)) {
            scene.fill(outline, shaded(roof_base, faceLight(normal) * light, fog, haze));
        }
    }
}

void drawTree(const Scene& scene, const WorldObject& tree) {
    const View& view = scene.view;
    const QVector3D base(tree.x, 0.0f, tree.z);
    const float haze = scene.haze(base);
    const float light = static_cast<float>(scene.look.light);
    const float snow = static_cast<float>(scene.look.snow);
    const QColor fog = scene.look.sky_horizon;
    // Billboards turn to face the camera: their width runs along the view's right.
    const QVector3D side = view.right * 0.5f;
    const float trunk_half = 0.18f + 0.02f * tree.height;
    const float crown_from = tree.height * (tree.style & 1u ? 0.18f : 0.4f);
    scene.painter.setPen(Qt::NoPen);
    scene.fill({base - side * trunk_half * 2, base + side * trunk_half * 2,
                base + side * trunk_half * 2 + QVector3D(0, crown_from + 0.5f, 0),
                base - side * trunk_half * 2 + QVector3D(0, crown_from + 0.5f, 0)},
               shaded(QColor(85, 62, 45), light, fog, haze));
    const float phase = static_cast<float>(tree.style % 628) / 100.0f;
    const float sway = 0.12f * static_cast<float>(scene.look.wind) *
                       std::sin(1.3f * scene.time * static_cast<float>(scene.look.wind) + phase);
    const QColor leaves = mixColour(fromStyle(tree.style, 4,
                                              {QColor(50, 95, 45), QColor(70, 110, 50),
                                               QColor(40, 80, 50), QColor(95, 115, 55)}),
                                    QColor(235, 238, 245), 0.75f * snow);
    const QColor dark = shaded(leaves, 0.75f * light, fog, haze);
    const QColor bright = shaded(leaves, 1.15f * light, fog, haze);
    const float crown = 0.5f * tree.width;
    if (tree.style & 1u) {
        // A conifer: three stacked cones seen from the side, the top ones swaying most.
        for (int tier = 0; tier < 3; ++tier) {
            const float bottom =
                crown_from + (tree.height - crown_from) * 0.28f * static_cast<float>(tier);
            const float width = crown * (1.0f - 0.27f * static_cast<float>(tier));
            const float lean = sway * (0.4f + 0.3f * static_cast<float>(tier));
            const QVector3D apex =
                base + QVector3D(0, tree.height - 0.2f * static_cast<float>(2 - tier), 0) +
                side * 2 * lean;
            const QVector3D low = base + QVector3D(0, bottom, 0);
            scene.fill({low - side * 2 * width, low + side * 2 * width, apex},
                       tier == 1 ? bright : dark);
        }
        return;
    }
    // A broadleaf: a dark crown and a lit part up and to the sun's side.
    const QVector3D centre = base + QVector3D(0, crown_from + crown * 1.1f, 0) + side * 2 * sway;
    const QVector3D camera = view.toCamera(centre);
    if (camera.z() < kNearPlaneM + crown) {
        return;
    }
    const QPointF middle = view.project(camera);
    const float radius = view.focal * crown / camera.z();
    scene.painter.setBrush(dark);
    scene.painter.drawEllipse(middle, radius, radius * 1.1f);
    scene.painter.setBrush(bright);
    scene.painter.drawEllipse(middle + QPointF(-0.25 * radius, -0.3 * radius), radius * 0.6,
                              radius * 0.6);
}

void drawPole(const Scene& scene, const WorldObject& pole) {
    const View& view = scene.view;
    const QVector3D base(pole.x, 0.0f, pole.z);
    const float haze = scene.haze(base);
    const QColor wood = shaded(QColor(70, 55, 45), static_cast<float>(scene.look.light),
                               scene.look.sky_horizon, haze);
    const QVector3D side = view.right * 0.5f * pole.width;
    const QVector3D top(0, pole.height, 0);
    scene.painter.setPen(Qt::NoPen);
    scene.fill({base - side, base + side, base + side + top, base - side + top}, wood);
    const QVector3D bar(0.9f, 0, 0);
    const QVector3D bar_height(0, pole.height - 0.5f, 0);
    const QVector3D thick(0, 0.14f, 0);
    scene.fill({base - bar + bar_height, base + bar + bar_height, base + bar + bar_height + thick,
                base - bar + bar_height + thick},
               wood);
    // Wires to the next pole along the road, sagging a little, as clipped line segments.
    const QVector3D next = base + QVector3D(0, 0, kPoleSpacingM);
    QPen wire(wood);
    for (const float end : {-0.8f, 0.8f}) {
        const QVector3D from = base + bar_height + thick + QVector3D(end, 0, 0);
        const QVector3D to = next + bar_height + thick + QVector3D(end, 0, 0);
        QVector3D a = view.toCamera(from);
        QVector3D b = view.toCamera(to + QVector3D(0, -0.6f, 0));
        if (a.z() < kNearPlaneM && b.z() < kNearPlaneM) {
            continue;
        }
        if (a.z() < kNearPlaneM) {
            a = a + (b - a) * ((kNearPlaneM - a.z()) / (b.z() - a.z()));
        } else if (b.z() < kNearPlaneM) {
            b = b + (a - b) * ((kNearPlaneM - b.z()) / (a.z() - b.z()));
        }
        wire.setWidthF(std::clamp(view.focal * 0.03f / std::min(a.z(), b.z()), 0.6f, 3.0f));
        scene.painter.setPen(wire);
        scene.painter.drawLine(view.project(a), view.project(b));
    }
    scene.painter.setPen(Qt::NoPen);
}

} // namespace

void WorldRenderer::drawObjects(QImage& image, const FrameState& state) const {
    const EyePoint eye = eyeOf(state.pose);
    View view;
    view.eye = QVector3D(eye.x, eye.y, eye.z);
    view.right = state.pose.right();
    view.up = state.pose.up();
    view.forward = state.pose.forward();
    view.focal = m_focal;
    view.cx = 0.5f * static_cast<float>(m_width);
    view.cy = 0.5f * static_cast<float>(m_height);
    std::vector<WorldObject> objects = m_layout.objectsNear(eye.x, eye.z, kDrawDistanceM);
    // Only what the picture can show is drawn: in front of the camera (with room for the
    // object's size), inside the frame's sides, taller than a pixel and not lost in the fog.
    // A pole counts as seen when the wires to the next one might be.
    const float half_width = view.cx;
    const float half_height = view.cy;
    const float fog_limit = 4.0f * static_cast<float>(state.look.fog_distance);
    const auto hidden = [&](const QVector3D& at, float reach, float height) {
        const QVector3D camera = view.toCamera(at);
        if (camera.z() < -reach) {
            return true;
        }
        if (camera.z() <= reach) {
            return false; // beside the camera: some face may still cross the frame
        }
        const float margin = view.focal * reach / camera.z();
        return std::abs(view.focal * camera.x() / camera.z()) > half_width + margin ||
               std::abs(view.focal * camera.y() / camera.z()) > half_height + margin ||
               view.focal * height / camera.z() < 1.0f || camera.z() > fog_limit;
    };
    objects.erase(
        std::remove_if(
            objects.begin(), objects.end(),
            [&](const WorldObject& object) {
                const float reach = 0.75f * std::max({object.width, object.depth, object.height});
                const QVector3D at(object.x, 0.5f * object.height, object.z);
                if (object.kind != WorldObject::Kind::Pole) {
                    return hidden(at, reach, object.height);
                }
                return hidden(at, reach, object.height) &&
                       hidden(at + QVector3D(0, 0, 0.5f * kPoleSpacingM), 0.5f * kPoleSpacingM,
                              0.05f * object.height);
            }),
        objects.end());
    std::sort(objects.begin(), objects.end(), [&](const WorldObject& a, const WorldObject& b) {
        const float da = (QVector3D(a.x, 0, a.z) - view.eye).lengthSquared();
        const float db = (QVector3D(b.x, 0, b.z) - view.eye).lengthSquared();
        return da != db ? da > db : a.id < b.id;
    });
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing, true);
    const Scene scene{painter, view, state.look, static_cast<float>(state.world_time_s)};
    for (const WorldObject& object : objects) {
        // Antialiased edges only where an object is large enough for stair-steps to show.
        const float depth = view.toCamera(QVector3D(object.x, 0, object.z)).z();
        painter.setRenderHint(QPainter::Antialiasing,
                              depth < kNearPlaneM || view.focal * object.height / depth > 100.0f);
        switch (object.kind) {
        case WorldObject::Kind::House:
            drawHouse(scene, object);
            break;
        case WorldObject::Kind::Tree:
            drawTree(scene, object);
            break;
        case WorldObject::Kind::Pole:
            drawPole(scene, object);
            break;
        }
    }
}

} // namespace lbm::sim
