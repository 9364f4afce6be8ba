#include "ui/session_settings.h"

#include "ui/session_form.h"

namespace lbm::ui {

lbm::engine::EngineSettings engineSettingsFromForm(const SessionForm& form) {
    lbm::engine::EngineSettings settings;
    settings.use_simulator = form.useSimulator();
    settings.simulator_profile = form.simulatorProfile();
    settings.simulator_faults = form.simulatorFaults();
    settings.session.workload = form.workload();
    settings.session.url = form.serverUrl();
    settings.session.insecure = !settings.use_simulator && form.skipCertificateCheck();
    settings.session.model = form.model();
    settings.session.first_chunk_timeout_s = form.firstChunkTimeoutS();
    settings.session.chunk_timeout_s = form.chunkTimeoutS();
    settings.metrics.fps = form.targetFps();
    settings.metrics.playback_buffer_chunks = form.startBufferChunks();
    settings.metrics.warmup_chunks = form.warmupChunks();
    settings.metrics.slo_ms = form.sloMs();
    // The window always watches the picture too (about 0.7 % of a core at 1x, measured by
    // benchmarks/quality): its Quality track, counters and filmstrips read the analysis.
    settings.analyze_quality = true;
    // The document's config says how the camera moved: a pattern's name, "interactive" for
    // steering, null for a workload file's own script (its path is recorded instead).
    if (form.steeringEnabled()) {
        settings.camera_pattern = QStringLiteral("interactive");
    } else if (form.scriptedFromFile()) {
        settings.camera_pattern = std::nullopt;
    } else {
        settings.camera_pattern = form.cameraChoice();
    }
    if (!form.workloadFile().isEmpty()) {
        settings.workload_file = form.workloadFile();
    }
    return settings;
}

} // namespace lbm::ui
