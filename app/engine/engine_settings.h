#pragma once
// Everything one session run needs, in the benchmark's terms: where (the built-in simulator
// or a server), what to generate (the workload), how it is measured (target fps, start
// buffer, warmup, SLO), the keepalive and timeouts, what is kept (the raw recording) and what
// is done with the frames. The window's form and `bench`'s flags both become one of these.

#include "app/quality/quality_settings.h"
#include "metrics/constants.h"
#include "metrics/workload.h"

#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

namespace lbm::engine {

struct EngineSettings {
    // Where. The built-in simulator runs on its own thread in this process.
    bool use_simulator = true;
    QString simulator_profile = QStringLiteral("fast");
    // Faults for the built-in simulator, in `simulate --fault` syntax ("stall@5").
    QStringList simulator_faults;
    // How much the built-in simulator's picture looks like diffusion video (none, low, high).
    QString simulator_realism = QStringLiteral("low");
    // A ws:// or wss:// URL (protocol::realtimeVideoUrl) when use_simulator is false.
    QUrl url;
    QString model =
        QString::fromUtf8(kDefaultModel.data(), static_cast<qsizetype>(kDefaultModel.size()));

    // What. image_reference is an http(s):// or data: URL (engine::resolveFirstFrame); a
    // data: URL too large for session.start is re-encoded at start() and the engine says so.
    Workload workload;

    // How it is measured: the benchmark's --target-fps, --playback-buffer-chunks,
    // --warmup-chunks and --chunk-slo-ms.
    double target_fps = kDefaultFps;
    int playback_buffer_chunks = 1;
    int warmup_chunks = kDefaultWarmupChunks;
    std::optional<double> chunk_slo_ms;

    // Keepalive and timeouts, the benchmark's defaults.
    double ping_interval_s = 20.0;
    double first_chunk_timeout_s = 900.0;
    double chunk_timeout_s = 300.0;
    double connect_timeout_s = 10.0;
    bool insecure = false; // wss:// only: accept any certificate (said loudly)

    // What is kept: the raw fMP4 stream, appended and flushed as chunks land. Empty: none.
    QString recording_path;
    // Decode the stream (frame counts per chunk, frame consumers, presentation).
    bool decode = true;
    // A view presents the frames: they wait for it in the picture queue
    // (SessionEngine::pictureQueue()), sized by the chunks' frame counts. False: nothing
    // presents them, and frames go to the frame consumers only.
    bool present_frames = false;
    // Run the visual quality analysis on the decoded frames (on a thread of its own; needs
    // decode), with these thresholds. The window always does; `bench --quality` asks.
    bool analyze_quality = false;
    quality::QualitySettings quality;

    // How the run is described in the session document's config.
    std::optional<QString> camera_pattern = QStringLiteral("forward"); // null: scripted
    std::optional<QString> workload_file;
    int sessions = 1;
    int warmup_sessions = 0;
};

} // namespace lbm::engine
