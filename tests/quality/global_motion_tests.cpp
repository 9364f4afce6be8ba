// GlobalMotionEstimator on pictures moved by a known amount: a pan in each direction, a zoom
// in and out, a still picture, and flat content that carries no motion to measure.

#include "app/quality/global_motion.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

using lbm::quality::FrameMotion;
using lbm::quality::GlobalMotionEstimator;

namespace {

constexpr int kWidth = 832;
constexpr int kHeight = 480;

// A smooth texture without a period inside the frame: waves of incommensurate wavelengths
// (10 to 80 px) in many directions, sampled at any real point.
class Texture {
public:
    Texture() {
        std::mt19937 random(7);
        std::uniform_real_distribution<double> angle(0.0, 6.283185307179586);
        std::uniform_real_distribution<double> wavelength(10.0, 80.0);
        std::uniform_real_distribution<double> amplitude(6.0, 16.0);
        for (int i = 0; i < 12; ++i) {
            const double direction = angle(random);
            const double k = 6.283185307179586 / wavelength(random);
            m_waves.push_back({k * std::cos(direction), k * std::sin(direction), angle(random),
                               amplitude(random)});
        }
    }
    double at(double x, double y) const {
        double value = 128.0;
        for (const Wave& w : m_waves) {
            value += w.amplitude * std::sin(w.kx * x + w.ky * y + w.phase);
        }
        return value;
    }

private:
    struct Wave {
        double kx, ky, phase, amplitude;
    };
    std::vector<Wave> m_waves;
};

// The view of the texture whose centre is at (cx, cy), magnified by zoom.
std::vector<uint8_t> view(const Texture& texture, double cx, double cy, double zoom) {
    std::vector<uint8_t> luma(static_cast<size_t>(kWidth * kHeight));
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
            const double tx = cx + (x - kWidth / 2.0) / zoom;
            const double ty = cy + (y - kHeight / 2.0) / zoom;
            luma[static_cast<size_t>(y * kWidth + x)] =
                static_cast<uint8_t>(std::clamp(texture.at(tx, ty), 0.0, 255.0));
        }
    }
    return luma;
}

std::optional<FrameMotion> motionBetween(const std::vector<uint8_t>& before,
                                         const std::vector<uint8_t>& after) {
    GlobalMotionEstimator estimator;
    const int top = kHeight / 10;
    const int bottom = kHeight - kHeight / 10;
    REQUIRE_FALSE(estimator.estimate(before.data(), kWidth, kWidth, top, bottom));
    return estimator.estimate(after.data(), kWidth, kWidth, top, bottom);
}

} // namespace

TEST_CASE("global motion: pans and zooms of a known size are measured", "[quality][motion]") {
    const Texture texture;
    const auto start = view(texture, 400.0, 300.0, 1.0);
    SECTION("still") {
        const auto motion = motionBetween(start, start);
        REQUIRE(motion);
        CHECK(std::abs(motion->dx) < 0.2);
        CHECK(std::abs(motion->dy) < 0.2);
        CHECK(std::abs(motion->zoom) < 0.001);
    }
    // The camera moves right by 6 px: the content moves left by 6.
    for (const auto& [camera_x, camera_y] : std::vector<std::pair<double, double>>{
             {6.0, 0.0}, {-6.0, 0.0}, {0.0, 4.5}, {0.0, -4.5}, {3.0, -2.0}}) {
        DYNAMIC_SECTION("pan by " << camera_x << ", " << camera_y) {
            const auto motion =
                motionBetween(start, view(texture, 400.0 + camera_x, 300.0 + camera_y, 1.0));
            REQUIRE(motion);
            CHECK(motion->dx == Approx(-camera_x).margin(0.5));
            CHECK(motion->dy == Approx(-camera_y).margin(0.5));
            CHECK(std::abs(motion->zoom) < 0.003);
        }
    }
    for (const double zoom : {1.0113, 1.0 / 1.0113}) {
        DYNAMIC_SECTION("zoom by " << zoom) {
            const auto motion = motionBetween(start, view(texture, 400.0, 300.0, zoom));
            REQUIRE(motion);
            CHECK(std::abs(motion->dx) < 0.5);
            CHECK(std::abs(motion->dy) < 0.5);
            CHECK(motion->zoom == Approx(zoom - 1.0).margin(0.003));
        }
    }
}

TEST_CASE("global motion: a flat picture gives no estimate", "[quality][motion]") {
    const std::vector<uint8_t> flat(static_cast<size_t>(kWidth * kHeight), 90);
    CHECK_FALSE(motionBetween(flat, flat));
}
