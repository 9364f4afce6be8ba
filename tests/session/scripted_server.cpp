#include "scripted_server.h"

#include "app/sim/fmp4_encoder.h"
#include "app/sim/frame_barcode.h"

#include <QJsonArray>
#include <QJsonDocument>

ScriptedServer::ScriptedServer(Script script)
    : m_script(std::move(script))
    , m_server(QStringLiteral("scripted"),
               m_script.tls ? QWebSocketServer::SecureMode : QWebSocketServer::NonSecureMode) {
    if (m_script.tls) {
        m_server.setSslConfiguration(*m_script.tls);
    }
    m_server.listen(QHostAddress::LocalHost, 0);
    connect(&m_server, &QWebSocketServer::newConnection, this, &ScriptedServer::onNewConnection);
    m_timer.setSingleShot(true);
}

ScriptedServer::~ScriptedServer() {
    if (m_socket) {
        m_socket->abort();
    }
}

QUrl ScriptedServer::url() const {
    return QUrl(QStringLiteral("%1://127.0.0.1:%2/v1/realtime/video")
                    .arg(m_script.tls ? QStringLiteral("wss") : QStringLiteral("ws"))
                    .arg(m_server.serverPort()));
}

QList<QJsonObject> ScriptedServer::receivedOfType(const QString& type) const {
    QList<QJsonObject> out;
    for (const QJsonObject& message : m_received) {
        if (message.value(QStringLiteral("type")).toString() == type) {
            out.append(message);
        }
    }
    return out;
}

void ScriptedServer::sendJson(QWebSocket* socket, const QJsonObject& object) {
    socket->sendTextMessage(
        QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)));
}

QJsonObject ScriptedServer::metadata(int index, qint64 byte_length, const QStringList& started,
                                     const QStringList& completed) {
    return QJsonObject{
        {QStringLiteral("type"), QStringLiteral("video.chunk_metadata")},
        {QStringLiteral("request_id"), QStringLiteral("video_stream-test")},
        {QStringLiteral("kind"), QStringLiteral("media")},
        {QStringLiteral("transport_chunk_index"), index},
        {QStringLiteral("generation_chunk_index"), index},
        {QStringLiteral("num_frames"), index == 0 ? 9 : 12},
        {QStringLiteral("byte_length"), byte_length},
        {QStringLiteral("started_event_ids"), QJsonArray::fromStringList(started)},
        {QStringLiteral("active_event_ids"), QJsonArray::fromStringList(started)},
        {QStringLiteral("completed_event_ids"), QJsonArray::fromStringList(completed)}};
}

void ScriptedServer::onNewConnection() {
    QWebSocket* socket = m_server.nextPendingConnection();
    socket->setParent(this);
    m_socket = socket;
    connect(socket, &QWebSocket::textMessageReceived, this,
            [this, socket](const QString& text) { onText(socket, text); });
    connect(&m_timer, &QTimer::timeout, socket, [this, socket] { sendNext(socket); });
}

void ScriptedServer::onText(QWebSocket* socket, const QString& text) {
    const QJsonObject message = QJsonDocument::fromJson(text.toUtf8()).object();
    m_received.append(message);
    const QString type = message.value(QStringLiteral("type")).toString();
    if (type == QStringLiteral("session.start")) {
        sendJson(socket, {{QStringLiteral("type"), QStringLiteral("video.start")},
                          {QStringLiteral("request_id"), QStringLiteral("video_stream-test")},
                          {QStringLiteral("format"), QStringLiteral("m4s")},
                          {QStringLiteral("config"), message}});
        m_timer.start(m_script.first_chunk_delay_ms);
    } else if (type == QStringLiteral("session.ping") && m_script.reply_to_ping) {
        sendJson(socket, {{QStringLiteral("type"), QStringLiteral("session.pong")}});
    } else if (type == QStringLiteral("session.interaction") && m_script.ack_interactions) {
        const QString id = message.value(QStringLiteral("interaction"))
                               .toObject()
                               .value(QStringLiteral("event_id"))
                               .toString();
        sendJson(socket, {{QStringLiteral("type"), QStringLiteral("session.interaction.queued")},
                          {QStringLiteral("request_id"), QStringLiteral("video_stream-test")},
                          {QStringLiteral("event_id"), id}});
        m_pending_started.append(id);
    } else if (type == QStringLiteral("session.stop")) {
        m_timer.stop();
        sendJson(socket, {{QStringLiteral("type"), QStringLiteral("session.done")},
                          {QStringLiteral("request_id"), QStringLiteral("video_stream-test")},
                          {QStringLiteral("chunks"), m_next_chunk},
                          {QStringLiteral("stopped"), true}});
    }
}

std::optional<int> ScriptedServer::startedChunkOf(const QString& event_id) const {
    const auto found = m_started_chunk.constFind(event_id);
    if (found == m_started_chunk.constEnd()) {
        return std::nullopt;
    }
    return *found;
}

void ScriptedServer::sendNext(QWebSocket* socket) {
    if (m_next_chunk < m_script.chunks) {
        const int index = m_next_chunk++;
        if (m_script.before_chunk && !m_script.before_chunk(socket, index)) {
            return;
        }
        // Interactions start in the next chunk and complete in the one after it.
        const QStringList started = std::exchange(m_pending_started, {});
        for (const QString& id : started) {
            m_started_chunk.insert(id, index);
        }
        const QByteArray bytes = chunkBytes(index);
        sendJson(socket, metadata(index, bytes.size(), started, {}));
        socket->sendBinaryMessage(bytes);
        m_timer.start(m_script.chunk_interval_ms);
        return;
    }
    if (m_script.send_trailer) {
        const QByteArray tail = trailerBytes();
        QJsonObject trailer = metadata(m_script.chunks, tail.size());
        trailer.insert(QStringLiteral("kind"), QStringLiteral("trailer"));
        trailer.insert(QStringLiteral("generation_chunk_index"), QJsonValue::Null);
        trailer.insert(QStringLiteral("num_frames"), 0);
        sendJson(socket, trailer);
        socket->sendBinaryMessage(tail);
    }
    if (m_script.send_done) {
        sendJson(socket,
                 {{QStringLiteral("type"), QStringLiteral("session.done")},
                  {QStringLiteral("request_id"), QStringLiteral("video_stream-test")},
                  {QStringLiteral("chunks"), m_script.chunks + (m_script.send_trailer ? 1 : 0)},
                  {QStringLiteral("stopped"), false}});
    }
}

QByteArray ScriptedServer::chunkBytes(int index) {
    if (!m_script.real_video) {
        return QByteArray(1000 + index, static_cast<char>('a' + index % 26));
    }
    if (!m_encoder) {
        m_encoder = std::make_unique<lbm::sim::Fmp4Encoder>(832, 480, 16);
    }
    QByteArray bytes;
    const int frames = index == 0 ? 9 : 12;
    for (int n = 0; n < frames; ++n) {
        QImage frame(832, 480, QImage::Format_RGB32);
        frame.fill(QColor::fromHsv(static_cast<int>((m_frames_encoded * 7) % 360), 160, 200));
        lbm::sim::drawFrameBarcode(frame, m_frames_encoded++);
        bytes += m_encoder->encode(frame);
    }
    return bytes;
}

QByteArray ScriptedServer::trailerBytes() {
    if (!m_script.real_video) {
        return QByteArray(64, 't');
    }
    return m_encoder ? m_encoder->finish() : QByteArray();
}
