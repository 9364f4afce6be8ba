#include "app/session/session_worker.h"

#include "app/protocol/client_messages.h"
#include "app/protocol/python_repr.h"
#include "app/protocol/server_error_text.h"
#include "app/protocol/session_start_message.h"
#include "app/session/session_notes.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>

namespace lbm::session {
namespace {

// video.start echoes the whole request, first frame included, and a chunk is a few hundred
// KiB; the limit only exists to stop a broken server from exhausting memory.
constexpr quint64 kMaxIncomingBytes = 512ull * 1024 * 1024;

int toTimerMs(double seconds) {
    return static_cast<int>(std::clamp(std::ceil(seconds * 1000.0), 0.0, 2.0e9));
}

// Python's f"{x:g}".
QString formatG(double value) {
    return QString::number(value, 'g', 6);
}

} // namespace

SessionWorker::SessionWorker(SessionOptions options)
    : m_options(std::move(options)) {
    m_result.expected_chunks = m_options.workload.numChunks();
    m_result.expected_frames = m_options.workload.numFrames();
    for (const PromptUpdate& update : m_options.workload.prompt_updates) {
        insertScheduled(update.after_chunk,
                        PendingInteraction{
                            QString::fromStdString(update.eventId()),
                            InteractionKind::ScheduledPrompt, QString::fromStdString(update.prompt),
                            protocol::promptUpdateMessage(update), update.transition_chunks});
    }
}

SessionWorker::~SessionWorker() = default;

void SessionWorker::begin() {
    if (m_state != SessionState::Idle) {
        return;
    }
    m_socket = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, this);
    m_socket->setMaxAllowedIncomingMessageSize(kMaxIncomingBytes);
    m_socket->setMaxAllowedIncomingFrameSize(kMaxIncomingBytes);
    connect(m_socket, &QWebSocket::connected, this, &SessionWorker::onConnected);
    connect(m_socket, &QWebSocket::disconnected, this, &SessionWorker::onDisconnected);
    // Qt answers a server's close frame through close(), which announces itself; a dropped
    // connection only disconnects (and closeCode() then still says 1000).
    connect(m_socket, &QWebSocket::aboutToClose, this, [this] { m_peer_closed = true; });
    // Qt 6.4 names the signal error(); errorOccurred() only arrived in 6.5.
    connect(m_socket, qOverload<QAbstractSocket::SocketError>(&QWebSocket::error), this,
            &SessionWorker::onSocketError);
    connect(m_socket, &QWebSocket::sslErrors, this, &SessionWorker::onSslErrors);
    connect(m_socket, &QWebSocket::textMessageReceived, this, &SessionWorker::onTextMessage);
    connect(m_socket, &QWebSocket::binaryMessageReceived, this, &SessionWorker::onBinaryMessage);
    connect(m_socket, &QWebSocket::pong, this, [] {}); // WebSocket-level pongs carry no meaning

    m_connect_timer = new QTimer(this);
    m_connect_timer->setSingleShot(true);
    connect(m_connect_timer, &QTimer::timeout, this, [this] {
        fail(QStringLiteral("Could not connect to %1 within %2 s; check the address and that "
                            "the server is reachable from here.")
                 .arg(m_options.url.toString(), formatG(m_options.connect_timeout_s)));
    });
    m_chunk_timer = new QTimer(this);
    m_chunk_timer->setSingleShot(true);
    m_chunk_timer->setTimerType(Qt::PreciseTimer);
    connect(m_chunk_timer, &QTimer::timeout, this, &SessionWorker::onChunkTimeout);
    m_ping_timer = new QTimer(this);
    connect(m_ping_timer, &QTimer::timeout, this, &SessionWorker::onPing);
    m_stop_timer = new QTimer(this);
    m_stop_timer->setSingleShot(true);
    connect(m_stop_timer, &QTimer::timeout, this, [this] {
        fail(QStringLiteral("The server did not answer session.stop within %1 s; the connection "
                            "was closed.")
                 .arg(formatG(m_options.stop_grace_s)));
    });

