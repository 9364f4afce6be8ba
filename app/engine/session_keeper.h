#pragma once
// Keeps every session the window runs, without asking: a folder in the session archive made
// as the session starts (the recording goes there from its first byte), renamed after the
// request id, and a session document beside it rewritten after every chunk and marked
// incomplete until the session ends (then complete, or why not: failed, stopped,
// interrupted). So quitting, a crash or a pulled plug leaves the stream and a document that
// `lingbot-monitor report` reads. Old sessions beyond the retention count are pruned.

#include "app/engine/document_writer.h"
#include "app/engine/session_archive.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <functional>
#include <optional>

namespace lbm::engine {

class SessionEngine;
struct EngineSettings;

class SessionKeeper : public QObject {
    Q_OBJECT
public:
    explicit SessionKeeper(SessionEngine* engine, QString root = SessionArchive::defaultRoot(),
                           QObject* parent = nullptr);

    // Views add what only they know (the player's observed stalls) to each document.
    void setViewExtras(std::function<QJsonObject()> extras) { m_view_extras = std::move(extras); }
    void setKeep(int sessions) { m_keep = sessions; }
    int keep() const { return m_keep; }

    // Makes the folder of a session about to start and points settings' recording there.
    // False with *error (the archive cannot be written).
    bool prepare(EngineSettings& settings, QString* error);
    // Writes the document now, marked interrupted with reason when the session is still
    // running; waits up to timeout_ms for it to reach the disk.
    bool finalize(const QString& interrupted_reason, int timeout_ms);

    const std::optional<ArchivedSession>& current() const { return m_current; }
    QList<ArchivedSession> recent() const { return m_archive.list(); }
    const SessionArchive& archive() const { return m_archive; }
    DocumentWriter& writer() { return m_writer; }

signals:
    // The document of the current session was queued for writing.
    void documentQueued();

private:
    void writeDocument(const QString& interrupted_reason = QString());

    QPointer<SessionEngine> m_engine;
    SessionArchive m_archive;
    DocumentWriter m_writer;
    std::optional<ArchivedSession> m_current;
    std::function<QJsonObject()> m_view_extras;
    int m_keep = SessionArchive::kDefaultKeep;
};

} // namespace lbm::engine
