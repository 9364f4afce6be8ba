#include "app/sim/world_renderer.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace lbm::sim {
namespace {

constexpr float kPi = 3.14159265358979f;
constexpr float kRadPerDeg = kPi / 180.0f;
constexpr int kAzimuthSamples = 4096; // panorama samples per full turn
constexpr int kCloudWidth = 1024;     // cloud field samples per full turn
constexpr int kCloudHeight = 256;
constexpr int kDetailLevels = 64; // ground detail levels a row's colour table holds
constexpr float kGrassTileM = 4.0f;
constexpr float kCoarseTileM = 36.0f; // the same grass field again, for large patches
constexpr float kAsphaltTileM = 2.0f;
constexpr float kLaneDashM = 9.0f;

QRgb packed(float red, float green, float blue) {
    return qRgb(std::clamp(static_cast<int>(red), 0, 255),
                std::clamp(static_cast<int>(green), 0, 255),
                std::clamp(static_cast<int>(blue), 0, 255));
}

struct Rgb {
    float r = 0;
    float g = 0;
    float b = 0;
};

Rgb rgbOf(const QColor& colour) {
    return {static_cast<float>(colour.red()), static_cast<float>(colour.green()),
            static_cast<float>(colour.blue())};
}

Rgb mixed(const Rgb& a, const Rgb& b, float t) {
    return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

Rgb times(const Rgb& a, float k) {
    return {a.r * k, a.g * k, a.b * k};
}

QRgb packed(const Rgb& colour) {
    return packed(colour.r, colour.g, colour.b);
}

// Tileable value noise, width x height, octaves of doubling frequency from a 4-cell lattice.
std::vector<float> tileableNoise(quint64 seed, int width, int height, int octaves,
                                 double roughness) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    std::vector<float> field(static_cast<size_t>(width) * static_cast<size_t>(height), 0.0f);
    float amplitude = 1.0f;
    for (int octave = 0; octave < octaves; ++octave) {
        const int cells_x = std::min(width, 4 << octave);
        const int cells_y = std::min(height, std::max(1, (4 << octave) * height / width));
        std::vector<float> lattice(static_cast<size_t>(cells_x) * static_cast<size_t>(cells_y));
        for (float& value : lattice) {
            value = uniform(random);
        }
        const auto at = [&](int x, int y) {
            return lattice[static_cast<size_t>((y % cells_y) * cells_x + (x % cells_x))];
        };
        for (int y = 0; y < height; ++y) {
            const float fy =
                static_cast<float>(y) * static_cast<float>(cells_y) / static_cast<float>(height);
            const int y0 = static_cast<int>(fy);
            float ty = fy - static_cast<float>(y0);
            ty = ty * ty * (3 - 2 * ty);
            for (int x = 0; x < width; ++x) {
                const float fx =
                    static_cast<float>(x) * static_cast<float>(cells_x) / static_cast<float>(width);
                const int x0 = static_cast<int>(fx);
                float tx = fx - static_cast<float>(x0);
                tx = tx * tx * (3 - 2 * tx);
                const float top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * tx;
                const float bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * tx;
                field[static_cast<size_t>(y * width + x)] +=
                    amplitude * (top + (bottom - top) * ty);
            }
        }
        amplitude *= static_cast<float>(roughness);
    }
    const auto [low, high] = std::minmax_element(field.cbegin(), field.cend());
    const float span = std::max(1e-6f, *high - *low);
    const float minimum = *low;
    for (float& value : field) {
        value = (value - minimum) / span;
    }
    return field;
}

// A 1-D periodic fractal profile in [0, 1].
std::vector<float> periodicProfile(quint64 seed, int samples, int octaves, double roughness) {
    std::vector<float> profile = tileableNoise(seed, samples, 1, octaves, roughness);
    return profile;
}

// A mip level for a footprint (metres per pixel) on a texture of texel metres.
int mipLevel(float footprint_m, float texel_m, int levels) {
    const float ratio = footprint_m / texel_m;
    if (ratio <= 1.0f) {
        return 0;
    }
    return std::min(levels - 1, static_cast<int>(std::log2(ratio) + 0.5f));
}

} // namespace

