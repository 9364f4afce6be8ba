#pragma once
// Draws the simulated world from a camera pose: sky with drifting clouds and a mountain
// panorama at infinity, an endless ground plane in perspective with a road and swaying grass,
// and the seeded houses, trees and poles of WorldLayout as simple solids. Software rendering
// into a QImage, row by row: the camera never rolls, so every row of the ground plane maps to
// a straight line of ground, and a row's colours (fog, light, wind) are worked out once per
// row. See docs/simulated-world.md for the model and what a frame costs.

#include "app/sim/frame_state.h"
#include "app/sim/world_layout.h"

#include <QImage>

#include <array>
#include <cstdint>
#include <vector>

namespace lbm::sim {

class WorldRenderer {
public:
    WorldRenderer(quint64 seed, int width, int height);

    // Builds the shared textures now (otherwise the first renderer does).
    static void warmUp() { sharedTextures(); }

    // Draws the world into image (RGB32, width x height), every pixel.
    void render(QImage& image, const FrameState& state) const;

private:
    // A square tileable 8-bit texture with its mip chain (level 0 the largest).
    struct Texture {
        std::vector<std::vector<quint8>> levels;
        int size = 0;
    };
    static Texture makeTexture(quint64 seed, int size, int octaves, double roughness);

    void drawSkyRows(QImage& image, const FrameState& state, int first_row, int last_row) const;
    void drawGroundRows(QImage& image, const FrameState& state, int first_row) const;
    void drawObjects(QImage& image, const FrameState& state) const;

    int m_width;
    int m_height;
    float m_focal;
    WorldLayout m_layout;
    // Textures and the panorama are the same for every session (built once per process, so
    // a new session starts at once); the seed turns the panorama and lays out the objects.
    struct Textures;
    static const Textures& sharedTextures();
    const Textures& m_textures;
    quint32 m_panorama_turn;              // 16.16 azimuth samples added to the yaw
    std::vector<qint32> m_column_azimuth; // per column, azimuth from the view (samples, 16.16)
};

} // namespace lbm::sim
