#include "app/sim/world_look.h"

#include <algorithm>
#include <cmath>

namespace lbm::sim {
namespace {

QColor mix(const QColor& from, const QColor& to, double t) {
    const double clamped = std::clamp(t, 0.0, 1.0);
    const auto channel = [clamped](int a, int b) {
        return static_cast<int>(std::lround(a + (b - a) * clamped));
    };
    return QColor(channel(from.red(), to.red()), channel(from.green(), to.green()),
                  channel(from.blue(), to.blue()));
}

double lerp(double a, double b, double t) {
    return a + (b - a) * std::clamp(t, 0.0, 1.0);
}

QColor averageOfRows(const QImage& image, int from_row, int to_row) {
    qint64 red = 0;
    qint64 green = 0;
    qint64 blue = 0;
    qint64 count = 0;
    for (int y = from_row; y < to_row; y += 2) {
        const auto* pixels = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); x += 2) {
            red += qRed(pixels[x]);
            green += qGreen(pixels[x]);
            blue += qBlue(pixels[x]);
            ++count;
        }
    }
    if (count == 0) {
        return QColor(128, 128, 128);
    }
    return QColor(static_cast<int>(red / count), static_cast<int>(green / count),
                  static_cast<int>(blue / count));
}

QColor scaled(const QColor& colour, double factor) {
    const auto channel = [factor](int value) {
        return std::clamp(static_cast<int>(std::lround(value * factor)), 0, 255);
    };
    return QColor(channel(colour.red()), channel(colour.green()), channel(colour.blue()));
}

// FNV-1a over UTF-8: qHash is seeded per process, this must not be.
quint32 textHash(const QString& text) {
    quint32 hash = 2166136261u;
    for (const char byte : text.toUtf8()) {
        hash ^= static_cast<quint8>(byte);
        hash *= 16777619u;
    }
    return hash;
}

QColor hueShifted(const QColor& colour, int degrees) {
    int hue = 0;
    int saturation = 0;
    int value = 0;
    colour.getHsv(&hue, &saturation, &value);
    if (hue < 0) {
        return colour; // grey has no hue to shift
    }
    return QColor::fromHsv((hue + degrees + 360) % 360, saturation, value);
}

} // namespace

WorldLook WorldLook::fromImage(const QImage& source) {
    WorldLook look;
    if (source.isNull()) {
        return look;
    }
    const QImage image = source.convertToFormat(QImage::Format_RGB32);
    const int rows = image.height();
    // Rows of a landscape picture: sky on top, the horizon a little above the middle, ground
    // below. A guess for any image, but the world continues its colours wherever they are.
    const QColor top = averageOfRows(image, 0, rows * 15 / 100);
    const QColor low_sky = averageOfRows(image, rows * 30 / 100, rows * 45 / 100);
    const QColor skyline = averageOfRows(image, rows * 45 / 100, rows * 55 / 100);
    const QColor bottom = averageOfRows(image, rows * 75 / 100, rows);
    const QColor whole = averageOfRows(image, 0, rows);
    look.light = std::clamp(whole.valueF() / 0.55, 0.25, 1.2);
    look.sky_zenith = top;
    look.sky_horizon = mix(low_sky, QColor(255, 255, 255), 0.1);
    // The ground keeps the image's hue, brought toward vegetation so it reads as land.
    look.grass = mix(bottom, QColor(85, 115, 55), 0.3);
    look.road = scaled(QColor(bottom.value(), bottom.value(), bottom.value() + 6), 0.5);
    look.mountain = mix(skyline, top, 0.35);
    look.cloud = mix(low_sky, QColor(255, 255, 255), 0.55);
    return look;
}

