#pragma once
// Everything one session run needs, in the benchmark's terms: where (the built-in simulator
// or a server), what to generate (the workload), how it is measured (target fps, start
// buffer, warmup, SLO), the keepalive and timeouts, what is kept (the raw recording) and what
// is done with the frames. The window's form and `bench`'s flags both become one of these.

#include "app/quality/quality_settings.h"
#include "app/session/session_options.h"
#include "metrics/session_metrics.h"

#include <QString>
#include <QStringList>

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

    // What to generate and how the connection is kept, as the session client takes it:
    // session.url is the server (a ws:// or wss:// URL, protocol::realtimeVideoUrl) when
    // use_simulator is false; the workload's image_reference is an http(s):// or data: URL
    // (engine::resolveFirstFrame), and a data: URL too large for session.start is re-encoded
    // at start() and the engine says so. The benchmark's keepalive and timeout defaults.
    session::SessionOptions session;

    // How it is measured: the benchmark's --target-fps (metrics.fps), --playback-buffer-chunks,
    // --warmup-chunks and --chunk-slo-ms (metrics.slo_ms). The live metrics take these as they
    // are; ttfc_s and session_wall_s are measured by the run, so they stay unset here.
    MetricsOptions metrics;

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
