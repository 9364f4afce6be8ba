#pragma once
// The built-in simulator serving on 127.0.0.1 from its own thread, so its rendering and
// encoding never share a thread with the client's timestamps, the window or the report.
// Used by the session engine for the window's and `bench --simulate`'s sessions.

#include <QString>
#include <QStringList>
#include <QThread>
#include <QUrl>

#include <memory>

namespace lbm::sim {
class SimulatorServer;
}

namespace lbm::engine {

class InProcessSimulator {
public:
    // Listening on a free port, or nullptr with *error saying why (a bad profile, fault or
    // realism level, no port).
    static std::unique_ptr<InProcessSimulator>
    start(const QString& profile, const QStringList& faults, const QString& model, QString* error,
          const QString& realism = QStringLiteral("low"));
    ~InProcessSimulator();
    InProcessSimulator(const InProcessSimulator&) = delete;
    InProcessSimulator& operator=(const InProcessSimulator&) = delete;

    QUrl url() const { return m_url; }
    const QString& profile() const { return m_profile; }
    const QStringList& faults() const { return m_faults; }
    const QString& realism() const { return m_realism; }

private:
    InProcessSimulator() = default;
    void shutDown();

    QThread m_thread;
    std::unique_ptr<sim::SimulatorServer> m_server;
    QUrl m_url;
    QString m_profile;
    QStringList m_faults;
    QString m_realism;
};

} // namespace lbm::engine
