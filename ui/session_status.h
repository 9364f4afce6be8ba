#pragma once
// What the window says about the session in words: the window title a presenter sees in the
// taskbar ("streaming chunk 7/40", "STALLED — waiting for chunk 8", "finished", "failed"), the
// stall banner once the next chunk is past its deadline, and the status line when a session
// ends, as sentences with their plurals right.

#include "app/session/session_result.h"
#include "app/session/session_state.h"

#include <QString>

#include <optional>

namespace lbm::ui {

// How long the stream has been waiting for its next chunk.
struct StreamWait {
    qint64 awaited_chunk = 0; // the chunk not yet landed
    double waited_s = 0.0;    // since the previous chunk (or since session.start)
    // The steady chunk deadline; nullopt for the first chunk, which has no deadline (its wait
    // is the TTFC, and a compiled deploy takes minutes for it).
    std::optional<double> deadline_s;
    // The silence after which the session ends (the chunk timeout); nullopt when unknown.
    std::optional<double> timeout_s;

    bool late() const { return deadline_s && waited_s > *deadline_s; }
    // Past 80 % of the deadline: the amber zone.
    bool nearDeadline() const { return deadline_s && waited_s > 0.8 * *deadline_s; }
};

struct SessionPicture {
    lbm::session::SessionState state = lbm::session::SessionState::Idle;
    int chunks_received = 0;
    qint64 chunks_expected = 0;
    std::optional<StreamWait> wait; // set while streaming
    std::optional<lbm::session::SessionResult> result;
};

QString windowTitleFor(const SessionPicture& picture);
// "Waiting for chunk 8 — 12.3 s (deadline 750 ms). Nothing has arrived since chunk 7." once the
// wait is late, else nullopt.
std::optional<QString> stallBannerFor(const SessionPicture& picture);
// The status line once the session ended.
QString finishedStatusFor(const lbm::session::SessionResult& result);
// How it ended in one word, as the counters' state row and their title say it: "finished",
// "stopped" or "failed".
QString endedWord(const lbm::session::SessionResult& result);
// "1 chunk", "5 chunks".
QString chunkCount(qint64 chunks);
// A kept session's folder as the status line says it: the home directory as "~" (as a shell
// prints it, so the part that tells sessions apart survives the line's middle elision), in
// the platform's separators.
QString displayedFolder(const QString& folder);
// "Session on ENDPOINT, kept in FOLDER." while a session runs.
QString liveStatusFor(const QString& endpoint, const QString& folder);
// "Kept in FOLDER." after the session-ended sentence.
QString keptInFor(const QString& folder);

} // namespace lbm::ui
