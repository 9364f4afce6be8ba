#pragma once
// Keeps every session the window runs, without asking: a folder in the session archive made
// as the session starts (the recording goes there from its first byte), renamed after the
// request id, and a session document beside it rewritten as chunks land and marked
// incomplete until the session ends (then complete, or why not: failed, stopped,
// interrupted). A document grows with the session, so rewrites after chunks are spaced to
// keep their cost a small share of a core however long the session gets: at least a second
// apart, and at least 20 times the last rewrite's own time; the session's start and end are
// written at once. So quitting, a crash or a pulled plug leaves the stream and a document that
// `lingbot-monitor report` reads. Old sessions beyond the retention count are pruned.

#include "app/engine/document_writer.h"
#include "app/engine/session_archive.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QTimer>

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
    // Writes the document now, marked interrupted with reason unless reason is empty (give one
    // only when the session was running when the program was told to go); waits up to
    // timeout_ms for it to reach the disk.
    bool finalize(const QString& interrupted_reason, int timeout_ms);

    const std::optional<ArchivedSession>& current() const { return m_current; }
    QList<ArchivedSession> recent() const { return m_archive.list(); }
    const SessionArchive& archive() const { return m_archive; }
    DocumentWriter& writer() { return m_writer; }
    // How long chunk-driven rewrites wait after the last one: a second, or 100 times what the
    // last rewrite cost when that is longer (for tests and the benchmark).
    qint64 rewriteSpacingMs() const;

signals:
    // The document of the current session was queued for writing.
    void documentQueued();

private:
    void writeDocument();
    // After a chunk: now when the spacing allows, else once it does.
    void scheduleWrite();

    QPointer<SessionEngine> m_engine;
    SessionArchive m_archive;
    DocumentWriter m_writer;
    std::optional<ArchivedSession> m_current;
    QString m_interrupted_reason; // the current session's, once finalize() was given one
    std::function<QJsonObject()> m_view_extras;
    int m_keep = SessionArchive::kDefaultKeep;
    QTimer m_spacing;            // a chunk-driven rewrite waiting for its turn
    QElapsedTimer m_since_write; // since the last rewrite was queued
    qint64 m_last_build_ns = 0;  // what assembling the last document took on this thread
};

} // namespace lbm::engine
