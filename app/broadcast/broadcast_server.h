#pragma once
// The broadcast's embedded HTTP/1.1 server, on a thread of its own (Broadcaster puts it
// there): the viewer page, the LL-HLS playlists and media (from HlsSegmenter and StreamStore),
// blocking playlist reloads and preload-hinted parts held without blocking anything, and the
// live feed as server-sent events. Every path starts with the broadcast's token; a request
// without it is answered 404 and touches nothing else. Read-only: GET and HEAD only.
//
// Why not Qt HttpServer: in Qt 6.4 (a technology preview) a route handler must return its
// response at once, or as a QFuture run on a thread pool, so a blocking reload held for
// seconds would occupy a pool thread per viewer; it has no event streams, no per-address
// limits and no bound on a connection's unsent bytes. Those are the broadcast's job, and a
// small server over QTcpServer does them in one event loop.

#include "app/broadcast/broadcast_settings.h"
#include "app/broadcast/feed_event.h"
#include "app/broadcast/hls_segmenter.h"
#include "app/broadcast/stream_store.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QTimer>

#include <memory>
#include <vector>

class QTcpServer;

namespace lbm::broadcast {

class ViewerConnection;
struct HttpRequest;
struct HttpResponse;

struct BroadcastStats {
    int viewers = 0; // addresses that requested something lately, or hold the feed
    int connections = 0;
    qint64 dropped_viewers = 0;  // connections closed for a limit
    qint64 refused_requests = 0; // no or wrong token, over a limit
    qint64 bytes_sent = 0;
    bool operator==(const BroadcastStats&) const = default;
};

class BroadcastServer : public QObject {
    Q_OBJECT
public:
    BroadcastServer(const BroadcastSettings& settings, const QByteArray& token);
    ~BroadcastServer() override;

    // On the server's thread (Broadcaster invokes these there).
    bool listen(QString* error);
    quint16 port() const;
    void beginSession(const QString& recording_path);
    void addPayload(const lbm::broadcast::PayloadInfo& info, const QByteArray& bytes);
    void endSession();
    void publish(const lbm::broadcast::FeedEvent& event);
    void shutdown();

    BroadcastStats stats() const { return m_stats; }

signals:
    void statsChanged(const lbm::broadcast::BroadcastStats& stats);
    void problem(const QString& text);

private:
    struct HeldRequest {
        QPointer<ViewerConnection> connection;
        QString path;
        qint64 epoch = 0;
        std::optional<qint64> msn;
        std::optional<qint64> part;
        bool playlist = false;
        QElapsedTimer held;
    };

    void onNewConnection();
    void onRequest(ViewerConnection* connection, const HttpRequest& request);
    void onClosed(ViewerConnection* connection);
    void sweep();
    void answerHeld(bool timed_out_only);
    void refuse(ViewerConnection* connection, int status, const QString& why);
    void noteViewer(const ViewerConnection* connection);

    // Routes under /<token>/; false when the request must be held (blocking reload, hint).
    bool route(ViewerConnection* connection, const QString& path, const HttpRequest& request,
               bool timed_out);
    bool routeSession(ViewerConnection* connection, const QString& rest, const HttpRequest& request,
                      bool timed_out);
    HttpResponse mediaPlaylist(bool blocking) const;
    HttpResponse multivariantPlaylist() const;
    HttpResponse startPosition() const;
    HttpResponse mediaBytes(const ByteRange& range) const;
    void startFeed(ViewerConnection* connection);
    void send(ViewerConnection* connection, const HttpResponse& response);

    BroadcastSettings m_settings;
    QByteArray m_token;
    std::unique_ptr<QTcpServer> m_server;
    QTimer m_sweep;
    std::vector<ViewerConnection*> m_connections;
    QHash<QString, int> m_per_address;
    QSet<ViewerConnection*> m_over_limit;  // answered 503 at their first request
    QHash<QString, qint64> m_last_seen_ms; // address -> m_clock ms
    QElapsedTimer m_clock;
    std::vector<HeldRequest> m_held;
    std::vector<QPointer<ViewerConnection>> m_feeds;
    std::vector<QByteArray> m_feed_history;
    QByteArray m_feed_state;

    qint64 m_epoch = 0; // sessions begun; the current one's URLs are under s<epoch>/
    std::unique_ptr<HlsSegmenter> m_segmenter;
    std::unique_ptr<StreamStore> m_store;
    bool m_session_failed = false;
    BroadcastStats m_stats;
    BroadcastStats m_last_reported;
};

} // namespace lbm::broadcast

Q_DECLARE_METATYPE(lbm::broadcast::BroadcastStats)
