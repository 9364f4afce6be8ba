#include "app/sim/simulator_server.h"

#include "app/sim/frame_renderer.h"
#include "app/sim/simulator_session.h"

#include <QThreadPool>
#include <QWebSocket>
#include <QWebSocketServer>

namespace lbm::sim {
namespace {

// Above the 4 MiB session.start limit, so an oversized start gets the server's own error
// instead of Qt dropping the connection.
constexpr qint64 kSocketMessageLimitBytes = 64 * 1024 * 1024;

} // namespace

SimulatorServer::SimulatorServer(SimulatorConfig config, QObject* parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_server(new QWebSocketServer(QStringLiteral("lingbot-monitor simulator"),
                                    QWebSocketServer::NonSecureMode, this)) {
    connect(m_server, &QWebSocketServer::newConnection, this, &SimulatorServer::onNewConnection);
}

SimulatorServer::~SimulatorServer() = default;

bool SimulatorServer::listen(const QHostAddress& address, quint16 port) {
    // The world's textures take tens of milliseconds to build; built on the pool while the
    // server waits for its first client, the first session's first chunk is not late.
    QThreadPool::globalInstance()->start([]() { FrameRenderer::warmUp(); });
    QString error;
    m_profile = TimingProfile::fromName(m_config.profile, &error, m_config.read_replay);
    if (!m_profile) {
        m_error = error;
        return false;
    }
    if (!m_log.isOpen() && !m_log.open(m_config.log_path, &error)) {
        m_error = error;
        return false;
    }
    if (!m_server->listen(address, port)) {
        m_error = QStringLiteral("Cannot listen on %1:%2: %3; choose another --port (0 picks a "
                                 "free one).")
                      .arg(address.toString())
                      .arg(port)
                      .arg(m_server->errorString());
        return false;
    }
    return true;
}

quint16 SimulatorServer::serverPort() const {
    return m_server->serverPort();
}

QUrl SimulatorServer::url() const {
    QUrl url;
    url.setScheme(QStringLiteral("ws"));
    const QHostAddress address = m_server->serverAddress();
    url.setHost(address == QHostAddress::Any || address == QHostAddress::AnyIPv4
                    ? QStringLiteral("127.0.0.1")
                    : address.toString());
    url.setPort(m_server->serverPort());
    url.setPath(kPath);
    return url;
}

void SimulatorServer::onNewConnection() {
    while (QWebSocket* socket = m_server->nextPendingConnection()) {
        socket->setMaxAllowedIncomingMessageSize(kSocketMessageLimitBytes);
        socket->setMaxAllowedIncomingFrameSize(kSocketMessageLimitBytes);
        if (socket->requestUrl().path() != kPath) {
            // Owned by the server until the peer hangs up, so a server destroyed first (a
            // test, `simulate` exiting) still frees it; LeakSanitizer found it leaking.
            socket->setParent(this);
            socket->close(QWebSocketProtocol::CloseCodePolicyViolated,
                          QStringLiteral("Unknown path %1; the realtime video endpoint is %2")
                              .arg(socket->requestUrl().path(), kPath));
            connect(socket, &QWebSocket::disconnected, socket, &QObject::deleteLater);
            continue;
        }
        auto* session =
            new SimulatorSession(socket, m_config, *m_profile, &m_log, m_next_session_id++, this);
        ++m_active_sessions;
        connect(session, &SimulatorSession::finished, this, [this, session]() {
            --m_active_sessions;
            session->deleteLater();
            emit sessionFinished();
        });
    }
}

} // namespace lbm::sim
