#include "ui/session_status.h"

#include "app/session/session_notes.h"
#include "ui/duration_text.h"

#include <QCoreApplication>
#include <QDir>

namespace lbm::ui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("SessionStatus", text);
}

// The window's one duration style (ui/duration_text.h), from seconds.
QString seconds(double value) {
    return durationText(value * 1000.0);
}

} // namespace

QString chunkCount(qint64 chunks) {
    return chunks == 1 ? tr("1 chunk") : tr("%1 chunks").arg(chunks);
}

QString windowTitleFor(const SessionPicture& picture) {
    const QString app = tr("LingBot Live Monitor");
    using lbm::session::SessionState;
    switch (picture.state) {
    case SessionState::Idle:
        return app;
    case SessionState::Connecting:
        return tr("connecting… — %1").arg(app);
    case SessionState::Stopping:
        return tr("stopping… — %1").arg(app);
    case SessionState::Finished:
        if (picture.result && picture.result->ok) {
            return tr("finished: %1 — %2").arg(chunkCount(picture.chunks_received), app);
        }
        if (picture.result && picture.result->stop_requested) {
            return tr("stopped after %1 — %2").arg(chunkCount(picture.chunks_received), app);
        }
        return tr("FAILED after %1 — %2").arg(chunkCount(picture.chunks_received), app);
    case SessionState::Streaming:
        break;
    }
    if (picture.wait && picture.wait->late()) {
        return tr("STALLED: waiting for chunk %1 — %2 — %3")
            .arg(picture.wait->awaited_chunk)
            .arg(seconds(picture.wait->waited_s), app);
    }
    return tr("streaming chunk %1/%2 — %3")
        .arg(picture.chunks_received)
        .arg(picture.chunks_expected)
        .arg(app);
}

std::optional<QString> stallBannerFor(const SessionPicture& picture) {
    if (picture.state != lbm::session::SessionState::Streaming || !picture.wait ||
        !picture.wait->late()) {
        return std::nullopt;
    }
    const StreamWait& wait = *picture.wait;
    QString text = tr("Waiting for chunk %1 — %2 (deadline %3).")
                       .arg(wait.awaited_chunk)
                       .arg(seconds(wait.waited_s), seconds(*wait.deadline_s));
    if (wait.awaited_chunk > 0) {
        // The timeout's own figure: "the chunk timeout" alone read as imminent at 0.8 s.
        text += QLatin1Char(' ') +
                (wait.timeout_s ? tr("Nothing has arrived since chunk %1; the session ends after "
                                     "%2 of silence (the chunk timeout).")
                                      .arg(wait.awaited_chunk - 1)
                                      .arg(seconds(*wait.timeout_s))
                                : tr("Nothing has arrived since chunk %1; the session ends if the "
                                     "silence reaches the chunk timeout.")
                                      .arg(wait.awaited_chunk - 1));
    }
    return text;
}

QString endedWord(const lbm::session::SessionResult& result) {
    return result.ok ? tr("finished") : result.stop_requested ? tr("stopped") : tr("failed");
}

QString finishedStatusFor(const lbm::session::SessionResult& result) {
    const QString chunks = chunkCount(static_cast<qint64>(result.records.size()));
    if (result.ok) {
        return tr("Session finished: %1 in %2.").arg(chunks, seconds(result.wall_s));
    }
    if (result.stop_requested) {
        return tr("Session stopped after %1.").arg(chunks);
    }
    return tr("Session ended after %1: %2").arg(chunks, lbm::session::failureForPeople(result));
}

QString displayedFolder(const QString& folder) {
    const QString home = QDir::homePath();
    QString shown = folder;
    if (!folder.isEmpty() && home != QDir::rootPath() &&
        (folder == home || folder.startsWith(home + QLatin1Char('/')))) {
        shown = QLatin1Char('~') + folder.mid(home.size());
    }
    return QDir::toNativeSeparators(shown);
}

QString liveStatusFor(const QString& endpoint, const QString& folder) {
    return tr("Session on %1, kept in %2.").arg(endpoint, displayedFolder(folder));
}

QString keptInFor(const QString& folder) {
    return tr("Kept in %1.").arg(displayedFolder(folder));
}

} // namespace lbm::ui
