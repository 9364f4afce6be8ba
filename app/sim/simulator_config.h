#pragma once
// How a SimulatorServer behaves: which timing profile it plays, which faults it injects,
// which vLLM-Omni handler version it answers as, the served model and geometry, the
// protocol's timeouts, and where it logs what it sent.

#include "app/sim/fault_spec.h"
#include "app/sim/realism.h"
#include "app/sim/timing_profile.h"
#include "metrics/constants.h"

#include <QString>

#include <vector>

namespace lbm::sim {

// The real handler versions the simulator can answer as (docs/upstream-conformance.md).
enum class HandlerVersion {
    // y-null/vllm-omni HEAD: prompt transitions only; an event without a prompt is refused.
    Snapshot,
    // wtz2333/vllm-omni 69da5b3: also event.multi_modal_data (camera), with its own wording
    // of interaction refusals, and preencode_mp4 refused.
    Newest,
    // The default: the snapshot handler, plus the newest handler's path for events that
    // carry multi_modal_data, so prompt refusals read as the snapshot's and camera steering
    // works as on the newest.
    Combined,
};

struct SimulatorConfig {
    // fast, h200-sp4, h200-stock, single-gpu, edge or replay:FILE (see TimingProfile).
    QString profile = QStringLiteral("fast");
    // Reads a replay: profile's document (engine::readReplayIntervals); unset, replay:
    // profiles are refused with a message.
    TimingProfile::ReplayReader read_replay;
    std::vector<FaultSpec> faults;
    // Grain, exposure flicker and white balance wander over the world (app/sim/realism.h).
    Realism realism = Realism::Low;
    // The server's "about 60 s" without generation progress or a ping.
    int stall_timeout_ms = 60000;
    // How long a connection may take to send session.start.
    int start_timeout_ms = 10000;
    // JSON-lines send log; empty = none.
    QString log_path;
    // A server without the session-owned streaming decoder: 9 frames in every chunk.
    bool independent_chunks = false;
    HandlerVersion handler = HandlerVersion::Combined;
    // The handler muxes each chunk with PyAV on its event loop before sending it: a delay of
    // its own on top of the engine's (0.1-0.3 s measured on the real handler), during which
    // it reads no control message. Drawn per chunk from the session's seed; 0/0 turns it off.
    int mux_delay_min_ms = 100;
    int mux_delay_max_ms = 300;
    // After session.done or a refusal, how long the client may take to close the connection
    // before the simulator does.
    int close_grace_ms = 500;
    QString model = QString::fromUtf8(lbm::kDefaultModel.data(),
                                      static_cast<qsizetype>(lbm::kDefaultModel.size()));
    int width = lbm::kDefaultWidth;
    int height = lbm::kDefaultHeight;
};

} // namespace lbm::sim