    const QString scheme = m_options.url.scheme();
    if (scheme != QStringLiteral("ws") && scheme != QStringLiteral("wss")) {
        fail(QStringLiteral("Cannot connect to '%1': the URL must start with ws:// or wss:// "
                            "(http:// and https:// base URLs map to them).")
                 .arg(m_options.url.toString()));
        return;
    }
    if (m_options.insecure && scheme == QStringLiteral("wss")) {
        emit warning(QStringLiteral("WARNING: --insecure: TLS certificate verification is OFF for "
                                    "%1. Anyone on the network path can impersonate the server "
                                    "and read or alter this session.")
                         .arg(m_options.url.toString()));
    }
    setState(SessionState::Connecting);
    m_connect_timer->start(toTimerMs(m_options.connect_timeout_s));
    m_socket->open(m_options.url);
}

void SessionWorker::onConnected() {
    m_connect_timer->stop();
    m_connected = true;
    const QString start =
        protocol::toWireText(protocol::sessionStartMessage(m_options.workload, m_options.model));
    m_socket->sendTextMessage(start);
    m_socket->flush();
    // The benchmark's clock starts right after session.start is sent.
    m_clock.start();
    setState(SessionState::Streaming);
    if (m_options.ping_interval_s > 0) {
        m_ping_timer->start(toTimerMs(m_options.ping_interval_s));
    }
    armChunkTimeout();
    const QList<PendingInteraction> waiting = std::exchange(m_waiting_for_start, {});
    for (const PendingInteraction& interaction : waiting) {
        transmit(interaction);
    }
}

double SessionWorker::nowS() const {
    return m_clock.isValid() ? static_cast<double>(m_clock.nsecsElapsed()) / 1e9 : 0.0;
}

void SessionWorker::armChunkTimeout() {
    const double timeout_s =
        m_result.records.empty() ? m_options.first_chunk_timeout_s : m_options.chunk_timeout_s;
    // The deadline counts from the previous chunk's arrival (from the start before any).
    const double deadline_s = m_last_arrival_s.value_or(0.0) + timeout_s;
    m_chunk_timer->start(toTimerMs(std::max(0.0, deadline_s - nowS())));
}

void SessionWorker::onChunkTimeout() {
    if (m_state != SessionState::Streaming && m_state != SessionState::Stopping) {
        return;
    }
    const double timeout_s =
        m_result.records.empty() ? m_options.first_chunk_timeout_s : m_options.chunk_timeout_s;
    fail(QStringLiteral("No media chunk for %1 s after %2 chunk(s); the server may still be "
                        "loading, compiling, or capturing graphs.")
             .arg(formatG(timeout_s))
             .arg(m_result.records.size()));
}

void SessionWorker::onPing() {
    if (m_socket && m_state == SessionState::Streaming) {
        m_socket->sendTextMessage(protocol::toWireText(protocol::sessionPingMessage()));
        ++m_result.pings_sent;
        const double now_s = nowS();
        checkControlLoop(now_s);
        m_pong_watch.pingSent(now_s);
    }
}

void SessionWorker::onSslErrors(const QList<QSslError>& errors) {
    QStringList texts;
    for (const QSslError& error : errors) {
        texts.append(error.errorString());
    }
    m_ssl_problems = texts.join(QStringLiteral("; "));
    if (m_options.insecure && m_socket) {
        m_socket->ignoreSslErrors();
    }
}

void SessionWorker::onSocketError(QAbstractSocket::SocketError error) {
    if (m_state == SessionState::Finished || !m_socket) {
        return;
    }
    const QString url = m_options.url.toString();
    if (!m_connected) {
        if (error == QAbstractSocket::SslHandshakeFailedError || !m_ssl_problems.isEmpty()) {
            // Certificate problems arrive as sslErrors; a handshake that fails without one
            // (e.g. "wrong version number") is a server that does not speak TLS there, which
            // --insecure would not fix.
            const QString fix =
                m_ssl_problems.isEmpty()
                    ? QStringLiteral("Check that the server serves TLS on this port (a plain "
                                     "server needs ws:// or http://).")
                    : QStringLiteral("If the server uses a self-signed or private certificate, "
                                     "install its CA or pass --insecure (no verification).");
            fail(QStringLiteral("TLS handshake with %1 failed: %2. %3")
                     .arg(url, m_ssl_problems.isEmpty() ? m_socket->errorString() : m_ssl_problems,
                          fix));
            return;
        }
        fail(connectFailure(error));
        return;
    }
    // Connected sessions report through onDisconnected, which follows, with the close code.
    if (error == QAbstractSocket::RemoteHostClosedError) {
        return;
    }
    fail(QStringLiteral("The connection to %1 failed after %2 chunk(s): %3")
             .arg(url)
             .arg(m_result.records.size())
             .arg(m_socket->errorString()));
}

