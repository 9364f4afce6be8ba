#pragma once
// The session's stream bytes for the broadcast: every segment, part and the init segment is a
// byte range of it. The newest bytes are kept in memory; when the session has a recording (the
// engine appends every payload to it before anyone else sees it, so offset N of the stream is
// offset N of the file), bytes older than the memory budget are dropped and read back from the
// recording on demand. The recording stays the source of truth; memory is the live edge's cache.

#include "app/broadcast/ll_hls_playlist.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <memory>
#include <optional>

namespace lbm::broadcast {

class StreamStore {
public:
    // memory_budget_bytes bounds what is kept when a recording backs older bytes.
    explicit StreamStore(qint64 memory_budget_bytes = qint64(64) * 1024 * 1024);

    // The recording the engine writes this session's payloads to (empty: none; then every
    // byte stays in memory). Call before the first append.
    void setRecordingPath(const QString& path);
    void append(const QByteArray& bytes);
    // The recording stopped being written (disk full): nothing more is dropped from memory.
    void recordingFailed() { m_recording_ok = false; }

    qint64 size() const { return m_memory_start + m_memory.size(); }
    // The bytes of range, or nullopt with *error (past the end, or unreadable).
    std::optional<QByteArray> read(const ByteRange& range, QString* error) const;

private:
    qint64 m_memory_budget_bytes;
    QByteArray m_memory;
    qint64 m_memory_start = 0;
    QString m_recording_path;
    bool m_recording_ok = false;
    mutable std::unique_ptr<QFile> m_recording;
};

} // namespace lbm::broadcast
