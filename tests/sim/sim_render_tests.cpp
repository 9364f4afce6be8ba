#include "app/sim/frame_barcode.h"
#include "app/sim/frame_renderer.h"
#include "app/sim/interaction_engine.h"
#include "app/sim/realism.h"
#include "app/sim/timing_profile.h"
#include "resources/bundled_resources.h"

#include <QImage>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace lbm::sim;

namespace {

double meanAbsoluteDifference(const QImage& a, const QImage& b) {
    double sum = 0;
    int count = 0;
    // Skip the caption and barcode bands: only the view of the scene counts.
    for (int y = 40; y < a.height() - 40; y += 4) {
        for (int x = 0; x < a.width(); x += 4) {
            sum += std::abs(qGray(a.pixel(x, y)) - qGray(b.pixel(x, y)));
            ++count;
        }
    }
    return sum / count;
}

} // namespace

TEST_CASE("the picture answers the camera and the prompt", "[sim][render]") {
    const FrameRenderer renderer(QImage::fromData(lbm::bundledFirstFramePng()), 832, 480);
    FrameState still;
    still.caption = QStringLiteral("A quiet harbour");
    const QImage base = renderer.render(still);
    CHECK(readFrameBarcode(base) == 0);

    FrameState turned = still;
    turned.pose = turned.pose.advanced(CameraVelocity::fromKeys({QStringLiteral("l")}));
    CHECK(turned.pose.yawDeg() == Approx(6.0f).margin(0.01));
    CHECK(meanAbsoluteDifference(base, renderer.render(turned)) > 3.0);

    FrameState forward = still;
    for (int i = 0; i < 6; ++i) {
        forward.pose = forward.pose.advanced(CameraVelocity::fromKeys({QStringLiteral("w")}));
    }
    CHECK(forward.pose.position.z() == Approx(0.3f).margin(1e-4));
    CHECK(meanAbsoluteDifference(base, renderer.render(forward)) > 3.0);

    FrameState regraded = still;
    regraded.look = WorldLook::forPrompt(QStringLiteral("A snowy street at night"), still.look);
    CHECK_FALSE(regraded.look == still.look);
    CHECK(meanAbsoluteDifference(base, renderer.render(regraded)) > 10.0);
    CHECK(meanAbsoluteDifference(base, renderer.render(still)) == 0.0);
}

TEST_CASE("pitch is clamped at 85 degrees", "[sim][render]") {
    CameraPose pose;
    for (int i = 0; i < 40; ++i) {
        pose = pose.advanced(CameraVelocity::fromKeys({QStringLiteral("i")}));
    }
    CHECK(std::abs(pose.pitchDeg()) <= 85.01f);
}

TEST_CASE("a prompt blend progresses 1/K .. 1 and a script drives the pose", "[sim][interaction]") {
    KeyScript script(3, std::vector<std::vector<QString>>(3, {QStringLiteral("w")}));
    InteractionEngine engine(QStringLiteral("Start"), script);
    const ChunkPlan first = engine.planChunk(0, 9, 0);
    REQUIRE(first.frames.size() == 9);
    CHECK(first.frames.back().pose.position.z() == Approx(0.15f).margin(1e-4));
    engine.queuePrompt(QStringLiteral("e"), QStringLiteral("End"), 2);
    const ChunkPlan second = engine.planChunk(1, 12, 9);
    REQUIRE(second.frames.size() == 12);
    CHECK(second.frames.front().frame_number == 9);
    // Progress ramps frame by frame: 1/24 on the first affected frame, 1/2 at the end of the
    // first of two chunks, 1 on the last frame of the second.
    CHECK(second.frames.front().transition_progress == Approx(1.0 / 24));
    CHECK(second.frames.back().transition_progress == Approx(0.5));
    CHECK(second.frames.back().look ==
          WorldLook::blend(first.frames.back().look,
                           WorldLook::forPrompt(QStringLiteral("End"), first.frames.back().look),
                           0.5));
    CHECK(second.frames.back().pose.position.z() == Approx(0.30f).margin(1e-4));
    const ChunkPlan third = engine.planChunk(2, 12, 21);
    CHECK(third.frames.front().transition_progress == Approx(13.0 / 24));
    CHECK(third.frames.back().transition_progress == 1.0);
    CHECK(third.frames.back().look ==
          WorldLook::forPrompt(QStringLiteral("End"), first.frames.back().look));
    CHECK(third.completed_event_ids == QStringList{QStringLiteral("e")});
}