QString SessionWorker::connectFailure(QAbstractSocket::SocketError error) const {
    return connectFailureMessage(m_options.url, error, m_socket->errorString());
}

void SessionWorker::onDisconnected() {
    if (m_state == SessionState::Finished || !m_socket) {
        return;
    }
    if (!m_connected) {
        // Qt reports a refused handshake as a disconnect before (or instead of) the error.
        fail(connectFailure(m_socket->error()));
        return;
    }
    QString detail = QStringLiteral("no close frame: the connection dropped");
    if (m_peer_closed) {
        detail = QStringLiteral("close code %1").arg(static_cast<int>(m_socket->closeCode()));
        if (!m_socket->closeReason().isEmpty()) {
            detail += QStringLiteral(": ") + m_socket->closeReason();
        }
    }
    QString mid_chunk;
    if (m_pending_metadata) {
        mid_chunk = QStringLiteral(" while waiting for the bytes of its announced chunk");
    }
    fail(QStringLiteral("The server closed the connection after %1 chunk(s)%2 without "
                        "session.done (%3).")
             .arg(m_result.records.size())
             .arg(mid_chunk, detail));
}

void SessionWorker::onTextMessage(const QString& text) {
    if (m_state == SessionState::Finished) {
        return;
    }
    const double now_s = nowS();
    const protocol::ParsedServerMessage parsed = protocol::parseServerMessage(text.toUtf8());
    if (!parsed.message) {
        fail(parsed.problem);
        return;
    }
    handleMessage(*parsed.message, now_s);
}

void SessionWorker::handleMessage(const protocol::ServerMessage& message, double now_s) {
    if (const auto* metadata = std::get_if<protocol::ChunkMetadata>(&message)) {
        // The pair is never interleaved; a second metadata simply replaces the first, as the
        // benchmark does.
        m_pending_metadata = *metadata;
    } else if (const auto* start = std::get_if<protocol::VideoStart>(&message)) {
        m_result.request_id = start->request_id;
        m_result.video_start_s = now_s;
        emit videoStarted(start->request_id, now_s);
    } else if (const auto* queued = std::get_if<protocol::InteractionQueued>(&message)) {
        m_awaiting_reply.removeOne(queued->event_id);
        TimelineEvent event;
        event.t_s = now_s;
        event.type = TimelineEventType::Queued;
        event.event_id = queued->event_id;
        emitTimeline(event);
    } else if (std::holds_alternative<protocol::SessionPong>(message)) {
        ++m_result.pongs_received;
        m_pong_watch.pongReceived();
    } else if (const auto* done = std::get_if<protocol::SessionDone>(&message)) {
        handleSessionDone(*done, now_s);
    } else if (const auto* error = std::get_if<protocol::ServerError>(&message)) {
        handleServerError(*error, now_s);
    } else if (const auto* unknown = std::get_if<protocol::UnknownServerMessage>(&message)) {
        const QString text =
            QStringLiteral("Ignored a server message of unknown type '%1'.").arg(unknown->type);
        if (!m_result.warnings.contains(text)) {
            m_result.warnings.append(text);
            emit warning(text);
        }
    }
}

void SessionWorker::handleServerError(const protocol::ServerError& error, double now_s) {
    TimelineEvent event;
    event.t_s = now_s;
    event.type = TimelineEventType::Error;
    event.detail = error.message;
    event.code = error.code;
    // An error about one interaction (event_id_conflict, interaction_failed) does not end the
    // session on the server; it belongs on that interaction's timeline.
    if (!error.event_id.isEmpty() && m_timeline.contains(error.event_id)) {
        m_awaiting_reply.removeOne(error.event_id);
        event.event_id = error.event_id;
        emitTimeline(event);
        return;
    }
    // The control loop's other refusals keep the session too but name no event_id; the
    // interaction ones answer the oldest interaction still waiting for its reply.
    if (protocol::isControlLoopError(error.message)) {
        if (protocol::isInteractionRefusal(error.message) && !m_awaiting_reply.isEmpty()) {
            event.event_id = m_awaiting_reply.takeFirst();
            emitTimeline(event);
            return;
        }
        const QString text =
            QStringLiteral("The server refused a control message: %1").arg(error.message);
        if (!m_result.warnings.contains(text)) {
            m_result.warnings.append(text);
            emit warning(text);
        }
        return;
    }
    m_result.server_error = error.message;
    fail(serverFailureMessage(error.message, m_result.records.size(), m_result.expected_chunks,
                              m_result.expected_frames));
}

