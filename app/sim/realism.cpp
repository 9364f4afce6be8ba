#include "app/sim/realism.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

namespace realism_detail {
// One row of the pass: each channel times its gain (1.7 fixed point, 16-bit product), plus
// the pixel's grain value, clamped to 0..255; alpha stays opaque.
void gradeRowScalar(quint32* pixels, const qint8* grain, int count, quint16 red_gain,
                    quint16 green_gain, quint16 blue_gain) {
    for (int x = 0; x < count; ++x) {
        const quint32 pixel = pixels[x];
        const int n = grain[x];
        const int red = static_cast<quint16>(((pixel >> 16) & 0xFF) * red_gain) / 128 + n;
        const int green = static_cast<quint16>(((pixel >> 8) & 0xFF) * green_gain) / 128 + n;
        const int blue = static_cast<quint16>((pixel & 0xFF) * blue_gain) / 128 + n;
        pixels[x] = 0xFF000000u | (static_cast<quint32>(std::clamp(red, 0, 255)) << 16) |
                    (static_cast<quint32>(std::clamp(green, 0, 255)) << 8) |
                    static_cast<quint32>(std::clamp(blue, 0, 255));
    }
}

// The same arithmetic four pixels at a time with SSE2 (every x86-64 CPU has it; GCC does not
// vectorise the scalar loop, whose per-channel shifts and clamps made the pass cost a third
// of a frame's render). The 16-bit lanes hold exactly the scalar loop's intermediate values
// and packus saturates like its clamp, so both give the same bytes. Returns the pixels done.
int gradeRowSimd(quint32* pixels, const qint8* grain, int count, quint16 red_gain,
                 quint16 green_gain, quint16 blue_gain) {
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    // RGB32 in memory is B, G, R, A per pixel; alpha times 1.0.
    const auto b = static_cast<short>(blue_gain);
    const auto g = static_cast<short>(green_gain);
    const auto r = static_cast<short>(red_gain);
    const __m128i gains = _mm_setr_epi16(b, g, r, 128, b, g, r, 128);
    const __m128i colour_bytes = _mm_set1_epi32(0x00FFFFFF);
    const __m128i opaque = _mm_set1_epi32(static_cast<int>(0xFF000000u));
    int x = 0;
    for (; x + 4 <= count; x += 4) {
        const __m128i pixel = _mm_loadu_si128(reinterpret_cast<const __m128i*>(pixels + x));
        qint32 four = 0;
        std::memcpy(&four, grain + x, sizeof four);
        // n0 n1 n2 n3 -> n0 n0 n0 0 n1 n1 n1 0 ...: one grain value for a pixel's colours.
        __m128i noise = _mm_cvtsi32_si128(four);
        noise = _mm_unpacklo_epi8(noise, noise);
        noise = _mm_unpacklo_epi16(noise, noise);
        noise = _mm_and_si128(noise, colour_bytes);
        const __m128i noise_sign = _mm_cmpgt_epi8(zero, noise);
        const __m128i low =
            _mm_add_epi16(_mm_srli_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(pixel, zero), gains), 7),
                          _mm_unpacklo_epi8(noise, noise_sign));
        const __m128i high =
            _mm_add_epi16(_mm_srli_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(pixel, zero), gains), 7),
                          _mm_unpackhi_epi8(noise, noise_sign));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(pixels + x),
                         _mm_or_si128(_mm_packus_epi16(low, high), opaque));
    }
    return x;
#else
    Q_UNUSED(pixels);
    Q_UNUSED(grain);
    Q_UNUSED(count);
    Q_UNUSED(red_gain);
    Q_UNUSED(green_gain);
    Q_UNUSED(blue_gain);
    return 0;
#endif
}

} // namespace realism_detail

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
        if (offset + static_cast<size_t>(width) > kGrainSize) {
            offset = (offset + 7919) % (kGrainSize - static_cast<size_t>(width));
        }
        const qint8* grain =
            (realism == Realism::High ? m_grain.high : m_grain.low).data() + offset;
        auto* pixels = reinterpret_cast<quint32*>(image.scanLine(y));
        const int done =
            realism_detail::gradeRowSimd(pixels, grain, width, red_gain, green_gain, blue_gain);
        realism_detail::gradeRowScalar(pixels + done, grain + done, width - done, red_gain,
                                       green_gain, blue_gain);
        offset += static_cast<size_t>(width) + 131;
    }
}

} // namespace lbm::sim
