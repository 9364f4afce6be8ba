#include "app/broadcast/broadcaster.h"

#include "app/broadcast/engine_feed.h"
#include "app/engine/session_engine.h"

#include <QNetworkInterface>
#include <QRandomGenerator>

namespace lbm::broadcast {
namespace {

// 128 bits from the system's cryptographic source, as 32 hex digits.
QByteArray freshToken() {
    std::array<quint32, 4> words{};
    QRandomGenerator::system()->fillRange(words.data(), words.size());
    QByteArray bytes(reinterpret_cast<const char*>(words.data()), sizeof(words));
    return bytes.toHex();
}

QString hostForUrl(const QHostAddress& address) {
    QHostAddress host = address;
    if (address == QHostAddress::Any || address == QHostAddress::AnyIPv4 ||
        address == QHostAddress::AnyIPv6) {
        host = QHostAddress(QHostAddress::LocalHost);
        for (const QHostAddress& candidate : QNetworkInterface::allAddresses()) {
            if (!candidate.isLoopback() && candidate.protocol() == QAbstractSocket::IPv4Protocol) {
                host = candidate;
                break;
            }
        }
    }
    return host.protocol() == QAbstractSocket::IPv6Protocol
               ? QStringLiteral("[%1]").arg(host.toString())
               : host.toString();
}

} // namespace

Broadcaster::Broadcaster(QObject* parent)
    : QObject(parent) {
    qRegisterMetaType<BroadcastStats>();
    qRegisterMetaType<FeedEvent>();
    // The STALLED line counts seconds; between chunks the feed says so once a second.
    m_state_timer.setInterval(1000);
    connect(&m_state_timer, &QTimer::timeout, this, &Broadcaster::publishState);
}

Broadcaster::~Broadcaster() {
    stop();
}

bool Broadcaster::start(const BroadcastSettings& settings, QString* error) {
    stop();
    m_token = freshToken();
    m_thread.setObjectName(QStringLiteral("lbm-broadcast"));
    m_thread.start();
    m_server = new BroadcastServer(settings, m_token);
    m_server->moveToThread(&m_thread);
    connect(m_server, &BroadcastServer::statsChanged, this, [this](const BroadcastStats& stats) {
        m_stats = stats;
        emit statsChanged(stats);
    });
    connect(m_server, &BroadcastServer::problem, this, &Broadcaster::problem);
    bool listening = false;
    QMetaObject::invokeMethod(
        m_server, [&] { listening = m_server->listen(error); }, Qt::BlockingQueuedConnection);
    if (!listening) {
        stop();
        return false;
    }
    QMetaObject::invokeMethod(
        m_server, [&] { m_port = m_server->port(); }, Qt::BlockingQueuedConnection);
    m_address = settings.address;
    m_epoch = 0;
    m_session_open = false;
    m_state_timer.start();
    if (m_engine) {
        publishState();
    }
    return true;
}

void Broadcaster::stop() {
    m_state_timer.stop();
    if (m_server) {
        BroadcastServer* server = m_server;
        m_server = nullptr;
        QMetaObject::invokeMethod(
            server, [server] { delete server; }, Qt::BlockingQueuedConnection);
    }
    m_thread.quit();
    m_thread.wait();
    m_stats = {};
}

void Broadcaster::post(std::function<void(BroadcastServer&)> call) {
    if (m_server) {
        BroadcastServer* server = m_server;
        QMetaObject::invokeMethod(
            server, [server, call = std::move(call)] { call(*server); }, Qt::QueuedConnection);
    }
}

void Broadcaster::attach(engine::SessionEngine* engine) {
    for (const QMetaObject::Connection& connection : m_engine_connections) {
        disconnect(connection);
    }
    m_engine_connections.clear();
    m_engine = engine;
    if (!engine) {
        return;
    }
    using engine::SessionEngine;
    m_engine_connections << connect(engine, &SessionEngine::payloadLanded, this,
                                    &Broadcaster::onPayload);
    m_engine_connections << connect(engine, &SessionEngine::stateChanged, this,
                                    [this](session::SessionState state) {
                                        // A new session begins here, so the feed has its
                                        // interactions and its failure even before a chunk.
                                        if (state == session::SessionState::Connecting) {
                                            beginSession();
                                        }
                                        publishState();
                                    });
    m_engine_connections << connect(
        engine, &SessionEngine::chunkLanded, this,
        [this](const ChunkRecord& record, double stall_ms) {
            if (m_session_open) {
                const FeedEvent event = chunkFeedEvent(*m_engine, record, stall_ms);
                post([event](BroadcastServer& server) { server.publish(event); });
                publishState();
            }
        });
    m_engine_connections << connect(
        engine, &SessionEngine::timelineChanged, this,
        [this](const session::TimelineEvent& event, const session::InteractionRecord& record) {
            if (!m_session_open || event.type == session::TimelineEventType::Active ||
                event.type == session::TimelineEventType::SessionEnded) {
                return;
            }
            const FeedEvent feed = interactionFeedEvent(record, event.t_s);
            post([feed](BroadcastServer& server) { server.publish(feed); });
        });
    m_engine_connections << connect(engine, &SessionEngine::finished, this, [this] {
        if (m_session_open) {
            post([](BroadcastServer& server) { server.endSession(); });
        }
        m_session_open =
            false; // the next session begins anew (at Connecting, or its first payload)
        publishState();
    });
}

void Broadcaster::beginSession() {
    ++m_epoch;
    m_session_open = true;
    const QString recording =
        m_engine->recordingError().isEmpty() ? m_engine->recordingPath() : QString();
    const FeedEvent event = sessionFeedEvent(*m_engine, m_epoch);
    post([recording, event](BroadcastServer& server) {
        server.beginSession(recording);
        server.publish(event);
    });
}

void Broadcaster::onPayload(const session::ChunkEvent& chunk) {
    if (!m_server || !m_engine) {
        return;
    }
    if (!m_session_open) {
        beginSession();
    }
    PayloadInfo info;
    info.trailer = chunk.isTrailer();
    info.generation_chunk = chunk.generationChunkIndex();
    info.num_frames = chunk.numFrames();
    // The bytes are implicitly shared with the engine's event: handing them over copies nothing.
    const QByteArray bytes = chunk.bytes();
    post([info, bytes](BroadcastServer& server) { server.addPayload(info, bytes); });
}

void Broadcaster::publishState() {
    if (!m_server || !m_engine) {
        return;
    }
    const FeedEvent event = stateFeedEvent(*m_engine, m_stats.viewers);
    post([event](BroadcastServer& server) { server.publish(event); });
}

QUrl Broadcaster::viewerUrl() const {
    if (!m_server) {
        return {};
    }
    return QUrl(QStringLiteral("http://%1:%2/%3/")
                    .arg(hostForUrl(m_address))
                    .arg(m_port)
                    .arg(QString::fromLatin1(m_token)));
}

QUrl Broadcaster::playlistUrl() const {
    return m_server ? viewerUrl().resolved(QUrl(QStringLiteral("live.m3u8"))) : QUrl();
}

} // namespace lbm::broadcast
