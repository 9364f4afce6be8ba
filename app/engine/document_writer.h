#pragma once
// Writes session documents as a session goes, off the caller's thread: each write replaces the
// file atomically (report::writeSessionDocument), and while one is being written only the
// newest waiting document is kept, so a burst of chunks costs one write and the file on disk
// is never older than the last write that finished nor ever half written.

#include "app/report/session_document.h"

#include <QString>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

namespace lbm::engine {

class DocumentWriter {
public:
    DocumentWriter();
    // Finishes the waiting write (what is on disk is what the caller last asked for).
    ~DocumentWriter();
    DocumentWriter(const DocumentWriter&) = delete;
    DocumentWriter& operator=(const DocumentWriter&) = delete;

    // Queues document for path (replacing a waiting one). Never blocks on the disk.
    void write(const report::SessionDocument& document, const QString& path);
    // Waits until every queued document is on disk (or timeout_ms passed); true when done.
    bool flush(int timeout_ms);
    // The last write's failure ("Cannot write ...: No space left on device"), or empty.
    QString lastError() const;
    int writesDone() const;
    // How long the last write took on the writer's thread (serialising and replacing the
    // file), in nanoseconds; 0 before the first.
    qint64 lastWriteNs() const;

private:
    void run();

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_idle;
    std::optional<std::pair<report::SessionDocument, QString>> m_waiting;
    bool m_busy = false;
    bool m_stopping = false;
    QString m_error;
    int m_writes = 0;
    qint64 m_last_write_ns = 0;
    std::thread m_thread; // last: starts once the rest exists
};

} // namespace lbm::engine
