#pragma once
// The network half of a session: lives on SessionClient's dedicated thread and owns the
// QWebSocket, the keepalive and timeout timers, and the session clock. Every arrival is
// stamped here, in the handler the socket calls when the binary frame is complete, so a busy
// UI thread or a slow decoder cannot move a timestamp. Use it only through SessionClient.

#include "app/protocol/server_message.h"
#include "app/session/chunk_event.h"
#include "app/session/interaction_timeline.h"
#include "app/session/pong_watch.h"
#include "app/session/session_options.h"
#include "app/session/session_result.h"
#include "app/session/session_state.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSslError>
#include <QTimer>
#include <QWebSocket>

#include <optional>
#include <vector>

namespace lbm::session {

class SessionWorker : public QObject {
    Q_OBJECT

public:
    explicit SessionWorker(SessionOptions options);
    ~SessionWorker() override;

    // An interaction on its way to the server: its id, what it is, how the timeline says
    // it, and the message.
    struct PendingInteraction {
        QString event_id;
        InteractionKind kind = InteractionKind::Unknown;
        QString summary;
        QJsonObject message;
        std::optional<int> transition_chunks; // prompts
    };

    // Called on the network thread (SessionClient queues them there with typed calls).
    void begin();
    // Sends now if streaming, after session.start if still connecting; refused (an Error on
    // the timeline) once the session is over.
    void sendInteraction(const PendingInteraction& interaction);
    // Sends right after the media chunk after_chunk lands (at once if it already has), in the
    // same queue as the workload's prompt_updates: the session's one prompt scheduler.
    void scheduleInteraction(const PendingInteraction& interaction, qint64 after_chunk);
    void requestStop();
    // Closes at once; the result says the session was aborted.
    void abort(const QString& reason);

signals:
    void stateChanged(lbm::session::SessionState state);
    void videoStarted(const QString& request_id, double t_s);
    void chunkReceived(const lbm::session::ChunkEvent& chunk);
    void timelineEvent(const lbm::session::TimelineEvent& event);
    void warning(const QString& text);
    void finished(const lbm::session::SessionResult& result);

private:
    void onConnected();
    void onDisconnected();
    QString connectFailure(QAbstractSocket::SocketError error) const;
    void onSocketError(QAbstractSocket::SocketError error);
    void onSslErrors(const QList<QSslError>& errors);
    void onTextMessage(const QString& text);
    void onBinaryMessage(const QByteArray& bytes);
    void onChunkTimeout();
    void onPing();

    void handleMessage(const protocol::ServerMessage& message, double now_s);
    void handleServerError(const protocol::ServerError& error, double now_s);
    void handleSessionDone(const protocol::SessionDone& done, double now_s);
    void acceptMediaChunk(const protocol::ChunkMetadata& metadata, const QByteArray& bytes,
                          double now_s);
    void recordChunkIds(const protocol::ChunkMetadata& metadata, double now_s);
    struct ScheduledInteraction {
        qint64 after_chunk = 0;
        PendingInteraction interaction;
    };

    void insertScheduled(qint64 after_chunk, const PendingInteraction& interaction);
    void fireScheduledUpdates(qint64 chunk_index);
    // Reports, once, a server that answers no ping while chunks keep coming.
    void checkControlLoop(double now_s);
    void transmit(const PendingInteraction& interaction);
    void emitTimeline(TimelineEvent event);
    void armChunkTimeout();
    double nowS() const;

    void setState(SessionState state);
    void succeed(double wall_s);
    void fail(const QString& reason);
    void finish();
    void refusePending(const QString& reason);

    SessionOptions m_options;
    QPointer<QWebSocket> m_socket;
    QTimer* m_connect_timer = nullptr;
    QTimer* m_chunk_timer = nullptr;
    QTimer* m_ping_timer = nullptr;
    QTimer* m_stop_timer = nullptr;
    QElapsedTimer m_clock; // the session clock: started right after session.start is sent
    SessionState m_state = SessionState::Idle;
    bool m_connected = false;
    // The server sent a close frame (Qt reports CloseCodeNormal when none came).
    bool m_peer_closed = false;
    QString m_ssl_problems;

    std::optional<protocol::ChunkMetadata> m_pending_metadata;
    std::optional<double> m_last_arrival_s;
    std::vector<ScheduledInteraction> m_scheduled; // sorted by after_chunk
    std::optional<qint64> m_highest_chunk;         // the highest generation index landed
    QList<PendingInteraction> m_waiting_for_start;
    InteractionTimeline m_timeline;
    // Interactions sent and not yet answered (queued or refused), oldest first: the server's
    // control loop answers in order, and most of its refusals name no event_id.
    QStringList m_awaiting_reply;
    PongWatch m_pong_watch;
    SessionResult m_result;
};

} // namespace lbm::session
