#include "app/engine/in_process_simulator.h"

#include "app/report/session_document.h"
#include "app/sim/fault_spec.h"
#include "app/sim/realism.h"
#include "app/sim/simulator_server.h"

#include <QHostAddress>

namespace lbm::engine {

std::unique_ptr<InProcessSimulator> InProcessSimulator::start(const QString& profile,
                                                              const QStringList& faults,
                                                              const QString& model, QString* error,
                                                              const QString& realism) {
    sim::SimulatorConfig config;
    config.profile = profile;
    config.read_replay = report::readReplayIntervals;
    const auto level = sim::parseRealism(realism, error);
    if (!level) {
        return nullptr;
    }
    config.realism = *level;
    if (!model.isEmpty()) {
        config.model = model;
    }
    for (const QString& text : faults) {
        QString problem;
        const auto spec = sim::FaultSpec::parse(text, &problem);
        if (!spec) {
            *error = problem;
            return nullptr;
        }
        config.faults.push_back(*spec);
    }
    std::unique_ptr<InProcessSimulator> simulator(new InProcessSimulator);
    simulator->m_profile = profile;
    simulator->m_faults = faults;
    simulator->m_realism = realism;
    simulator->m_thread.setObjectName(QStringLiteral("lbm-simulator"));
    simulator->m_server = std::make_unique<sim::SimulatorServer>(config);
    simulator->m_server->moveToThread(&simulator->m_thread);
    simulator->m_thread.start();
    bool listening = false;
    sim::SimulatorServer* server = simulator->m_server.get();
    QMetaObject::invokeMethod(
        server, [server, &listening] { listening = server->listen(QHostAddress::LocalHost, 0); },
        Qt::BlockingQueuedConnection);
    if (!listening) {
        *error =
            QStringLiteral("the built-in simulator did not start: %1").arg(server->errorString());
        return nullptr; // the destructor stops the thread
    }
    simulator->m_url = server->url();
    return simulator;
}

InProcessSimulator::~InProcessSimulator() {
    shutDown();
}

void InProcessSimulator::shutDown() {
    if (m_server) {
        // Destroyed on its own thread: its sockets and timers live there. Released here first,
        // so the simulator thread never writes m_server (the wait below is Qt's, which
        // ThreadSanitizer cannot see).
        sim::SimulatorServer* server = m_server.release();
        QMetaObject::invokeMethod(
            server, [server] { delete server; }, Qt::BlockingQueuedConnection);
    }
    m_thread.quit();
    m_thread.wait();
}

} // namespace lbm::engine
