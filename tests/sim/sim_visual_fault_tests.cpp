// The visual faults (seam, freeze, blur, tint): parsed like every fault, planned as the
// ground truth the quality analysis is tested against, drawn on the picture only, and never
// costing a frame its barcode.

#include "app/sim/chunk_producer.h"
#include "app/sim/fault_spec.h"
#include "app/sim/frame_barcode.h"
#include "app/sim/frame_renderer.h"
#include "app/sim/simulator_server.h"
#include "resources/bundled_resources.h"
#include "tests/sim/media_probe.h"
#include "tests/sim/sim_client.h"

#include <QImage>

#include <catch2/catch.hpp>

extern "C" {
#include <libavutil/log.h>
}

#include <cmath>
#include <numeric>

using namespace lbm::sim;
using namespace lbm::sim::test;

namespace {

std::vector<FaultSpec> faults(const QStringList& texts) {
    std::vector<FaultSpec> specs;
    for (const QString& text : texts) {
        QString error;
        const auto spec = FaultSpec::parse(text, &error);
        REQUIRE(spec);
        specs.push_back(*spec);
    }
    return specs;
}

ChunkPlan plannedChunk(int index) {
    ChunkPlan plan;
    plan.generation_chunk_index = index;
    for (int i = 0; i < 12; ++i) {
        FrameState state;
        state.frame_number = 9 + (index - 1) * 12 + i;
        state.pose.position = QVector3D(0.01f * static_cast<float>(i), 0, 0);
        plan.frames.push_back(state);
    }
    return plan;
}

// Mean absolute 4-neighbour Laplacian of the grey levels: fine detail.
double detail(const QImage& image) {
    double sum = 0;
    int count = 0;
    for (int y = 60; y < image.height() - 60; y += 2) {
        for (int x = 1; x < image.width() - 1; x += 2) {
            const int centre = qGray(image.pixel(x, y));
            sum +=
                std::abs(4 * centre - qGray(image.pixel(x - 1, y)) - qGray(image.pixel(x + 1, y)) -
                         qGray(image.pixel(x, y - 1)) - qGray(image.pixel(x, y + 1)));
            ++count;
        }
    }
    return sum / count;
}

} // namespace

TEST_CASE("visual faults parse like every fault", "[sim][fault][visual]") {
    const auto parsed = faults({QStringLiteral("seam@6"), QStringLiteral("freeze@10"),
                                QStringLiteral("blur@14"), QStringLiteral("tint@18")});
    CHECK(parsed[0].kind == FaultKind::Seam);
    CHECK(parsed[1].kind == FaultKind::Freeze);
    CHECK(parsed[2].kind == FaultKind::Blur);
    CHECK(parsed[3].kind == FaultKind::Tint);
    CHECK(parsed[3].chunk == 18);
    CHECK(parsed[1].toString() == QStringLiteral("freeze@10"));
    QString error;
    CHECK_FALSE(FaultSpec::parse(QStringLiteral("blur"), &error));
    CHECK(error.contains(QStringLiteral("blur@CHUNK")));
    CHECK_FALSE(FaultSpec::parse(QStringLiteral("smear@2"), &error));
    CHECK(error.contains(QStringLiteral("seam, freeze, blur, tint")));
    CHECK(firstFaultChunk(parsed, FaultKind::Blur) == 14);
    CHECK_FALSE(firstFaultChunk(parsed, FaultKind::Stall));
}

