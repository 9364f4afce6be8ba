#pragma once
// How a SimulatorServer behaves: which timing profile it plays, which faults it injects,
// the served model and geometry, the protocol's timeouts, and where it logs what it sent.

#include "app/sim/fault_spec.h"
#include "metrics/constants.h"

#include <QString>

#include <vector>

namespace lbm::sim {

struct SimulatorConfig {
    // fast, h200-sp4, h200-stock, single-gpu, edge or replay:FILE (see TimingProfile).
    QString profile = QStringLiteral("fast");
    std::vector<FaultSpec> faults;
    // The server's "about 60 s" without generation progress or a ping.
    int stall_timeout_ms = 60000;
    // How long a connection may take to send session.start.
    int start_timeout_ms = 10000;
    // JSON-lines send log; empty = none.
    QString log_path;
    // A server without the session-owned streaming decoder: 9 frames in every chunk.
    bool independent_chunks = false;
    QString model = QString::fromUtf8(lbm::kDefaultModel.data(),
                                      static_cast<qsizetype>(lbm::kDefaultModel.size()));
    int width = lbm::kDefaultWidth;
    int height = lbm::kDefaultHeight;
};

} // namespace lbm::sim