WorldRenderer::Texture WorldRenderer::makeTexture(quint64 seed, int size, int octaves,
                                                  double roughness) {
    const std::vector<float> field = tileableNoise(seed, size, size, octaves, roughness);
    Texture texture;
    texture.size = size;
    std::vector<quint8> level(field.size());
    for (size_t i = 0; i < field.size(); ++i) {
        level[i] = static_cast<quint8>(std::lround(field[i] * 255.0f));
    }
    texture.levels.push_back(level);
    for (int side = size / 2; side >= 4; side /= 2) {
        const std::vector<quint8>& above = texture.levels.back();
        const int above_side = side * 2;
        std::vector<quint8> next(static_cast<size_t>(side) * static_cast<size_t>(side));
        for (int y = 0; y < side; ++y) {
            for (int x = 0; x < side; ++x) {
                const auto sample = [&](int dx, int dy) {
                    return static_cast<int>(
                        above[static_cast<size_t>((2 * y + dy) * above_side + 2 * x + dx)]);
                };
                next[static_cast<size_t>(y * side + x)] = static_cast<quint8>(
                    (sample(0, 0) + sample(1, 0) + sample(0, 1) + sample(1, 1) + 2) / 4);
            }
        }
        texture.levels.push_back(std::move(next));
    }
    return texture;
}

struct WorldRenderer::Textures {
    Texture grass;
    Texture asphalt;
    // The panorama at infinity, kAzimuthSamples per turn: ridge elevations (radians) of the
    // far and near ranges, their shading, and the cloud field (azimuth x distance).
    std::vector<float> far_ridge;
    std::vector<float> near_ridge;
    std::vector<quint8> far_shade;
    std::vector<quint8> near_shade;
    std::vector<quint8> clouds;
};

const WorldRenderer::Textures& WorldRenderer::sharedTextures() {
    static const Textures textures = []() {
        constexpr quint64 seed = 0x4C42534Dull; // fixed: the same textures in every process
        Textures built;
        built.grass = makeTexture(seed ^ 0x1111, 512, 7, 0.62);
        built.asphalt = makeTexture(seed ^ 0x2222, 256, 6, 0.8);
        const std::vector<float> far = periodicProfile(seed ^ 0x3333, kAzimuthSamples, 9, 0.55);
        const std::vector<float> near = periodicProfile(seed ^ 0x4444, kAzimuthSamples, 10, 0.6);
        built.far_ridge.resize(kAzimuthSamples);
        built.near_ridge.resize(kAzimuthSamples);
        built.far_shade.resize(kAzimuthSamples);
        built.near_shade.resize(kAzimuthSamples);
        for (size_t i = 0; i < static_cast<size_t>(kAzimuthSamples); ++i) {
            built.far_ridge[i] = (1.0f + 7.0f * far[i]) * kRadPerDeg;
            built.near_ridge[i] = (0.3f + 3.2f * near[i] * near[i]) * kRadPerDeg;
        }
        // Slopes facing the light (left, rising to the right) are brighter.
        for (int i = 0; i < kAzimuthSamples; ++i) {
            const auto slope = [&](const std::vector<float>& ridge) {
                const float rise =
                    ridge[static_cast<size_t>((i + 6) % kAzimuthSamples)] -
                    ridge[static_cast<size_t>((i + kAzimuthSamples - 6) % kAzimuthSamples)];
                return static_cast<quint8>(
                    std::clamp(128.0f + rise / kRadPerDeg * 90.0f, 40.0f, 230.0f));
            };
            built.far_shade[static_cast<size_t>(i)] = slope(built.far_ridge);
            built.near_shade[static_cast<size_t>(i)] = slope(built.near_ridge);
        }
        const std::vector<float> clouds =
            tileableNoise(seed ^ 0x5555, kCloudWidth, kCloudHeight, 7, 0.55);
        built.clouds.resize(clouds.size());
        for (size_t i = 0; i < clouds.size(); ++i) {
            built.clouds[i] = static_cast<quint8>(std::lround(clouds[i] * 255.0f));
        }
        return built;
    }();
    return textures;
}

