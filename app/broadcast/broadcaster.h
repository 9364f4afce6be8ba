#pragma once
// Broadcasts the session engine's sessions as LL-HLS to browsers: what the window's Broadcast
// toggle and `bench --broadcast` start. It runs BroadcastServer on a thread of its own (so no
// viewer can hold up the engine, the recording or the window), hands it each payload's bytes
// as the engine records them (implicitly shared, no copy) and the live feed's events, and
// reports the number of viewers. Lives on the engine's thread.
//
//   Broadcaster broadcast;
//   broadcast.start(settings, &error);   // listens; viewerUrl() is http://HOST:PORT/TOKEN/
//   broadcast.attach(&engine);           // every session of the engine from now on

#include "app/broadcast/broadcast_server.h"
#include "app/broadcast/broadcast_settings.h"
#include "app/session/chunk_event.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QThread>
#include <QTimer>
#include <QUrl>

#include <memory>

namespace lbm::engine {
class SessionEngine;
}

namespace lbm::broadcast {

class Broadcaster : public QObject {
    Q_OBJECT
public:
    explicit Broadcaster(QObject* parent = nullptr);
    ~Broadcaster() override;

    // Listens on settings' address and port with a fresh 128-bit token. False with *error
    // (the port is taken, the address is not this machine's).
    bool start(const BroadcastSettings& settings, QString* error);
    void stop();
    bool running() const { return m_server != nullptr; }

    // Follows engine's sessions (the current one from its next payload). One engine at a time.
    void attach(engine::SessionEngine* engine);

    // http://HOST:PORT/TOKEN/ : the viewer page. HOST is the address listened on, or this
    // machine's first non-loopback address when listening on all of them.
    QUrl viewerUrl() const;
    // The multivariant playlist, for players and ffprobe: viewerUrl() + "live.m3u8".
    QUrl playlistUrl() const;
    QByteArray token() const { return m_token; }
    BroadcastStats stats() const { return m_stats; }

signals:
    void statsChanged(const lbm::broadcast::BroadcastStats& stats);
    void problem(const QString& text);

private:
    void onPayload(const session::ChunkEvent& chunk);
    void beginSession();
    void publishState();
    void post(std::function<void(BroadcastServer&)> call);

    QThread m_thread;
    BroadcastServer* m_server = nullptr; // lives on m_thread; deleted there
    QPointer<engine::SessionEngine> m_engine;
    QList<QMetaObject::Connection> m_engine_connections;
    QByteArray m_token;
    QHostAddress m_address;
    quint16 m_port = 0;
    qint64 m_epoch = 0;
    bool m_session_open = false;
    QTimer m_state_timer;
    BroadcastStats m_stats;
};

} // namespace lbm::broadcast
