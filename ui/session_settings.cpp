#include "ui/session_settings.h"

#include "ui/session_form.h"

namespace lbm::ui {

lbm::engine::EngineSettings engineSettingsFromForm(const SessionForm& form) {
    lbm::engine::EngineSettings settings;
    settings.workload = form.workload();
    settings.use_simulator = form.useSimulator();
    settings.simulator_profile = form.simulatorProfile();
    settings.simulator_faults = form.simulatorFaults();
    settings.url = form.serverUrl();
    settings.insecure = !settings.use_simulator && form.skipCertificateCheck();
    settings.model = form.model();
    settings.target_fps = form.targetFps();
    settings.playback_buffer_chunks = form.startBufferChunks();
    settings.warmup_chunks = form.warmupChunks();
    settings.chunk_slo_ms = form.sloMs();
    settings.first_chunk_timeout_s = form.firstChunkTimeoutS();
    settings.chunk_timeout_s = form.chunkTimeoutS();
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