WorldRenderer::WorldRenderer(quint64 seed, int width, int height)
    : m_width(width)
    , m_height(height)
    , m_focal(focalLengthPx(width))
    , m_layout(seed)
    , m_textures(sharedTextures())
    , m_panorama_turn(static_cast<quint32>((seed * 0x9E3779B97F4A7C15ull) >> 36)) {
    m_column_azimuth.resize(static_cast<size_t>(width));
    for (int x = 0; x < width; ++x) {
        const float sx = static_cast<float>(x) + 0.5f - 0.5f * static_cast<float>(width);
        m_column_azimuth[static_cast<size_t>(x)] = static_cast<qint32>(
            std::lround(std::atan(sx / m_focal) / (2.0f * kPi) * kAzimuthSamples * 65536.0f));
    }
}

void WorldRenderer::render(QImage& image, const FrameState& state) const {
    Q_ASSERT(image.width() == m_width && image.height() == m_height);
    const float pitch = state.pose.pitchDeg() * kRadPerDeg;
    // The horizon's row: where a row's ray is level (the camera never rolls).
    const float horizon_sy = -m_focal * std::tan(pitch);
    const float horizon_row = 0.5f * static_cast<float>(m_height) - horizon_sy - 0.5f;
    const int first_ground = std::clamp(static_cast<int>(std::floor(horizon_row)) + 1, 0, m_height);
    drawSkyRows(image, state, 0, first_ground);
    drawGroundRows(image, state, first_ground);
    drawObjects(image, state);
}

void WorldRenderer::drawSkyRows(QImage& image, const FrameState& state, int first_row,
                                int last_row) const {
    const WorldLook& look = state.look;
    const float pitch = state.pose.pitchDeg() * kRadPerDeg;
    const float yaw_samples = state.pose.yawDeg() / 360.0f * kAzimuthSamples;
    const Rgb horizon = rgbOf(look.sky_horizon);
    const Rgb zenith = rgbOf(look.sky_zenith);
    const Rgb cloud_lit =
        times(rgbOf(look.cloud), static_cast<float>(std::min(1.1, 0.35 + 0.65 * look.light)));
    const Rgb cloud_shadow = times(cloud_lit, 0.72f);
    const float far_haze = 1.0f - std::exp(-70.0f / static_cast<float>(look.fog_distance));
    const float near_haze = 1.0f - std::exp(-35.0f / static_cast<float>(look.fog_distance));
    const float light = static_cast<float>(look.light);
    const Rgb mountain = rgbOf(look.mountain);
    const Rgb snow_cap = times(Rgb{235, 238, 245}, std::min(1.0f, 0.3f + 0.7f * light));
    std::array<QRgb, 256> far_colour{};
    std::array<QRgb, 256> near_colour{};
    const Rgb near_base = mixed(times(mountain, 0.75f), rgbOf(look.grass), 0.3f);
    for (int shade = 0; shade < 256; ++shade) {
        const float lit = (0.55f + 0.75f * static_cast<float>(shade) / 255.0f) *
                          std::min(1.0f, 0.4f + 0.6f * light);
        far_colour[static_cast<size_t>(shade)] =
            packed(mixed(times(mountain, lit), horizon, far_haze));
        near_colour[static_cast<size_t>(shade)] =
            packed(mixed(times(near_base, lit), horizon, near_haze));
    }
    const QRgb cap_far = packed(mixed(snow_cap, horizon, far_haze));
    const float snow_line = (6.6f - 2.5f * static_cast<float>(look.snow)) * kRadPerDeg;
    // Cloud cover: a density threshold and how quickly clouds become opaque above it.
    const float threshold = 255.0f * (0.78f - 0.5f * static_cast<float>(look.cloud_cover));
    std::array<quint8, 256> cover{};
    for (int density = 0; density < 256; ++density) {
        cover[static_cast<size_t>(density)] = static_cast<quint8>(
            std::clamp((static_cast<float>(density) - threshold) * 0.35f, 0.0f, 31.0f));
    }
    const float drift = static_cast<float>(state.world_time_s * look.wind);
    const int cloud_u_offset = static_cast<int>(drift * 12.0f) + (1 << 20);
    const float max_ridge = 8.0f * kRadPerDeg;
    std::array<QRgb, 32> sky_lut{};
    // Every row sees the same azimuth in a column (no roll): worked out once per frame, in
    // 16.16 fixed point wrapping at 2^28 = a full turn.
    const quint32 yaw_fixed =
        m_panorama_turn +
        static_cast<quint32>(std::llround(static_cast<double>(yaw_samples) * 65536.0));
    std::vector<quint16> column_azimuth(static_cast<size_t>(m_width));
    for (int x = 0; x < m_width; ++x) {
        column_azimuth[static_cast<size_t>(x)] = static_cast<quint16>(
            ((static_cast<quint32>(m_column_azimuth[static_cast<size_t>(x)]) + yaw_fixed) >> 16) &
            (kAzimuthSamples - 1));
    }
    for (int y = first_row; y < last_row; ++y) {
        const float sy = 0.5f * static_cast<float>(m_height) - (static_cast<float>(y) + 0.5f);
        const float elevation = pitch + std::atan(sy / m_focal);
        const float height01 = std::clamp(elevation / (60.0f * kRadPerDeg), 0.0f, 1.0f);
        const Rgb sky = mixed(horizon, zenith, std::pow(height01, 0.55f));
        // Clouds on a layer overhead: nearer rows overhead, distance grows toward the horizon.
        const float distance = 20.0f / std::tan(std::max(elevation, 0.02f));
        const int cloud_v = (static_cast<int>(distance * 3.0f + drift * 2.0f)) & (kCloudHeight - 1);
        const float fade = std::clamp(elevation / (4.0f * kRadPerDeg), 0.0f, 1.0f);
        for (int level = 0; level < 32; ++level) {
            const float opacity = fade * static_cast<float>(level) / 31.0f;
            const Rgb cloud = mixed(cloud_lit, cloud_shadow, static_cast<float>(level) / 40.0f);
            sky_lut[static_cast<size_t>(level)] = packed(mixed(sky, cloud, opacity));
        }
        const quint8* cloud_row =
            m_textures.clouds.data() + static_cast<size_t>(cloud_v) * kCloudWidth;
        const quint16* azimuths = column_azimuth.data();
        auto* pixels = reinterpret_cast<QRgb*>(image.scanLine(y));
        const bool may_hit_mountains = elevation < max_ridge;
        for (int x = 0; x < m_width; ++x) {
            const quint16 azimuth = azimuths[x];
            if (may_hit_mountains) {
                const float near_top = m_textures.near_ridge[static_cast<size_t>(azimuth)];
                if (elevation < near_top) {
                    pixels[x] = near_colour[m_textures.near_shade[static_cast<size_t>(azimuth)]];
                    continue;
                }
                const float far_top = m_textures.far_ridge[static_cast<size_t>(azimuth)];
                if (elevation < far_top) {
                    // Snow lies above a snow line, so only the high peaks wear it (lower
                    // with the look's snow).
                    pixels[x] =
                        elevation > snow_line
                            ? cap_far
                            : far_colour[m_textures.far_shade[static_cast<size_t>(azimuth)]];
                    continue;
                }
            }
            const int u = ((azimuth >> 2) + cloud_u_offset) & (kCloudWidth - 1);
            pixels[x] = sky_lut[cover[cloud_row[u]]];
        }
    }
}

