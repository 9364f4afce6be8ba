#include "app/broadcast/viewer_connection.h"

#include <QTcpSocket>

namespace lbm::broadcast {
namespace {

QByteArray reasonPhrase(int status) {
    switch (status) {
    case 200:
        return "OK";
    case 301:
        return "Moved Permanently";
    case 400:
        return "Bad Request";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 503:
        return "Service Unavailable";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Status";
    }
}

} // namespace

ViewerConnection::ViewerConnection(QTcpSocket* socket, const ConnectionLimits& limits,
                                   QObject* parent)
    : QObject(parent)
    , m_socket(socket)
    , m_limits(limits)
    , m_peer(socket->peerAddress()) {
    m_socket->setParent(this);
    // Low latency for playlist answers; a viewer's reads must not wait on Nagle.
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_idle.start();
    m_write_progress.start();
    connect(m_socket, &QTcpSocket::readyRead, this, &ViewerConnection::onReadyRead);
    connect(m_socket, &QTcpSocket::bytesWritten, this, [this] { m_write_progress.restart(); });
    connect(m_socket, &QTcpSocket::disconnected, this,
            [this] { close(QStringLiteral("the viewer disconnected")); });
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this] {
        if (m_socket->error() != QAbstractSocket::RemoteHostClosedError) {
            close(m_socket->errorString());
        }
    });
}

ViewerConnection::~ViewerConnection() = default;

void ViewerConnection::onReadyRead() {
    if (m_state == State::Closing) {
        m_socket->readAll();
        return;
    }
    const QByteArray incoming = m_socket->readAll();
    if (m_state == State::Streaming) {
        return; // an event stream's viewer has nothing more to say
    }
    if (m_buffer.size() + incoming.size() > 2 * m_limits.max_head_bytes) {
        answerMalformed(
            431, QStringLiteral("the request head is over %1 bytes").arg(m_limits.max_head_bytes));
        return;
    }
    m_buffer += incoming;
    processBuffered();
}

void ViewerConnection::processBuffered() {
    if (m_state != State::ReadingHead || m_buffer.isEmpty()) {
        return;
    }
    qsizetype end = m_buffer.indexOf("\r\n\r\n");
    qsizetype terminator = 4;
    if (end < 0) {
        end = m_buffer.indexOf("\n\n");
        terminator = 2;
    }
    if (end < 0) {
        if (m_buffer.size() > m_limits.max_head_bytes) {
            answerMalformed(
                431,
                QStringLiteral("the request head is over %1 bytes").arg(m_limits.max_head_bytes));
        } else if (!m_head_started.isValid()) {
            m_head_started.start();
        }
        return;
    }
    if (end > m_limits.max_head_bytes) {
        answerMalformed(
            431, QStringLiteral("the request head is over %1 bytes").arg(m_limits.max_head_bytes));
        return;
    }
    const QByteArray head = m_buffer.left(end + terminator);
    m_buffer.remove(0, end + terminator);
    m_head_started.invalidate();
    QString error;
    int status = 400;
    const auto request = parseHttpRequestHead(head, &error, &status);
    if (!request) {
        answerMalformed(status, error);
        return;
    }
    m_keep_alive = request->keep_alive;
    m_head_only = request->head_only();
    m_state = State::Handling;
    m_idle.restart();
    emit requestReady(this, *request);
}

void ViewerConnection::answerMalformed(int status, const QString& why) {
    m_state = State::Handling;
    m_keep_alive = false;
    m_head_only = false;
    HttpResponse response;
    response.status = status;
    response.body = why.toUtf8() + '\n';
    respond(response);
}

void ViewerConnection::respond(const HttpResponse& response) {
    if (m_state != State::Handling) {
        return;
    }
    if (response.close_connection) {
        m_keep_alive = false;
    }
    QByteArray head = "HTTP/1.1 " + QByteArray::number(response.status) + ' ' +
                      reasonPhrase(response.status) + "\r\n";
    head += "Content-Type: " + response.content_type + "\r\n";
    head += "Content-Length: " + QByteArray::number(response.body.size()) + "\r\n";
    head += "Cache-Control: " + response.cache_control + "\r\n";
    head += "X-Content-Type-Options: nosniff\r\n";
    for (const auto& [name, value] : response.extra_headers) {
        head += name + ": " + value + "\r\n";
    }
    head += m_keep_alive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
    if (!write(m_head_only ? head : head + response.body)) {
        return;
    }
    m_idle.restart();
    if (!m_keep_alive) {
        m_state = State::Closing;
        m_close_reason = QStringLiteral("answered, not kept alive");
        m_socket->disconnectFromHost(); // after the queued bytes are sent; then disconnected()
        return;
    }
    m_state = State::ReadingHead;
    processBuffered();
}

void ViewerConnection::startEventStream() {
    if (m_state != State::Handling) {
        return;
    }
    m_state = State::Streaming;
    // No length: the stream lasts until either side closes. X-Accel-Buffering asks a proxy
    // (nginx) in front to pass events on at once instead of buffering them.
    write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
          "Cache-Control: no-store\r\nX-Accel-Buffering: no\r\nConnection: close\r\n\r\n");
}

bool ViewerConnection::sendStreamBytes(const QByteArray& bytes) {
    return m_state == State::Streaming && write(bytes);
}

bool ViewerConnection::write(const QByteArray& bytes) {
    if (m_socket->bytesToWrite() == 0) {
        m_write_progress.restart(); // the clock runs only while something waits to be taken
    }
    if (m_socket->bytesToWrite() + bytes.size() > m_limits.max_pending_bytes) {
        close(QStringLiteral("dropped: over %1 bytes unsent (the viewer is not reading)")
                  .arg(m_limits.max_pending_bytes));
        return false;
    }
    m_socket->write(bytes);
    return true;
}

void ViewerConnection::close(const QString& why) {
    if (m_closed) {
        return;
    }
    m_closed = true;
    if (m_close_reason.isEmpty()) {
        m_close_reason = why;
    }
    m_state = State::Closing;
    if (m_socket->state() != QAbstractSocket::UnconnectedState) {
        m_socket->abort(); // drops unsent bytes at once: a dropped viewer costs nothing more
    }
    emit closed(this);
}

void ViewerConnection::checkTimeouts() {
    if (m_closed) {
        return;
    }
    if (m_socket->bytesToWrite() > 0 &&
        m_write_progress.elapsed() > m_limits.stalled_write_timeout_ms) {
        close(QStringLiteral("dropped: took no byte for %1 s")
                  .arg(m_limits.stalled_write_timeout_ms / 1000));
    } else if (m_head_started.isValid() && m_head_started.elapsed() > m_limits.head_timeout_ms) {
        close(QStringLiteral("dropped: its request head took over %1 s")
                  .arg(m_limits.head_timeout_ms / 1000));
    } else if (m_state == State::ReadingHead && m_buffer.isEmpty() &&
               m_socket->bytesToWrite() == 0 && m_idle.elapsed() > m_limits.idle_timeout_ms) {
        close(QStringLiteral("idle for %1 s").arg(m_limits.idle_timeout_ms / 1000));
    }
}

} // namespace lbm::broadcast
