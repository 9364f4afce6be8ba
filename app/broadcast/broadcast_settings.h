#pragma once
// How a broadcast is served: where it listens (127.0.0.1 unless an address is given), the
// limits that protect the session from its viewers, and how the stream is cut.

#include "app/broadcast/hls_segmenter.h"
#include "app/broadcast/viewer_connection.h"

#include <QHostAddress>
#include <QString>

#include <optional>

namespace lbm::broadcast {

struct BroadcastSettings {
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 0; // 0: any free port
    // Connections one address may hold (a browser opens up to six, plus the event stream);
    // past it a viewer gets 503.
    int max_connections_per_address = 16;
    int max_connections = 1024;
    ConnectionLimits limits;
    SegmenterSettings segmenter;
    // Stream bytes kept in memory when the recording backs older ones.
    qint64 memory_budget_bytes = qint64(64) * 1024 * 1024;
    // The longest a blocking playlist reload or a preload-hinted part is held before the
    // server answers anyway (a world model's chunk can take seconds).
    int max_block_ms = 10'000;
    // A viewer counts as watching for this long after its last request.
    int viewer_linger_ms = 10'000;
};

// "[ADDR:]PORT" as `bench --broadcast` and the window take it: "8080", "0.0.0.0:8080",
// "[::1]:8080". nullopt with *error naming the problem and the fix.
std::optional<std::pair<QHostAddress, quint16>> parseListenAddress(const QString& text,
                                                                   QString* error);

} // namespace lbm::broadcast