void WorldRenderer::drawGroundRows(QImage& image, const FrameState& state, int first_row) const {
    const WorldLook& look = state.look;
    const EyePoint eye = eyeOf(state.pose);
    const QVector3D forward = state.pose.forward();
    const QVector3D right = state.pose.right();
    const QVector3D up = state.pose.up();
    const float light = static_cast<float>(look.light);
    const float snow = static_cast<float>(look.snow);
    const float time = static_cast<float>(state.world_time_s);
    const float wind = static_cast<float>(look.wind);
    const Rgb fog = rgbOf(look.sky_horizon);
    const Rgb grass = mixed(rgbOf(look.grass), Rgb{232, 236, 242}, 0.85f * snow);
    const Rgb road = mixed(rgbOf(look.road), Rgb{200, 204, 212}, 0.45f * snow);
    const Rgb paint = mixed(Rgb{225, 225, 212}, Rgb{215, 218, 225}, snow);
    const int grass_levels = static_cast<int>(m_textures.grass.levels.size());
    const int asphalt_levels = static_cast<int>(m_textures.asphalt.levels.size());
    const float grass_texel = kGrassTileM / static_cast<float>(m_textures.grass.size);
    const float coarse_texel = kCoarseTileM / static_cast<float>(m_textures.grass.size);
    const float asphalt_texel = kAsphaltTileM / static_cast<float>(m_textures.asphalt.size);
    const float cx = 0.5f * static_cast<float>(m_width);
    std::array<QRgb, kDetailLevels> grass_lut{};
    std::array<QRgb, kDetailLevels> road_lut{};
    for (int y = first_row; y < m_height; ++y) {
        const float sy = 0.5f * static_cast<float>(m_height) - (static_cast<float>(y) + 0.5f);
        const QVector3D ray = forward * m_focal + up * sy;
        if (ray.y() >= -1e-4f) {
            continue;
        }
        const float t = eye.y / -ray.y();
        const QVector3D next_ray = forward * m_focal + up * (sy - 1.0f);
        const float next_t = next_ray.y() < -1e-4f ? eye.y / -next_ray.y() : t * 2.0f;
        const float distance = t * ray.length();
        const float along =
            std::abs(next_t * (next_ray.x() * right.z() - next_ray.z() * right.x()) -
                     t * (ray.x() * right.z() - ray.z() * right.x()));
        const float footprint = std::sqrt(std::max(t, 1e-4f) * std::max(along, t));
        const float haze = 1.0f - std::exp(-distance / static_cast<float>(look.fog_distance));
        // Wind: a travelling wave of light over the grass and a sway of the blades.
        const float row_z = eye.z + t * ray.z();
        const float gust = 1.0f + 0.25f * std::sin(0.25f * row_z - 4.0f * time * wind);
        const float sway = 0.06f * std::sin(4.4f * time * wind + 0.9f * row_z);
        for (int level = 0; level < kDetailLevels; ++level) {
            const float detail = static_cast<float>(level) / (kDetailLevels - 1);
            grass_lut[static_cast<size_t>(level)] =
                packed(mixed(times(grass, (0.5f + 0.85f * detail) * light * gust), fog, haze));
            road_lut[static_cast<size_t>(level)] =
                packed(mixed(times(road, (0.75f + 0.5f * detail) * light), fog, haze));
        }
        const QRgb paint_colour = packed(mixed(times(paint, light), fog, haze));

        const float start_x = eye.x + t * (ray.x() + right.x() * (0.5f - cx));
        const float start_z = eye.z + t * (ray.z() + right.z() * (0.5f - cx));
        const float step_x = t * right.x();
        const float step_z = t * right.z();
        const int fine = mipLevel(footprint, grass_texel, grass_levels);
        const int coarse = mipLevel(footprint, coarse_texel, grass_levels);
        const int asphalt = mipLevel(footprint, asphalt_texel, asphalt_levels);
        const int fine_size = m_textures.grass.size >> fine;
        const int coarse_size = m_textures.grass.size >> coarse;
        const int asphalt_size = m_textures.asphalt.size >> asphalt;
        const quint8* fine_texels = m_textures.grass.levels[static_cast<size_t>(fine)].data();
        const quint8* coarse_texels = m_textures.grass.levels[static_cast<size_t>(coarse)].data();
        const quint8* asphalt_texels =
            m_textures.asphalt.levels[static_cast<size_t>(asphalt)].data();
        const float fine_scale = static_cast<float>(fine_size) / kGrassTileM;
        const float coarse_scale = static_cast<float>(coarse_size) / kCoarseTileM;
        const float asphalt_scale = static_cast<float>(asphalt_size) / kAsphaltTileM;
        // Texel coordinates in 16.16 fixed point, wrapping in 32 bits: every texture side is a
        // power of two that divides 2^16, so the wrap never shows and no pixel converts a float.
        const auto fixed = [](double texels) {
            return static_cast<quint32>(static_cast<qint64>(std::llround(texels * 65536.0)));
        };
        const quint32 fu = fixed(static_cast<double>(start_x + sway) * fine_scale);
        const quint32 fv = fixed(static_cast<double>(start_z) * fine_scale);
        const quint32 cu = fixed(static_cast<double>(start_z) * coarse_scale);
        const quint32 cv = fixed(static_cast<double>(start_x + sway) * coarse_scale);
        const quint32 dfu = fixed(static_cast<double>(step_x) * fine_scale);
        const quint32 dfv = fixed(static_cast<double>(step_z) * fine_scale);
        const quint32 dcu = fixed(static_cast<double>(step_z) * coarse_scale);
        const quint32 dcv = fixed(static_cast<double>(step_x) * coarse_scale);
        const quint32 au0 = fixed(static_cast<double>(start_x) * asphalt_scale);
        const quint32 av0 = fixed(static_cast<double>(start_z) * asphalt_scale);
        const quint32 dau = fixed(static_cast<double>(step_x) * asphalt_scale);
        const quint32 dav = fixed(static_cast<double>(step_z) * asphalt_scale);
        const quint32 fine_mask = static_cast<quint32>(fine_size - 1);
        const quint32 coarse_mask = static_cast<quint32>(coarse_size - 1);
        const quint32 asphalt_mask = static_cast<quint32>(asphalt_size - 1);
        const float end_x = start_x + step_x * static_cast<float>(m_width);
        const bool road_in_row = std::min(start_x, end_x) < kRoadHalfWidthM &&
                                 std::max(start_x, end_x) > -kRoadHalfWidthM;
        // The row's road is one run of columns (the ground x is monotonic along a row):
        // found once, so the grass and road loops below carry no per-pixel branch between
        // the two (the grass loop is most of the frame's ground).
        const auto on_road = [&](int x) {
            const float gx = start_x + step_x * static_cast<float>(x);
            return gx > -kRoadHalfWidthM && gx < kRoadHalfWidthM;
        };
        int road_from = m_width;
        int road_to = m_width;
        if (road_in_row) {
            road_from = 0;
            road_to = m_width;
            if (step_x != 0.0f) {
                const float a = (-kRoadHalfWidthM - start_x) / step_x;
                const float b = (kRoadHalfWidthM - start_x) / step_x;
                road_from = static_cast<int>(
                    std::clamp(std::floor(std::min(a, b)), 0.0f, static_cast<float>(m_width)));
                road_to = static_cast<int>(
                    std::clamp(std::ceil(std::max(a, b)), 0.0f, static_cast<float>(m_width)));
            }
            // The estimate is off by a column at most where the division rounds: settle the
            // ends on the per-pixel test itself, so every pixel is drawn as it tests.
            while (road_from > 0 && on_road(road_from - 1)) {
                --road_from;
            }
            while (road_from < road_to && !on_road(road_from)) {
                ++road_from;
            }
            while (road_to < m_width && on_road(road_to)) {
                ++road_to;
            }
            while (road_to > road_from && !on_road(road_to - 1)) {
                --road_to;
            }
        }
        auto* pixels = reinterpret_cast<QRgb*>(image.scanLine(y));
        const auto grass_run = [&](int from, int to) {
            for (int x = from; x < to; ++x) {
                const auto column = static_cast<quint32>(x);
                const quint32 iu = ((fu + dfu * column) >> 16) & fine_mask;
                const quint32 iv = ((fv + dfv * column) >> 16) & fine_mask;
                const quint32 ju = ((cu + dcu * column) >> 16) & coarse_mask;
                const quint32 jv = ((cv + dcv * column) >> 16) & coarse_mask;
                const quint32 detail =
                    fine_texels[iv * static_cast<quint32>(fine_size) + iu] *
                    (96u + (coarse_texels[jv * static_cast<quint32>(coarse_size) + ju] * 5u >> 3));
                pixels[x] = grass_lut[detail >> 10];
            }
        };
        grass_run(0, road_from);
        for (int x = road_from; x < road_to; ++x) {
            const float gx = start_x + step_x * static_cast<float>(x);
            const float gz = start_z + step_z * static_cast<float>(x);
            const float edge = std::abs(gx);
            const float dash = gz / kLaneDashM - std::floor(gz / kLaneDashM);
            if ((edge < 0.1f && dash < 0.45f) || (edge > 3.65f && edge < 3.8f)) {
                pixels[x] = paint_colour;
                continue;
            }
            const auto column = static_cast<quint32>(x);
            const quint32 au = ((au0 + dau * column) >> 16) & asphalt_mask;
            const quint32 av = ((av0 + dav * column) >> 16) & asphalt_mask;
            pixels[x] = road_lut[asphalt_texels[av * static_cast<quint32>(asphalt_size) + au] >> 2];
        }
        grass_run(road_to, m_width);
    }
}

} // namespace lbm::sim