WorldLook WorldLook::forPrompt(const QString& prompt, const WorldLook& base) {
    WorldLook look = base;
    const QString text = prompt.toLower();
    const auto says = [&text](std::initializer_list<const char*> words) {
        return std::any_of(words.begin(), words.end(), [&text](const char* word) {
            return text.contains(QLatin1String(word));
        });
    };
    // Every prompt moves the palette by its text a little, so a transition between two
    // prompts with no keyword still changes the picture.
    const quint32 hash = textHash(prompt);
    const int shift = static_cast<int>(hash % 61) - 30;
    look.sky_zenith = hueShifted(look.sky_zenith, shift / 2);
    look.grass = hueShifted(look.grass, shift);
    look.light = std::clamp(look.light * (0.92 + 0.16 * ((hash >> 8) % 100) / 100.0), 0.2, 1.2);
    if (says({"sunny", "bright", "clear", "summer", "noon", "midday"})) {
        look.light = 1.1;
        look.cloud_cover = 0.2;
        look.sky_zenith = QColor(55, 115, 205);
        look.sky_horizon = QColor(175, 210, 240);
        look.fog_distance = 380;
    }
    if (says({"sunset", "dusk", "evening", "golden", "sunrise", "dawn"})) {
        look.light = 0.75;
        look.sky_zenith = QColor(70, 70, 140);
        look.sky_horizon = QColor(250, 150, 80);
        look.cloud = QColor(250, 170, 130);
        look.mountain = QColor(90, 70, 100);
    }
    if (says({"night", "dark", "moon", "midnight"})) {
        look.light = 0.3;
        look.sky_zenith = QColor(8, 12, 35);
        look.sky_horizon = QColor(35, 45, 80);
        look.cloud = QColor(60, 65, 85);
        look.mountain = QColor(25, 30, 50);
        look.fog_distance = 200;
    }
    if (says({"snow", "winter", "frozen", "icy", "blizzard"})) {
        look.snow = 1.0;
        look.sky_zenith = mix(look.sky_zenith, QColor(150, 165, 185), 0.6);
        look.sky_horizon = mix(look.sky_horizon, QColor(215, 220, 230), 0.6);
        look.cloud_cover = std::max(look.cloud_cover, 0.7);
        look.mountain = mix(look.mountain, QColor(210, 215, 230), 0.5);
    }
    if (says({"fog", "mist", "haze", "smoke"})) {
        look.fog_distance = 70;
        look.sky_horizon = mix(look.sky_horizon, QColor(200, 200, 200), 0.6);
        look.sky_zenith = mix(look.sky_zenith, QColor(180, 180, 185), 0.6);
    }
    if (says({"rain", "storm", "overcast", "cloudy", "thunder"})) {
        look.cloud_cover = 0.95;
        look.light = std::min(look.light, 0.7);
        look.cloud = QColor(120, 125, 135);
        look.sky_zenith = QColor(85, 90, 100);
        look.sky_horizon = QColor(140, 145, 150);
        look.fog_distance = std::min(look.fog_distance, 150.0);
        look.wind = 2.0;
    }
    if (says({"autumn", "fall", "october"})) {
        look.grass = QColor(150, 110, 50);
    }
    if (says({"desert", "sand", "dune", "arid"})) {
        look.grass = QColor(200, 170, 115);
        look.sky_horizon = QColor(230, 215, 185);
        look.cloud_cover = 0.1;
    }
    if (says({"spring", "green", "forest", "meadow"})) {
        look.grass = QColor(70, 135, 50);
    }
    if (says({"wind", "gust", "breeze"})) {
        look.wind = 2.5;
    }
    return look;
}

WorldLook WorldLook::blend(const WorldLook& from, const WorldLook& to, double t) {
    // The ends exactly, so a settled transition is the target look and not a rounding of it.
    if (t <= 0.0) {
        return from;
    }
    if (t >= 1.0) {
        return to;
    }
    WorldLook look;
    look.sky_zenith = mix(from.sky_zenith, to.sky_zenith, t);
    look.sky_horizon = mix(from.sky_horizon, to.sky_horizon, t);
    look.grass = mix(from.grass, to.grass, t);
    look.road = mix(from.road, to.road, t);
    look.mountain = mix(from.mountain, to.mountain, t);
    look.cloud = mix(from.cloud, to.cloud, t);
    look.light = lerp(from.light, to.light, t);
    // Fog blends in visibility (1/distance), which is how it reads.
    look.fog_distance = 1.0 / lerp(1.0 / from.fog_distance, 1.0 / to.fog_distance, t);
    look.cloud_cover = lerp(from.cloud_cover, to.cloud_cover, t);
    look.snow = lerp(from.snow, to.snow, t);
    look.wind = lerp(from.wind, to.wind, t);
    return look;
}

} // namespace lbm::sim