void SessionWorker::checkControlLoop(double now_s) {
    if (m_result.control_loop_silent_since_s) {
        return;
    }
    if (const auto silent_s = m_pong_watch.silentSince(now_s)) {
        m_result.control_loop_silent_since_s = silent_s;
        const QString text = silentControlLoopWarning(*silent_s);
        m_result.warnings.append(text);
        emit warning(text);
    }
}

void SessionWorker::handleSessionDone(const protocol::SessionDone& done, double now_s) {
    m_result.done_event = done.raw;
    checkControlLoop(now_s);
    if (m_result.request_id.value_or(QString()).isEmpty() && !done.request_id.isEmpty()) {
        m_result.request_id = done.request_id;
    }
    const double wall_s = now_s;
    // The benchmark's checks, in its order.
    if (m_result.records.empty()) {
        m_result.wall_s = wall_s;
        fail(QStringLiteral("The session finished without delivering a single media chunk."));
        return;
    }
    if (done.stopped) {
        m_result.wall_s = wall_s;
        fail(QStringLiteral("The session was stopped before it finished: %1")
                 .arg(protocol::pythonRepr(done.raw)));
        return;
    }
    QStringList observed;
    bool contiguous = true;
    for (std::size_t n = 0; n < m_result.records.size(); ++n) {
        observed.append(QString::number(m_result.records[n].index));
        contiguous = contiguous && m_result.records[n].index == static_cast<qint64>(n);
    }
    if (!contiguous) {
        m_result.wall_s = wall_s;
        fail(QStringLiteral("Chunk indices are not contiguous from zero: [%1]")
                 .arg(observed.join(QStringLiteral(", "))));
        return;
    }
    if (static_cast<long long>(m_result.records.size()) != m_result.expected_chunks) {
        m_result.wall_s = wall_s;
        fail(QStringLiteral("Expected %1 chunks for num_frames=%2, received %3.")
                 .arg(m_result.expected_chunks)
                 .arg(m_result.expected_frames)
                 .arg(m_result.records.size()));
        return;
    }
    succeed(wall_s);
}

void SessionWorker::onBinaryMessage(const QByteArray& bytes) {
    // Stamp first: nothing below may move the arrival time.
    const double now_s = nowS();
    if (m_state == SessionState::Finished) {
        return;
    }
    if (!m_pending_metadata) {
        fail(QStringLiteral("Received a binary frame with no preceding video.chunk_metadata "
                            "event."));
        return;
    }
    const protocol::ChunkMetadata metadata = *std::exchange(m_pending_metadata, std::nullopt);
    if (bytes.size() != metadata.byte_length) {
        const QString which = metadata.kind == protocol::ChunkKind::Media
                                  ? QStringLiteral("chunk %1")
                                        .arg(metadata.generation_chunk_index.value_or(
                                            static_cast<qint64>(m_result.records.size())))
                                  : QStringLiteral("the trailer");
        fail(QStringLiteral("The binary frame of %1 holds %2 bytes but its video.chunk_metadata "
                            "announced byte_length %3; the stream is corrupt.")
                 .arg(which)
                 .arg(bytes.size())
                 .arg(metadata.byte_length));
        return;
    }
    if (metadata.kind == protocol::ChunkKind::Trailer) {
        m_result.trailer_received = true;
        m_result.trailer_bytes += bytes.size();
        recordChunkIds(metadata, now_s);
        emit chunkReceived(ChunkEvent::fromMetadata(metadata, bytes, now_s,
                                                    now_s - m_last_arrival_s.value_or(0.0)));
        return;
    }
    acceptMediaChunk(metadata, bytes, now_s);
}

