#include "app/broadcast/broadcast_server.h"

#include "app/broadcast/viewer_connection.h"
#include "app/broadcast/viewer_files.h"

#include <QTcpServer>
#include <QTcpSocket>

#include <algorithm>

namespace lbm::broadcast {
namespace {

constexpr int kSweepIntervalMs = 250;

// Equal-time comparison: how long a wrong token takes to refuse says nothing of the right one.
bool sameToken(QStringView given, const QByteArray& token) {
    if (given.size() != token.size()) {
        return false;
    }
    int difference = 0;
    for (qsizetype i = 0; i < given.size(); ++i) {
        difference |= given[i].unicode() ^ static_cast<unsigned char>(token[i]);
    }
    return difference == 0;
}

} // namespace

BroadcastServer::BroadcastServer(const BroadcastSettings& settings, const QByteArray& token)
    : m_settings(settings)
    , m_token(token)
    , m_sweep(this) { // a child, so it moves to the server's thread with it
    m_clock.start();
    m_sweep.setInterval(kSweepIntervalMs);
    connect(&m_sweep, &QTimer::timeout, this, &BroadcastServer::sweep);
}

BroadcastServer::~BroadcastServer() {
    shutdown();
}

bool BroadcastServer::listen(QString* error) {
    m_server = std::make_unique<QTcpServer>();
    m_server->setMaxPendingConnections(64);
    if (!m_server->listen(m_settings.address, m_settings.port)) {
        *error =
            QStringLiteral("cannot listen on %1:%2: %3 (choose another port, or free this one)")
                .arg(m_settings.address.toString())
                .arg(m_settings.port)
                .arg(m_server->errorString());
        m_server.reset();
        return false;
    }
    connect(m_server.get(), &QTcpServer::newConnection, this, &BroadcastServer::onNewConnection);
    m_sweep.start();
    return true;
}

quint16 BroadcastServer::port() const {
    return m_server ? m_server->serverPort() : 0;
}

void BroadcastServer::shutdown() {
    m_sweep.stop();
    if (m_server) {
        m_server->close();
        m_server.reset();
    }
    const std::vector<ViewerConnection*> open = m_connections;
    for (ViewerConnection* connection : open) {
        connection->close(QStringLiteral("the broadcast stopped"));
    }
}

void BroadcastServer::beginSession(const QString& recording_path) {
    // The previous session's viewers are told by the feed; its held requests end here.
    for (HeldRequest& held : m_held) {
        if (held.connection) {
            HttpResponse gone;
            gone.status = 404;
            gone.body = "That session's broadcast is over; reload the page for the current one.\n";
            send(held.connection, gone);
        }
    }
    m_held.clear();
    ++m_epoch;
    m_segmenter = std::make_unique<HlsSegmenter>(m_settings.segmenter);
    m_store = std::make_unique<StreamStore>(m_settings.memory_budget_bytes);
    m_store->setRecordingPath(recording_path);
    m_session_failed = false;
    m_feed_history.clear();
}

void BroadcastServer::addPayload(const PayloadInfo& info, const QByteArray& bytes) {
    if (!m_segmenter || m_session_failed) {
        return;
    }
    m_store->append(bytes);
    if (!m_segmenter->addPayload(info, bytes)) {
        m_session_failed = true;
        emit problem(QStringLiteral("Broadcast stopped at %1 bytes: %2")
                         .arg(m_segmenter->streamBytes())
                         .arg(m_segmenter->errorString()));
    }
    answerHeld(false);
}

void BroadcastServer::endSession() {
    if (m_segmenter) {
        m_segmenter->finish();
    }
    answerHeld(false);
}

void BroadcastServer::publish(const FeedEvent& event) {
    const QByteArray wire = event.wire();
    if (event.keep == FeedEvent::Keep::History) {
        if (event.name == "session") {
            m_feed_history.clear();
        }
        m_feed_history.push_back(wire);
    } else if (event.keep == FeedEvent::Keep::LatestState) {
        m_feed_state = event.json;
    }
    for (const QPointer<ViewerConnection>& feed : m_feeds) {
        if (feed && !feed->isClosed()) {
            feed->sendStreamBytes(wire);
        }
    }
}

void BroadcastServer::onNewConnection() {
    while (QTcpSocket* socket = m_server->nextPendingConnection()) {
        const QString address = socket->peerAddress().toString();
        if (static_cast<int>(m_connections.size()) >= m_settings.max_connections) {
            ++m_stats.refused_requests;
            socket->write("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
                          "Content-Length: 40\r\nRetry-After: 5\r\nConnection: close\r\n\r\n"
                          "Too many connections from your address.\n");
            socket->disconnectFromHost();
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            continue;
        }
        auto* connection = new ViewerConnection(socket, m_settings.limits, this);
        m_connections.push_back(connection);
        // Over its address's limit, a connection is answered 503 once its request has arrived
        // (closing before reading it would reset the connection, and the viewer would see no
        // answer at all), then closed; the head timeout bounds how long it may wait.
        if (m_per_address.value(address) >= m_settings.max_connections_per_address) {
            m_over_limit.insert(connection);
        } else {
            ++m_per_address[address];
        }
        connect(connection, &ViewerConnection::requestReady, this, &BroadcastServer::onRequest);
        connect(connection, &ViewerConnection::closed, this, &BroadcastServer::onClosed);
    }
}

void BroadcastServer::onClosed(ViewerConnection* connection) {
    const auto it = std::find(m_connections.begin(), m_connections.end(), connection);
    if (it == m_connections.end()) {
        return;
    }
    m_connections.erase(it);
    const QString address = connection->peerAddress().toString();
    if (!m_over_limit.remove(connection) && --m_per_address[address] <= 0) {
        m_per_address.remove(address);
    }
    if (connection->closeReason().startsWith(QStringLiteral("dropped"))) {
        ++m_stats.dropped_viewers;
    }
    connection->deleteLater();
}

void BroadcastServer::noteViewer(const ViewerConnection* connection) {
    m_last_seen_ms.insert(connection->peerAddress().toString(), m_clock.elapsed());
}

void BroadcastServer::sweep() {
    const std::vector<ViewerConnection*> open = m_connections;
    for (ViewerConnection* connection : open) {
        connection->checkTimeouts();
    }
    answerHeld(true);
    m_feeds.erase(std::remove_if(m_feeds.begin(), m_feeds.end(),
                                 [](const QPointer<ViewerConnection>& feed) {
                                     return !feed || feed->isClosed();
                                 }),
                  m_feeds.end());
    const qint64 now = m_clock.elapsed();
    for (const QPointer<ViewerConnection>& feed : m_feeds) {
        m_last_seen_ms.insert(feed->peerAddress().toString(), now);
    }
    for (auto it = m_last_seen_ms.begin(); it != m_last_seen_ms.end();) {
        it = now - it.value() > m_settings.viewer_linger_ms ? m_last_seen_ms.erase(it) : ++it;
    }
    m_stats.viewers = static_cast<int>(m_last_seen_ms.size());
    m_stats.connections = static_cast<int>(m_connections.size());
    // At most four times a second, and only when something changed.
    if (!(m_stats == m_last_reported)) {
        m_last_reported = m_stats;
        emit statsChanged(m_stats);
    }
}

void BroadcastServer::refuse(ViewerConnection* connection, int status, const QString& why) {
    ++m_stats.refused_requests;
    HttpResponse response;
    response.status = status;
    response.body = why.toUtf8() + '\n';
    send(connection, response);
}

void BroadcastServer::send(ViewerConnection* connection, const HttpResponse& response) {
    m_stats.bytes_sent += response.body.size();
    connection->respond(response);
}

void BroadcastServer::onRequest(ViewerConnection* connection, const HttpRequest& request) {
    if (m_over_limit.contains(connection)) {
        ++m_stats.refused_requests;
        HttpResponse response;
        response.status = 503;
        response.body = "Too many connections from your address.\n";
        response.addHeader("Retry-After", "5");
        response.close_connection = true;
        send(connection, response);
        return;
    }
    if (request.method != "GET" && request.method != "HEAD") {
        HttpResponse response;
        response.status = 405;
        response.body = "The broadcast is read-only: GET and HEAD only.\n";
        response.addHeader("Allow", "GET, HEAD");
        ++m_stats.refused_requests;
        send(connection, response);
        return;
    }
    // "/<token>/rest": anything else is a 404 that says how to get in, and nothing more.
    const QStringView path(request.path);
    const qsizetype slash = path.indexOf(QLatin1Char('/'), 1);
    const QStringView token = slash < 0 ? path.mid(1) : path.mid(1, slash - 1);
    if (!sameToken(token, m_token)) {
        refuse(connection, 404,
               QStringLiteral("Not found. Viewer links carry an access token: ask the presenter "
                              "for the whole link."));
        return;
    }
    if (slash < 0) {
        HttpResponse redirect;
        redirect.status = 301;
        redirect.addHeader("Location", "/" + m_token + "/");
        send(connection, redirect);
        return;
    }
    if (!route(connection, path.mid(slash + 1).toString(), request, false)) {
        HeldRequest held;
        held.connection = connection;
        held.path = path.mid(slash + 1).toString();
        held.epoch = m_epoch;
        bool ok = false;
        if (const qint64 msn =
                request.query.queryItemValue(QStringLiteral("_HLS_msn")).toLongLong(&ok);
            ok) {
            held.msn = msn;
        }
        if (const qint64 part =
                request.query.queryItemValue(QStringLiteral("_HLS_part")).toLongLong(&ok);
            ok) {
            held.part = part;
        }
        held.held.start();
        m_held.push_back(held);
    }
}

void BroadcastServer::answerHeld(bool timed_out_only) {
    std::vector<HeldRequest> still_held;
    std::vector<HeldRequest> held = std::move(m_held);
    m_held.clear();
    for (HeldRequest& request : held) {
        if (!request.connection || request.connection->isClosed()) {
            continue;
        }
        const bool timed_out = request.held.elapsed() > m_settings.max_block_ms;
        if (timed_out_only && !timed_out) {
            still_held.push_back(std::move(request));
            continue;
        }
        HttpRequest again;
        again.method = "GET";
        if (request.msn) {
            again.query.addQueryItem(QStringLiteral("_HLS_msn"), QString::number(*request.msn));
        }
        if (request.part) {
            again.query.addQueryItem(QStringLiteral("_HLS_part"), QString::number(*request.part));
        }
        if (!route(request.connection, request.path, again, timed_out)) {
            still_held.push_back(std::move(request));
        }
    }
    for (HeldRequest& request : m_held) { // held anew while routing (cannot happen, but safe)
        still_held.push_back(std::move(request));
    }
    m_held = std::move(still_held);
}

} // namespace lbm::broadcast
