// How fast the simulator makes video on one thread: render (the world from a moving camera,
// the realism pass, captions, barcode) and libx264 encode + mov mux at 832x480, as a ratio
// to the 16 fps real-time requirement measured in the same run. A ratio below 1 means a
// session's chunks cannot be produced as fast as they play, and the simulator's profiles
// would run late; rendering must stay cheaper than encoding (docs/simulated-world.md).
//
// Usage: lbm_encode_benchmark [FRAMES [REALISM]]   (default 192 frames = 12 s of video at
// 16 fps, realism low)

#include "app/sim/camera_pose.h"
#include "app/sim/fmp4_encoder.h"
#include "app/sim/frame_renderer.h"
#include "resources/bundled_resources.h"

#include <QCoreApplication>
#include <QImage>
#include <QTextStream>

extern "C" {
#include <libavutil/log.h>
}

#include <ctime>
#include <vector>

namespace {

constexpr int kWidth = 832;
constexpr int kHeight = 480;
constexpr int kFps = 16;

// CPU time of the whole process (every thread), so a loaded machine does not count another
// program's time as ours; the phases are compared on it.
qint64 processCpuNs() {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<qint64>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

lbm::sim::FrameState stateFor(qint64 frame_number, const lbm::sim::WorldLook& look) {
    lbm::sim::FrameState state;
    // A forward-and-turn path so every frame differs (as in a real session).
    lbm::sim::CameraVelocity velocity =
        lbm::sim::CameraVelocity::fromKeys({QStringLiteral("w"), QStringLiteral("l")});
    velocity.translation /= 4.0f;
    for (qint64 step = 0; step < frame_number; ++step) {
        state.pose = state.pose.advanced(velocity);
    }
    state.look = look;
    state.world_time_s = static_cast<double>(frame_number) / kFps;
    state.caption = QStringLiteral("A snowy street");
    state.frame_number = frame_number;
    state.generation_chunk_index = frame_number / 12;
    return state;
}

double framesPerSecond(qint64 frames, qint64 elapsed_ns) {
    return elapsed_ns > 0 ? static_cast<double>(frames) * 1e9 / static_cast<double>(elapsed_ns)
                          : 0.0;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    av_log_set_level(AV_LOG_ERROR);
    const int frames = argc > 1 ? std::max(12, QString::fromLocal8Bit(argv[1]).toInt()) : 192;
    QTextStream out(stdout);
    const QImage first_frame = QImage::fromData(lbm::bundledFirstFramePng());
    QString realism_error;
    const auto realism = lbm::sim::parseRealism(
        argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("low"), &realism_error);
    if (!realism) {
        QTextStream(stderr) << realism_error << '\n';
        return 2;
    }
    const lbm::sim::FrameRenderer renderer(first_frame, kWidth, kHeight, 42, *realism);

    const lbm::sim::WorldLook look = lbm::sim::WorldLook::fromImage(first_frame);
    std::vector<lbm::sim::FrameState> states;
    for (int i = 0; i < frames; ++i) {
        states.push_back(stateFor(i, look));
    }

    std::vector<QImage> rendered;
    rendered.reserve(states.size());
    qint64 started = processCpuNs();
    for (const auto& state : states) {
        rendered.push_back(renderer.render(state));
    }
    const qint64 render_ns = processCpuNs() - started;

    qint64 bytes = 0;
    started = processCpuNs();
    {
        lbm::sim::Fmp4Encoder encoder(kWidth, kHeight, kFps, 1);
        for (const QImage& image : rendered) {
            bytes += encoder.encode(image).size();
        }
        bytes += encoder.finish().size();
    }
    const qint64 encode_ns = processCpuNs() - started;

    started = processCpuNs();
    {
        lbm::sim::Fmp4Encoder encoder(kWidth, kHeight, kFps, 1);
        for (const auto& state : states) {
            encoder.encode(renderer.render(state));
        }
        encoder.finish();
    }
    const qint64 both_ns = processCpuNs() - started;

    const double render_fps = framesPerSecond(frames, render_ns);
    const double encode_fps = framesPerSecond(frames, encode_ns);
    const double both_fps = framesPerSecond(frames, both_ns);
    out << QStringLiteral("encode benchmark: %1 frames at %2x%3, realism %4, one thread, libx264 "
                          "ultrafast crf 18 zerolatency\n")
               .arg(frames)
               .arg(kWidth)
               .arg(kHeight)
               .arg(lbm::sim::realismName(*realism));
    out << QStringLiteral("baseline: real time at %1 fps = %1 frames/s (a 12-frame chunk every "
                          "750 ms); rates are per second of process CPU time\n")
               .arg(kFps);
    const auto line = [&](const QString& label, double fps) {
        out << QStringLiteral("  %1 %2 frames/s  = %3x real time  (%4 ms/frame)\n")
                   .arg(label, -16)
                   .arg(fps, 8, 'f', 1)
                   .arg(fps / kFps, 0, 'f', 2)
                   .arg(fps > 0 ? 1000.0 / fps : 0.0, 0, 'f', 2);
    };
    line(QStringLiteral("render only"), render_fps);
    line(QStringLiteral("encode only"), encode_fps);
    line(QStringLiteral("render+encode"), both_fps);
    // The goal: the simulator is limited by encoding, so this stays below 1.
    out << QStringLiteral("  render / encode: %1 (below 1: encoding is the limit)\n")
               .arg(encode_ns > 0 ? static_cast<double>(render_ns) / static_cast<double>(encode_ns)
                                  : 0.0,
                    0, 'f', 2);
    out << QStringLiteral("  stream size: %1 bytes (%2 kbit/s of video)\n")
               .arg(bytes)
               .arg(static_cast<double>(bytes) * 8.0 / 1000.0 /
                        (static_cast<double>(frames) / kFps),
                    0, 'f', 0);
    return 0;
}