void SessionWorker::acceptMediaChunk(const protocol::ChunkMetadata& announced,
                                     const QByteArray& bytes, double now_s) {
    protocol::ChunkMetadata metadata = announced;
    const bool by_position = !metadata.generation_chunk_index.has_value();
    if (by_position) {
        // vLLM-Omni sends null here for a one-chunk session: the chunk is the next one.
        metadata.generation_chunk_index = static_cast<qint64>(m_result.records.size());
        m_result.chunks_numbered_by_position.append(*metadata.generation_chunk_index);
    }
    const ChunkEvent chunk = ChunkEvent::fromMetadata(
        metadata, bytes, now_s, now_s - m_last_arrival_s.value_or(0.0), by_position);

    if (!m_result.ttfc_s) {
        m_result.ttfc_s = now_s;
    }
    m_result.records.push_back(chunk.record());
    m_result.media_bytes += bytes.size();
    m_last_arrival_s = now_s;
    recordChunkIds(metadata, now_s);
    emit chunkReceived(chunk);
    armChunkTimeout();
    m_highest_chunk = std::max(m_highest_chunk.value_or(-1), *metadata.generation_chunk_index);
    m_pong_watch.chunkArrived(now_s);
    checkControlLoop(now_s);
    fireScheduledUpdates(*metadata.generation_chunk_index);
}

void SessionWorker::recordChunkIds(const protocol::ChunkMetadata& metadata, double now_s) {
    const auto emitIds = [&](const QStringList& ids, TimelineEventType type) {
        for (const QString& id : ids) {
            TimelineEvent event;
            event.t_s = now_s;
            event.type = type;
            event.event_id = id;
            event.chunk_index = metadata.generation_chunk_index;
            emitTimeline(event);
        }
    };
    emitIds(metadata.started_event_ids, TimelineEventType::Started);
    emitIds(metadata.active_event_ids, TimelineEventType::Active);
    emitIds(metadata.completed_event_ids, TimelineEventType::Completed);
}

void SessionWorker::emitTimeline(TimelineEvent event) {
    m_timeline.apply(event);
    emit timelineEvent(event);
}

void SessionWorker::requestStop() {
    m_result.stop_requested = true;
    if (m_state == SessionState::Idle || m_state == SessionState::Connecting) {
        fail(QStringLiteral("The session was stopped before it started."));
        return;
    }
    if (m_state != SessionState::Streaming) {
        return;
    }
    m_socket->sendTextMessage(protocol::toWireText(protocol::sessionStopMessage()));
    setState(SessionState::Stopping);
    m_stop_timer->start(toTimerMs(m_options.stop_grace_s));
}

void SessionWorker::abort(const QString& reason) {
    if (m_state != SessionState::Finished) {
        fail(reason);
    }
}

void SessionWorker::setState(SessionState state) {
    if (m_state != state) {
        m_state = state;
        emit stateChanged(state);
    }
}

void SessionWorker::succeed(double wall_s) {
    m_result.ok = true;
    m_result.error.clear();
    m_result.wall_s = wall_s;
    finish();
}

void SessionWorker::fail(const QString& reason) {
    if (m_state == SessionState::Finished) {
        return;
    }
    m_result.ok = false;
    m_result.error = reason;
    if (m_result.wall_s == 0.0) {
        m_result.wall_s = nowS();
    }
    refusePending(reason);
    finish();
}

void SessionWorker::finish() {
    for (QTimer* timer : {m_connect_timer, m_chunk_timer, m_ping_timer, m_stop_timer}) {
        if (timer) {
            timer->stop();
        }
    }
    // What never got an answer, or never started, is settled now (unanswered, not applied).
    TimelineEvent ended;
    ended.t_s = nowS();
    ended.type = TimelineEventType::SessionEnded;
    if (!m_result.records.empty()) {
        ended.chunk_index = m_result.records.back().index;
    }
    ended.detail = m_result.ok ? QStringLiteral("session.done") : m_result.error;
    emitTimeline(ended);
    setState(SessionState::Finished);
    if (m_socket) {
        // Disconnect first: the close below must not report itself as a failure.
        m_socket->disconnect(this);
        if (m_socket->state() == QAbstractSocket::ConnectedState) {
            m_socket->close(m_result.ok ? QWebSocketProtocol::CloseCodeNormal
                                        : QWebSocketProtocol::CloseCodeGoingAway);
        } else {
            m_socket->abort();
        }
    }
    emit finished(m_result);
}

} // namespace lbm::session
