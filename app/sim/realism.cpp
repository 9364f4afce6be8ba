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
        return {2, 0.012, 0.02, 1.3, 23};
    case Realism::High:
        return {8, 0.03, 0.045, 1.7, 17};
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

const RealismPass::Grain& RealismPass::sharedGrain() {
    static const Grain grain = []() {
        // A triangular distribution (sum of two uniforms): softer than uniform, cheap to
        // make; one field per strength, scaled here rather than per pixel.
        Grain built;
        built.low.resize(kGrainSize);
        built.high.resize(kGrainSize);
        std::mt19937 random(0x6C62272Eu);
        const double low = strengthOf(Realism::Low).grain_levels;
        const double high = strengthOf(Realism::High).grain_levels;
        const auto half = [&random]() {
            return static_cast<double>(random()) / 4294967296.0 - 0.5;
        };
        for (size_t i = 0; i < kGrainSize; ++i) {
            const double sample = half() + half(); // -1 .. 1
            built.low[i] = static_cast<qint8>(std::lround(sample * low));
            built.high[i] = static_cast<qint8>(std::lround(sample * high));
        }
        return built;
    }();
    return grain;
}

RealismPass::RealismPass()
    : m_grain(sharedGrain()) {}

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
    // Gains in 1.7 fixed point: 16-bit products (SSE2 multiplies 16-bit lanes), so the loop
    // below is plain integer arithmetic the compiler vectorises.
    const auto fixed = [](double gain) {
        return static_cast<quint16>(std::clamp(std::lround(gain * 128.0), 0L, 255L));
    };
    const quint16 red_gain = fixed(gains[0]);
    const quint16 green_gain = fixed(gains[1]);
    const quint16 blue_gain = fixed(gains[2]);
    // Grain: the fixed field read from an offset that changes every frame; one value for the
    // three channels (luminance grain, as diffusion noise mostly reads).
    const auto frame_index = static_cast<quint64>(std::llround(world_time_s * 1000.0));
    size_t offset = static_cast<size_t>((frame_index * 2654435761ull) % kGrainSize);
    const int width = image.width();
    for (int y = 0; y < image.height(); ++y) {
        uchar* bytes = image.scanLine(y);
        if (offset + static_cast<size_t>(width) > kGrainSize) {
            offset = (offset + 7919) % (kGrainSize - static_cast<size_t>(width));
        }
        const qint8* grain =
            (realism == Realism::High ? m_grain.high : m_grain.low).data() + offset;
        auto* pixels = reinterpret_cast<quint32*>(bytes);
        for (int x = 0; x < width; ++x) {
            const quint32 pixel = pixels[x];
            const int n = grain[x];
            const int red = static_cast<quint16>(((pixel >> 16) & 0xFF) * red_gain) / 128 + n;
            const int green = static_cast<quint16>(((pixel >> 8) & 0xFF) * green_gain) / 128 + n;
            const int blue = static_cast<quint16>((pixel & 0xFF) * blue_gain) / 128 + n;
            pixels[x] = 0xFF000000u | (static_cast<quint32>(std::clamp(red, 0, 255)) << 16) |
                        (static_cast<quint32>(std::clamp(green, 0, 255)) << 8) |
                        static_cast<quint32>(std::clamp(blue, 0, 255));
        }
        offset += static_cast<size_t>(width) + 131;
    }
}

} // namespace lbm::sim