TEST_CASE("visual faults are planned from their chunk on", "[sim][fault][visual]") {
    const auto configured =
        faults({QStringLiteral("seam@3"), QStringLiteral("seam@8"), QStringLiteral("freeze@5"),
                QStringLiteral("blur@4"), QStringLiteral("tint@6")});
    SECTION("nothing before the first fault") {
        ChunkPlan plan = plannedChunk(2);
        applyVisualFaults(plan, configured, 832, 480);
        for (const FrameState& state : plan.frames) {
            CHECK_FALSE(state.seam_jump);
            CHECK(state.blur_sigma_px == 0.0);
            CHECK(state.warm_cast == 0.0);
        }
    }
    SECTION("a seam jumps the view from its chunk until the next seam") {
        ChunkPlan seam = plannedChunk(3);
        applyVisualFaults(seam, configured, 832, 480);
        CHECK(seam.frames.front().seam_jump);
        ChunkPlan later = plannedChunk(7);
        applyVisualFaults(later, configured, 832, 480);
        CHECK(later.frames.back().seam_jump);
        ChunkPlan back = plannedChunk(8);
        applyVisualFaults(back, configured, 832, 480);
        CHECK_FALSE(back.frames.front().seam_jump);
    }
    SECTION("blur and tint grow frame by frame, with no step at a chunk boundary") {
        ChunkPlan four = plannedChunk(4);
        applyVisualFaults(four, configured, 832, 480);
        CHECK(four.frames.front().blur_sigma_px == Approx(kBlurSigmaPxPerChunk / 12));
        CHECK(four.frames.back().blur_sigma_px == Approx(kBlurSigmaPxPerChunk));
        ChunkPlan six = plannedChunk(6);
        applyVisualFaults(six, configured, 832, 480);
        CHECK(six.frames.front().warm_cast == Approx(kWarmCastPerChunk / 12));
        CHECK(six.frames.back().warm_cast == Approx(kWarmCastPerChunk));
        CHECK(six.frames.front().blur_sigma_px == Approx(kBlurSigmaPxPerChunk * (2 + 1.0 / 12)));
        ChunkPlan far = plannedChunk(40);
        applyVisualFaults(far, configured, 832, 480);
        CHECK(far.frames.back().blur_sigma_px == kMaxBlurSigmaPx);
        CHECK(far.frames.back().warm_cast == kMaxWarmCast);
    }
    SECTION("a freeze holds the chunk's first picture, frame numbers move on") {
        ChunkPlan frozen = plannedChunk(5);
        applyVisualFaults(frozen, configured, 832, 480);
        const FrameState& first = frozen.frames.front();
        for (size_t i = 0; i < frozen.frames.size(); ++i) {
            const FrameState& state = frozen.frames[i];
            CHECK(state.pose.position == first.pose.position);
            CHECK(state.blur_sigma_px == first.blur_sigma_px);
            CHECK(state.frame_number == first.frame_number + static_cast<qint64>(i));
        }
    }
}

TEST_CASE("blur and cast change the picture, never the barcode band", "[sim][render][visual]") {
    const FrameRenderer renderer(QImage::fromData(lbm::bundledFirstFramePng()), 832, 480);
    FrameState clean;
    clean.frame_number = 1234567;
    const QImage sharp = renderer.render(clean);

    FrameState blurred = clean;
    blurred.blur_sigma_px = 2.0;
    const QImage soft = renderer.render(blurred);
    CHECK(detail(soft) < 0.6 * detail(sharp));
    CHECK(readFrameBarcode(soft) == 1234567);

    FrameState warm = clean;
    warm.warm_cast = 20.0;
    const QImage cast = renderer.render(warm);
    const QRgb before = sharp.pixel(400, 240);
    const QRgb after = cast.pixel(400, 240);
    CHECK(qRed(after) == std::min(255, qRed(before) + 20));
    CHECK(qGreen(after) == qGreen(before));
    CHECK(qBlue(after) == std::max(0, qBlue(before) - 20));

    FrameState everything = clean;
    everything.seam_jump = true;
    everything.blur_sigma_px = kMaxBlurSigmaPx;
    everything.warm_cast = kMaxWarmCast;
    const QImage worst = renderer.render(everything);
    CHECK(readFrameBarcode(worst) == 1234567);
    // The jumped view: the ground ahead of the camera is another stretch of road.
    FrameState jumped = clean;
    jumped.seam_jump = true;
    const QImage ahead = renderer.render(jumped);
    int changed = 0;
    for (int x = 0; x < 832; x += 8) {
        changed += ahead.pixel(x, 400) != sharp.pixel(x, 400) ? 1 : 0;
    }
    CHECK(changed > 52); // most of a ground row
}

TEST_CASE("a session with every visual fault still carries every frame number",
          "[sim][fault][visual]") {
    av_log_set_level(AV_LOG_ERROR);
    SimulatorConfig config;
    config.faults = faults({QStringLiteral("seam@1"), QStringLiteral("freeze@2"),
                            QStringLiteral("blur@1"), QStringLiteral("tint@1")});
    SimulatorServer server(config);
    REQUIRE(server.listen(QHostAddress::LocalHost, 0));
    SimClient client(server.url());
    client.sendJson(startMessage(45)); // 4 chunks: 9 + 3 x 12 frames
    // The session takes 1.3 s in a release build and 22 s under ThreadSanitizer on an idle
    // machine (blurred frames are rendered in software); CI runs two tests at once.
    REQUIRE(client.waitForType(QStringLiteral("session.done"), 120000));
    const DecodedStream decoded = decodeStream(client.streamBytes());
    INFO(decoded.error.toStdString());
    REQUIRE(decoded.error.isEmpty());
    std::vector<qint64> expected(45);
    std::iota(expected.begin(), expected.end(), 0);
    CHECK(decoded.barcodes == expected);
}
