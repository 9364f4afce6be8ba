#pragma once
// When a simulated session's chunks reach the client: time to first chunk and per-chunk
// intervals of a named profile, with deterministic jitter from the session's seed.
//
//   fast        TTFC 120 ms, 100 ms chunks (tests; render+encode of 12 frames fits)
//   h200-sp4    TTFC ~1.5 s, cost rising over six chunks to ~720 ms, +-2% jitter, a rare
//               +35% spike, a shorter last chunk
//   h200-stock  TTFC ~1.8 s, rising to ~1326 ms
//   single-gpu  TTFC ~2.7 s, ~3.2 s chunks
//   edge        TTFC 1.2 s, chunks alternating just under/over the 750 ms deadline
//   replay:FILE inter_arrival_ms of sessions[0].chunks of a session document (ours or the
//               Python benchmark's); chunks past the recording repeat its last interval
//   fixed:TTFC:INTERVAL  seconds, no jitter: what the real-handler harness's --profile
//               TTFC:INTERVAL does, so the two can be run side by side

#include <QString>

#include <functional>
#include <optional>
#include <vector>

namespace lbm::sim {

class TimingProfile {
public:
    // A replay's intervals in ms (sessions[0].chunks' inter_arrival_ms, chunk 0 = TTFC) read
    // from the session document at path; nullopt with *error naming the file and the
    // problem. Reading documents is report's job, a layer above the simulator, so whoever
    // builds a SimulatorConfig passes one in (engine::readReplayIntervals).
    using ReplayReader =
        std::function<std::optional<std::vector<double>>(const QString& path, QString* error)>;

    // nullopt and error set for an unknown name, or a replay: profile without a reader or
    // whose document the reader refuses.
    static std::optional<TimingProfile> fromName(const QString& name, QString* error,
                                                 const ReplayReader& read_replay = {});
    static QStringList names();

    QString name() const { return m_name; }
    // Emission time of each media chunk in ms after video.start, for a session of
    // chunk_count chunks; the same seed gives the same schedule.
    std::vector<double> emissionTimesMs(int chunk_count, quint64 seed) const;

private:
    QString m_name;
    std::vector<double> m_replay_intervals_ms; // replay and fixed: chunk 0 = TTFC
};

} // namespace lbm::sim