TEST_CASE("profiles are deterministic per seed and shaped as named", "[sim][profile]") {
    const auto sp4 = TimingProfile::fromName(QStringLiteral("h200-sp4"), nullptr);
    REQUIRE(sp4);
    const auto times = sp4->emissionTimesMs(16, 42);
    REQUIRE(times.size() == 16);
    CHECK(times == sp4->emissionTimesMs(16, 42));
    CHECK(times != sp4->emissionTimesMs(16, 7));
    CHECK(times[0] == Approx(1500).epsilon(0.1));
    std::vector<double> intervals;
    for (size_t k = 1; k < times.size(); ++k) {
        intervals.push_back(times[k] - times[k - 1]);
    }
    CHECK(intervals[0] < intervals[6]);               // cost rises over the first chunks
    CHECK(intervals[8] == Approx(720).epsilon(0.45)); // steady around 720 ms (spikes allowed)
    CHECK(intervals.back() < intervals[intervals.size() - 2] * 1.05); // shorter last chunk
    const auto edge = TimingProfile::fromName(QStringLiteral("edge"), nullptr);
    const auto edge_times = edge->emissionTimesMs(8, 42);
    for (size_t k = 1; k < edge_times.size(); ++k) {
        CHECK(std::abs(edge_times[k] - edge_times[k - 1] - 750.0) <= 15.0);
    }
}

namespace {

// A box filter as the textbook writes it: every output byte the rounded mean of its 2r+1
// neighbours along one axis, edges replicated, no running sums.
QImage plainBox(const QImage& source, int radius, bool along_rows) {
    QImage target(source.size(), source.format());
    const int taps = 2 * radius + 1;
    for (int y = 0; y < source.height(); ++y) {
        for (int x = 0; x < source.width(); ++x) {
            for (int channel = 0; channel < 4; ++channel) {
                int sum = 0;
                for (int k = -radius; k <= radius; ++k) {
                    const int sx = along_rows ? std::clamp(x + k, 0, source.width() - 1) : x;
                    const int sy = along_rows ? y : std::clamp(y + k, 0, source.height() - 1);
                    sum += source.constScanLine(sy)[sx * 4 + channel];
                }
                target.scanLine(y)[x * 4 + channel] = static_cast<uchar>((sum + taps / 2) / taps);
            }
        }
    }
    return target;
}

} // namespace

TEST_CASE("the blur's running sums give a plain box filter's bytes", "[sim][render]") {
    // Noise with hard edges, so every rounding and every replicated edge shows.
    QImage source(61, 37, QImage::Format_RGB32);
    quint32 state = 12345;
    for (int y = 0; y < source.height(); ++y) {
        auto* pixels = reinterpret_cast<quint32*>(source.scanLine(y));
        for (int x = 0; x < source.width(); ++x) {
            state = state * 1664525u + 1013904223u;
            pixels[x] = (x / 7 + y / 5) % 2 == 0 ? 0xFFFFFFFFu : (0xFF000000u | (state >> 8));
        }
    }
    // The same on a corner smaller than a box (across the pattern's white and noise), where a
    // window is clamped at both ends at once.
    for (const QSize size : {source.size(), QSize(5, 3)}) {
        for (const double sigma : {0.6, 2.0, 7.5}) {
            const QImage sized = source.copy(
                QRect(QPoint(size == source.size() ? 0 : 5, size == source.size() ? 0 : 3), size));
            QImage expected = sized;
            for (const int radius : FrameRenderer::blurBoxRadii(sigma)) {
                if (radius > 0) {
                    expected = plainBox(plainBox(expected, radius, true), radius, false);
                }
            }
            QImage blurred = sized;
            FrameRenderer::blurImage(blurred, sigma);
            INFO("sigma " << sigma << " at " << size.width() << "x" << size.height());
            CHECK(blurred == expected);
            CHECK(blurred != sized);
        }
    }
}

TEST_CASE("the realism pass's SIMD rows give the plain loop's bytes", "[sim][render][realism]") {
    // Every pixel value and grain value the pass meets, at gains from black to twice as
    // bright (the flicker and wander stay near 1.0, so the extremes are the risky part).
    std::vector<quint32> source;
    std::vector<qint8> grain;
    for (int value = 0; value < 256; ++value) {
        for (int noise = -8; noise <= 8; ++noise) {
            const auto v = static_cast<quint32>(value);
            source.push_back(0xFF000000u | (v << 16) | (((v * 7u) & 0xFFu) << 8) |
                             ((255u - v) & 0xFFu));
            grain.push_back(static_cast<qint8>(noise));
        }
    }
    // An odd count, so the plain loop finishes the row after the four-pixel steps.
    source.resize(source.size() - 3);
    grain.resize(source.size());
    const int count = static_cast<int>(source.size());
    for (const quint16 gain : {quint16(0), quint16(97), quint16(128), quint16(131), quint16(255)}) {
        std::vector<quint32> plain = source;
        std::vector<quint32> simd = source;
        const auto red = gain;
        const auto green = static_cast<quint16>(255 - gain);
        const auto blue = static_cast<quint16>(gain / 2 + 64);
        realism_detail::gradeRowScalar(plain.data(), grain.data(), count, red, green, blue);
        const int done =
            realism_detail::gradeRowSimd(simd.data(), grain.data(), count, red, green, blue);
        realism_detail::gradeRowScalar(simd.data() + done, grain.data() + done, count - done, red,
                                       green, blue);
        INFO("gain " << gain << ", " << done << " pixels by SIMD");
#if defined(__SSE2__)
        CHECK(done == count / 4 * 4);
#endif
        CHECK(simd == plain);
    }
}
