#pragma once
// The stalls a viewer of the playback clock really had: every time the next frame was due
// and not there. Shown next to the playback simulator's prediction, which differs because
// the server's muxer delivers a chunk's last frame only with the next chunk.

#include <QJsonObject>

namespace lbm::playback {

struct PlaybackStalls {
    int count = 0;
    // Finished stalls plus the one in progress, if any.
    double total_s = 0.0;
    double longest_s = 0.0;
    // Length so far of the stall in progress; 0 when playing.
    double ongoing_s = 0.0;
};

// The session document's "observed_player_stalls": what the window's player really had.
inline QJsonObject observedStallsJson(const PlaybackStalls& stalls) {
    return QJsonObject{{QStringLiteral("count"), stalls.count},
                       {QStringLiteral("total_ms"), stalls.total_s * 1000.0},
                       {QStringLiteral("longest_ms"), stalls.longest_s * 1000.0}};
}

} // namespace lbm::playback
