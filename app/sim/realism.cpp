#include "app/sim/realism.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

namespace lbm::sim {
namespace {

constexpr size_t kGrainSize = 1 << 18; // larger than a frame's row span, so no pattern repeats
constexpr double kTwoPi = 6.28318530717958647692;

struct Strength {
    double grain_levels;  // grain amplitude in 8-bit levels (peak of the noise field)
    double flicker;       // exposure gain deviation
    double wander;        // white balance gain deviation per channel
    double flicker_hz;    // how fast exposure breathes
    double wander_period; // seconds per white balance cycle
};

Strength strengthOf(Realism realism) {
    switch (realism) {
    case Realism::None:
        return {0, 0, 0, 0, 1};
    case Realism::Low:
        return {5, 0.012, 0.02, 1.3, 23};
    case Realism::High:
        return {11, 0.03, 0.045, 1.7, 17};
    }
    return {0, 0, 0, 0, 1};
}

} // namespace

std::optional<Realism> parseRealism(const QString& text, QString* error) {
    const QString name = text.trimmed().toLower();
    if (name == QStringLiteral("none")) {
        return Realism::None;
    }
    if (name == QStringLiteral("low")) {
        return Realism::Low;
    }
    if (name == QStringLiteral("high")) {
        return Realism::High;
    }
    if (error != nullptr) {
        *error = QStringLiteral("Unknown realism '%1'; use one of %2 (default low).")
                     .arg(text, realismNames().join(QStringLiteral(", ")));
    }
    return std::nullopt;
}

QString realismName(Realism realism) {
    switch (realism) {
    case Realism::None:
        return QStringLiteral("none");
    case Realism::Low:
        return QStringLiteral("low");
    case Realism::High:
        return QStringLiteral("high");
    }
    return {};
}

QStringList realismNames() {
    return {QStringLiteral("none"), QStringLiteral("low"), QStringLiteral("high")};
}

RealismPass::RealismPass()
    : m_grain(kGrainSize) {
    // A triangular distribution (sum of two uniforms): softer than uniform, cheap to make.
    std::mt19937 random(0x6C62272Eu);
    std::uniform_int_distribution<int> half(-32, 32);
    for (qint8& sample : m_grain) {
        sample = static_cast<qint8>((half(random) + half(random)) / 2);
    }
}

void RealismPass::apply(QImage& image, Realism realism, double world_time_s) const {
    const Strength strength = strengthOf(realism);
    if (realism == Realism::None || image.isNull()) {
        return;
    }
    // Exposure: two incommensurate sines, so the breathing never looks periodic.
    const double exposure =
        1.0 + strength.flicker * (0.7 * std::sin(kTwoPi * strength.flicker_hz * world_time_s) +
                                  0.3 * std::sin(kTwoPi * 2.9 * world_time_s + 1.0));
    const double phase = kTwoPi * world_time_s / strength.wander_period;
    const std::array<double, 3> gains = {
        exposure * (1.0 + strength.wander * std::sin(phase)),
        exposure * (1.0 + 0.3 * strength.wander * std::sin(phase + 2.0)),
        exposure * (1.0 - strength.wander * std::sin(phase + 0.5))};
    std::array<std::array<quint8, 256>, 3> curves{};
    for (size_t channel = 0; channel < 3; ++channel) {
        for (int level = 0; level < 256; ++level) {
            curves[channel][static_cast<size_t>(level)] = static_cast<quint8>(
                std::clamp(static_cast<int>(std::lround(level * gains[channel])), 0, 255));
        }
    }
    // Grain: the fixed field read from an offset that changes every frame; one value for the
    // three channels (luminance grain, as diffusion noise mostly reads).
    const int scale = static_cast<int>(std::lround(strength.grain_levels * 256.0 / 32.0));
    const auto frame_index = static_cast<quint64>(std::llround(world_time_s * 1000.0));
    size_t offset = static_cast<size_t>((frame_index * 2654435761ull) % kGrainSize);
    const int width = image.width();
    for (int y = 0; y < image.height(); ++y) {
        auto* pixels = reinterpret_cast<QRgb*>(image.scanLine(y));
        if (offset + static_cast<size_t>(width) > kGrainSize) {
            offset = (offset + 7919) % (kGrainSize - static_cast<size_t>(width));
        }
        const qint8* grain = m_grain.data() + offset;
        for (int x = 0; x < width; ++x) {
            const QRgb pixel = pixels[x];
            const int noise = (grain[x] * scale) >> 8;
            const int red = curves[0][qRed(pixel)] + noise;
            const int green = curves[1][qGreen(pixel)] + noise;
            const int blue = curves[2][qBlue(pixel)] + noise;
            pixels[x] =
                qRgb(std::clamp(red, 0, 255), std::clamp(green, 0, 255), std::clamp(blue, 0, 255));
        }
        offset += static_cast<size_t>(width) + 131;
    }
}

} // namespace lbm::sim
