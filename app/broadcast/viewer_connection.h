#pragma once
// One viewer's TCP connection to the broadcast server: reads request heads (bounded in size
// and time), writes responses with keep-alive, or holds an event stream open. It protects the
// session from the viewer: a head that trickles in (slowloris), a viewer that stops reading
// (its unsent bytes over a cap, or no progress for a while) or that holds an idle connection
// is dropped, and nothing a viewer does blocks the thread, let alone the engine's.

#include "app/broadcast/http_request.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QObject>
#include <QString>

class QTcpSocket;

namespace lbm::broadcast {

struct ConnectionLimits {
    qint64 max_head_bytes = 8 * 1024;
    int head_timeout_ms = 10'000; // a request head must arrive whole within this
    int idle_timeout_ms = 30'000; // keep-alive without a request
    // Unsent bytes a viewer may have queued (a few segments). Past it, or with no byte taken
    // for stalled_write_timeout_ms, the viewer is dropped.
    qint64 max_pending_bytes = 4 * 1024 * 1024;
    int stalled_write_timeout_ms = 10'000;
};

struct HttpResponse {
    int status = 200;
    QByteArray content_type = "text/plain; charset=utf-8";
    QByteArray cache_control = "no-store";
    QByteArray body;
    QList<std::pair<QByteArray, QByteArray>> extra_headers;
    bool close_connection = false; // answered with Connection: close, then closed
    void addHeader(const QByteArray& name, const QByteArray& value) {
        extra_headers.append(std::make_pair(name, value));
    }
};

class ViewerConnection : public QObject {
    Q_OBJECT
public:
    ViewerConnection(QTcpSocket* socket, const ConnectionLimits& limits, QObject* parent);
    ~ViewerConnection() override;

    QHostAddress peerAddress() const { return m_peer; }
    bool eventStream() const { return m_state == State::Streaming; }
    bool closing() const { return m_state == State::Closing; }
    bool isClosed() const { return m_closed; }

    // Answers the request being handled; the next one is read after it (keep-alive).
    void respond(const HttpResponse& response);
    // Turns the connection into a server-sent event stream (text/event-stream).
    void startEventStream();
    // Bytes for the event stream; false when the viewer was dropped for not reading.
    bool sendStreamBytes(const QByteArray& bytes);
    void close(const QString& why);
    // Drops the viewer when a limit ran out; called about four times a second.
    void checkTimeouts();
    QString closeReason() const { return m_close_reason; }

signals:
    void requestReady(lbm::broadcast::ViewerConnection* connection,
                      const lbm::broadcast::HttpRequest& request);
    void closed(lbm::broadcast::ViewerConnection* connection);

private:
    enum class State { ReadingHead, Handling, Streaming, Closing };
    void onReadyRead();
    void processBuffered();
    bool write(const QByteArray& bytes);
    void answerMalformed(int status, const QString& why);

    QTcpSocket* m_socket;
    ConnectionLimits m_limits;
    QHostAddress m_peer;
    State m_state = State::ReadingHead;
    QByteArray m_buffer;
    bool m_keep_alive = true;
    bool m_head_only = false;
    QElapsedTimer m_head_started; // valid while a head is partly read
    QElapsedTimer m_idle;         // since the last request or response
    QElapsedTimer m_write_progress;
    QString m_close_reason;
    bool m_closed = false;
};

} // namespace lbm::broadcast
