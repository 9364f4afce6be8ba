#pragma once
// How the simulated world looks at a moment: sky, light, ground, fog, clouds, snow. The
// session's first look is read from the image the client sent (so the world continues its
// palette and time of day); a prompt transition blends toward the look its words ask for.

#include <QColor>
#include <QImage>
#include <QString>

namespace lbm::sim {

struct WorldLook {
    QColor sky_zenith{70, 120, 190};
    QColor sky_horizon{180, 205, 230};
    QColor grass{90, 120, 60};
    QColor road{95, 95, 100};
    QColor mountain{100, 115, 140};
    QColor cloud{245, 245, 250};
    double light = 1.0;        // overall exposure of lit surfaces, 0.2 (night) .. 1.2
    double fog_distance = 260; // metres at which 63% of a surface's colour is fog
    double cloud_cover = 0.45; // 0 clear .. 1 overcast
    double snow = 0.0;         // 0 .. 1 of the ground and roofs white
    double wind = 1.0;         // how fast clouds drift and grass sways

    // The look of an image: its top rows give the sky, its bottom rows the ground, its
    // brightness the light. A null image gives the default day.
    static WorldLook fromImage(const QImage& image);
    // base changed as a prompt's words ask (night, sunset, snow, fog, rain, autumn, desert,
    // ...); any prompt also shifts the palette a little by its text, so every prompt
    // transition changes the picture. Deterministic across runs and machines.
    static WorldLook forPrompt(const QString& prompt, const WorldLook& base);
    // Component-wise, t in [0, 1].
    static WorldLook blend(const WorldLook& from, const WorldLook& to, double t);

    bool operator==(const WorldLook&) const = default;
};

} // namespace lbm::sim
