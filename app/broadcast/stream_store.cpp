#include "app/broadcast/stream_store.h"

namespace lbm::broadcast {

StreamStore::StreamStore(qint64 memory_budget_bytes)
    : m_memory_budget_bytes(memory_budget_bytes) {}

void StreamStore::setRecordingPath(const QString& path) {
    m_recording_path = path;
    m_recording.reset();
    m_recording_ok = false;
    if (path.isEmpty()) {
        return;
    }
    // Opened now: the window may rename the session's folder while it streams, and an open
    // file goes on being readable under its new name.
    auto file = std::make_unique<QFile>(path);
    if (file->open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
        m_recording = std::move(file);
        m_recording_ok = true;
    }
}

void StreamStore::append(const QByteArray& bytes) {
    m_memory.append(bytes);
    if (m_recording_ok && m_memory.size() > m_memory_budget_bytes) {
        // Drop in large steps (a quarter of the budget) so the buffer is not shifted per chunk.
        const qint64 drop = m_memory.size() - m_memory_budget_bytes * 3 / 4;
        m_memory.remove(0, drop);
        m_memory_start += drop;
    }
}

std::optional<QByteArray> StreamStore::read(const ByteRange& range, QString* error) const {
    if (range.offset < 0 || range.size_bytes < 0 || range.end() > size()) {
        *error = QStringLiteral("bytes %1-%2 are past the stream's end (%3 bytes)")
                     .arg(range.offset)
                     .arg(range.end())
                     .arg(size());
        return std::nullopt;
    }
    if (range.offset >= m_memory_start) {
        return m_memory.mid(range.offset - m_memory_start, range.size_bytes);
    }
    if (!m_recording) {
        *error =
            QStringLiteral("bytes %1-%2 left memory and there is no recording to read them from")
                .arg(range.offset)
                .arg(range.end());
        return std::nullopt;
    }
    QByteArray bytes;
    if (m_recording->seek(range.offset)) {
        bytes = m_recording->read(range.size_bytes);
    }
    if (bytes.size() != range.size_bytes) {
        *error = QStringLiteral("the recording %1 holds fewer bytes than were broadcast")
                     .arg(m_recording_path);
        return std::nullopt;
    }
    return bytes;
}

} // namespace lbm::broadcast
