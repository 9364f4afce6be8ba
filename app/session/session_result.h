#pragma once
// How one session ended and what it measured: the benchmark's SessionResult plus the reason
// a failed session failed. A failed session still carries every chunk received before the
// failure, so a partial document can be written.

#include "metrics/chunk_record.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>
#include <vector>

namespace lbm::session {

struct SessionResult {
    bool ok = false;
    // One line; the benchmark's wording where it has one ("No media chunk for 300 s after 4
    // chunk(s); ...", "Server rejected the session after ..."), "The server refused the
    // session: <its text> <what to do>" for a refusal before any chunk. Empty when ok.
    QString error;
    // The server's own text when its error message ended the session (quoted in error).
    std::optional<QString> server_error;
    // True when SessionClient::stop() was called (the stopped-session error is then expected).
    bool stop_requested = false;

    std::optional<QString> request_id;
    std::optional<double> video_start_s; // video.start's arrival on the session clock
    std::optional<double> ttfc_s;        // chunk 0's arrival
    // Until session.done (or, for a failed session, until the failure).
    double wall_s = 0.0;
    // The media chunks in arrival order, as the benchmark records them.
    std::vector<ChunkRecord> records;
    QJsonObject done_event; // empty without session.done
    long long expected_chunks = 0;
    long long expected_frames = 0;

    bool trailer_received = false;
    qint64 media_bytes = 0;   // sum of media chunk payloads
    qint64 trailer_bytes = 0; // the trailer's payload
    int pings_sent = 0;
    int pongs_received = 0;
    // Things that did not end the session but deserve a line (unknown message types, a
    // control loop that stopped answering, ...).
    QStringList warnings;
    // Media chunks the server sent with generation_chunk_index null (vLLM-Omni does for a
    // one-chunk session), numbered by their position: the positions.
    QList<qint64> chunks_numbered_by_position;
    // When the oldest unanswered session.ping was sent, if the server stopped answering pings
    // while chunks kept coming (its control loop had ended).
    std::optional<double> control_loop_silent_since_s;
};

} // namespace lbm::session

Q_DECLARE_METATYPE(lbm::session::SessionResult)
