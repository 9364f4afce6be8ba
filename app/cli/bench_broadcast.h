#pragma once
// `bench --broadcast [ADDR:]PORT`: the run's sessions republished as LL-HLS for browsers while
// they stream, then the finished session served for --broadcast-linger seconds.

#include "app/broadcast/broadcaster.h"

#include <QString>

#include <optional>

namespace lbm::engine {
class SessionEngine;
}

namespace lbm::cli {

class BenchBroadcast {
public:
    // Starts broadcasting engine's sessions when address is set; false with *error when the
    // address is malformed or cannot be listened on (nothing is then running).
    bool start(const std::optional<QString>& address, engine::SessionEngine& engine,
               QString* error);
    bool running() const { return m_broadcaster.running(); }
    QUrl viewerUrl() const { return m_broadcaster.viewerUrl(); }
    QUrl playlistUrl() const { return m_broadcaster.playlistUrl(); }
    // Serves the finished session for linger_s seconds (the event loop runs meanwhile), then
    // stops; returns what the viewers did, for a closing line.
    broadcast::BroadcastStats linger(double linger_s);

private:
    broadcast::Broadcaster m_broadcaster;
    int m_most_viewers = 0;
};

} // namespace lbm::cli
