#include "app/session/pong_watch.h"

namespace lbm::session {

std::optional<double> PongWatch::silentSince(double now_s) const {
    // Pongs answer pings in order, so the first unanswered ping is the one after the pongs.
    if (m_pongs >= m_ping_times.size()) {
        return std::nullopt;
    }
    const double sent_s = m_ping_times.at(m_pongs);
    if (now_s - sent_s < kGraceS || !m_last_chunk_s || *m_last_chunk_s <= sent_s) {
        return std::nullopt;
    }
    return sent_s;
}

} // namespace lbm::session
