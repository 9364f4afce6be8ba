#pragma once
// The built-in LingBot-World server: a non-secure WebSocket server on
// /v1/realtime/video where each connection is its own SimulatorSession. Used by
// `lingbot-monitor simulate`, the GUI's default endpoint, `bench --simulate` and the tests.

#include "app/protocol/endpoint_url.h"
#include "app/sim/send_log.h"
#include "app/sim/simulator_config.h"
#include "app/sim/timing_profile.h"

#include <QHostAddress>
#include <QObject>
#include <QUrl>

#include <optional>

class QWebSocketServer;

namespace lbm::sim {

class SimulatorServer : public QObject {
    Q_OBJECT
public:
    inline static const QString kPath = protocol::kRealtimeVideoPath;

    explicit SimulatorServer(SimulatorConfig config = {}, QObject* parent = nullptr);
    ~SimulatorServer() override;

    // False with errorString() set for a bad profile, log file or a port in use.
    bool listen(const QHostAddress& address = QHostAddress::LocalHost, quint16 port = 0);
    quint16 serverPort() const;
    // ws://HOST:PORT/v1/realtime/video
    QUrl url() const;
    QString errorString() const { return m_error; }
    const SimulatorConfig& config() const { return m_config; }
    int activeSessions() const { return m_active_sessions; }

signals:
    void sessionFinished();

private:
    void onNewConnection();

    SimulatorConfig m_config;
    std::optional<TimingProfile> m_profile;
    SendLog m_log;
    QWebSocketServer* m_server; // child
    QString m_error;
    int m_next_session_id = 0;
    int m_active_sessions = 0;
};

} // namespace lbm::sim
