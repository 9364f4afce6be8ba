#include "raw_ws_server.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QTimer>

namespace {

QByteArray frame(quint8 opcode, const QByteArray& payload) {
    QByteArray out;
    out.append(static_cast<char>(0x80 | opcode)); // FIN + opcode
    const quint64 size = static_cast<quint64>(payload.size());
    if (size < 126) {
        out.append(static_cast<char>(size));
    } else if (size <= 0xFFFF) {
        out.append(static_cast<char>(126));
        out.append(static_cast<char>((size >> 8) & 0xFF));
        out.append(static_cast<char>(size & 0xFF));
    } else {
        out.append(static_cast<char>(127));
        for (int shift = 56; shift >= 0; shift -= 8) {
            out.append(static_cast<char>((size >> shift) & 0xFF));
        }
    }
    out.append(payload);
    return out;
}

} // namespace

RawWsServer::RawWsServer(std::vector<Step> steps, bool close_at_end)
    : m_steps(std::move(steps))
    , m_close_at_end(close_at_end) {
    m_server.listen(QHostAddress::LocalHost, 0);
    connect(&m_server, &QTcpServer::newConnection, this, &RawWsServer::onNewConnection);
}

RawWsServer::~RawWsServer() {
    if (m_socket) {
        m_socket->abort();
    }
}

QUrl RawWsServer::url() const {
    return QUrl(QStringLiteral("ws://127.0.0.1:%1/v1/realtime/video").arg(m_server.serverPort()));
}

QByteArray RawWsServer::textFrame(const QByteArray& utf8) {
    return frame(0x1, utf8);
}

QByteArray RawWsServer::binaryFrame(const QByteArray& payload) {
    return frame(0x2, payload);
}

QByteArray RawWsServer::jsonFrame(const QJsonObject& object) {
    return textFrame(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

void RawWsServer::onNewConnection() {
    QTcpSocket* socket = m_server.nextPendingConnection();
    socket->setParent(this);
    m_socket = socket;
    connect(socket, &QTcpSocket::readyRead, this, &RawWsServer::onReadyRead);
}

void RawWsServer::onReadyRead() {
    if (!m_socket) {
        return;
    }
    const QByteArray bytes = m_socket->readAll();
    if (!m_upgraded) {
        m_request += bytes;
        const qsizetype end = m_request.indexOf("\r\n\r\n");
        if (end < 0) {
            return;
        }
        QByteArray key;
        for (const QByteArray& line : m_request.left(end).split('\n')) {
            if (line.toLower().startsWith("sec-websocket-key:")) {
                key = line.mid(line.indexOf(':') + 1).trimmed();
            }
        }
        const QByteArray magic = key + QByteArrayLiteral("258EAFA5-E914-47DA-95CA-C5AB0DC85B11");
        const QByteArray accept =
            QCryptographicHash::hash(magic, QCryptographicHash::Sha1).toBase64();
        const QByteArray response =
            QByteArrayLiteral("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                              "Connection: Upgrade\r\nSec-WebSocket-Accept: ") +
            accept + QByteArrayLiteral("\r\n\r\n");
        m_socket->write(response);
        m_upgraded = true;
        if (m_request.size() <= end + 4) {
            return; // session.start has not arrived yet
        }
    }
    // The first client frame is session.start; what follows (pings, close) needs no answer.
    if (!m_started) {
        m_started = true;
        if (!m_steps.empty()) {
            QTimer::singleShot(m_steps.front().delay_ms, this, [this] { runStep(0); });
        }
    }
}

void RawWsServer::runStep(std::size_t index) {
    if (!m_socket || m_socket->state() != QAbstractSocket::ConnectedState) {
        return;
    }
    m_socket->write(m_steps[index].bytes);
    if (index + 1 < m_steps.size()) {
        QTimer::singleShot(m_steps[index + 1].delay_ms, this,
                           [this, index] { runStep(index + 1); });
        return;
    }
    if (m_close_at_end) {
        m_socket->disconnectFromHost(); // sends what is buffered, then FIN
    }
}
