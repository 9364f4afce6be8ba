#pragma once
// Where the window keeps every session without asking: one folder per session under
// $XDG_DATA_HOME/lingbot-monitor/sessions/ (Qt's GenericDataLocation), named
// "<UTC start time>_<request id>", holding the raw stream as it arrived (stream.m4s) and the
// session document (session.json, rewritten as the session goes). The folder is made when the
// session starts, before anything is received, and renamed to carry the request id once
// video.start names it; the oldest folders beyond the retention count are removed.

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace lbm::engine {

struct ArchivedSession {
    QString folder; // absolute path
    QDateTime started_utc;
    QString request_id; // empty until video.start named it

    QString recordingPath() const { return folder + QStringLiteral("/stream.m4s"); }
    QString documentPath() const { return folder + QStringLiteral("/session.json"); }
    // "2026-12-03 13:05:22 UTC · video_stream-3f2a…" for menus.
    QString title() const;
};

class SessionArchive {
public:
    // $XDG_DATA_HOME/lingbot-monitor/sessions (~/.local/share/lingbot-monitor/sessions).
    static QString defaultRoot();
    static constexpr int kDefaultKeep = 50;

    explicit SessionArchive(QString root = defaultRoot());
    const QString& root() const { return m_root; }

    // A folder for a session starting now. nullopt with *error naming the folder and the
    // reason when it cannot be made.
    std::optional<ArchivedSession> create(QString* error,
                                          const QDateTime& now = QDateTime::currentDateTimeUtc());
    // Renames session's folder to carry request_id (characters unsafe in a file name become
    // '_'). False (session unchanged) when the rename fails; the session is still kept.
    bool nameAfter(ArchivedSession& session, const QString& request_id);
    // Every kept session, newest first.
    QList<ArchivedSession> list() const;
    // Removes the oldest folders beyond keep, never `in_use`. Returns how many were removed.
    int prune(int keep, const QString& in_use = QString());

private:
    QString m_root;
};

} // namespace lbm::engine
