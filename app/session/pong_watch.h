#pragma once
// Notices a server whose control loop has stopped while its generation goes on: pings go
// unanswered yet chunks keep arriving. vLLM-Omni's handler does this after a binary control
// message (the loop dies on it, silently); from then on it also ignores session.stop and
// interactions, and its stall clock no longer runs, which a user should hear about once.

#include <QList>

#include <optional>

namespace lbm::session {

class PongWatch {
public:
    // A live loop answers within milliseconds (or once the chunk being muxed is out).
    static constexpr double kGraceS = 2.0;

    void pingSent(double t_s) { m_ping_times.append(t_s); }
    void pongReceived() { ++m_pongs; }
    void chunkArrived(double t_s) { m_last_chunk_s = t_s; }

    // The send time of the oldest unanswered ping when it has waited kGraceS and a chunk has
    // arrived since it went out; nullopt otherwise.
    std::optional<double> silentSince(double now_s) const;

private:
    QList<double> m_ping_times;
    qsizetype m_pongs = 0;
    std::optional<double> m_last_chunk_s;
};

} // namespace lbm::session
