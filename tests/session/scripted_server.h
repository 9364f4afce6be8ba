#pragma once
// A tiny WebSocket server on 127.0.0.1 whose behaviour each test scripts: it answers pings,
// acknowledges interactions and streams chunks on a timer the way the protocol orders them,
// and lets a test break any rule on purpose. It exercises the client's state machine against
// exact wire sequences; whole sessions with real video run against app/sim's simulator.

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSslConfiguration>
#include <QTimer>
#include <QUrl>
#include <QWebSocket>
#include <QWebSocketServer>

#include <functional>
#include <memory>
#include <optional>

namespace lbm::sim {
class Fmp4Encoder;
}

class ScriptedServer : public QObject {
    Q_OBJECT

public:
    struct Script {
        int chunks = 3;
        int first_chunk_delay_ms = 10;
        int chunk_interval_ms = 10;
        bool send_trailer = true;
        bool send_done = true;
        bool reply_to_ping = true;
        bool ack_interactions = true;
        // Real fMP4 (app/sim's encoder, barcoded frames 0, 1, 2, ...) instead of filler bytes,
        // for tests that decode or remux what they received.
        bool real_video = false;
        // Called before chunk n is sent; return false to stop the stream there (the hook
        // may misbehave on the socket itself).
        std::function<bool(QWebSocket* socket, int chunk)> before_chunk;
        // Serve wss:// with this certificate and key instead of plain ws://.
        std::optional<QSslConfiguration> tls;
    };

    explicit ScriptedServer(Script script);
    ~ScriptedServer() override;

    QUrl url() const;
    // Every text message the client sent, parsed, in order.
    const QList<QJsonObject>& received() const { return m_received; }
    QList<QJsonObject> receivedOfType(const QString& type) const;
    // The chunk whose metadata listed this interaction as started, if one did. That depends on
    // when the interaction arrived relative to the chunk timer, so tests compare the client's
    // timeline with this rather than with a chunk index fixed in advance.
    std::optional<int> startedChunkOf(const QString& event_id) const;

    static void sendJson(QWebSocket* socket, const QJsonObject& object);
    static QJsonObject metadata(int index, qint64 byte_length, const QStringList& started = {},
                                const QStringList& completed = {});

private:
    void onNewConnection();
    void onText(QWebSocket* socket, const QString& text);
    void sendNext(QWebSocket* socket);

    Script m_script;
    QWebSocketServer m_server;
    QPointer<QWebSocket> m_socket;
    QList<QJsonObject> m_received;
    QTimer m_timer;
    int m_next_chunk = 0;
    QStringList m_pending_started;
    QHash<QString, int> m_started_chunk;
    std::unique_ptr<lbm::sim::Fmp4Encoder> m_encoder;
    qint64 m_frames_encoded = 0;
    QByteArray chunkBytes(int index);
    QByteArray trailerBytes();
};
