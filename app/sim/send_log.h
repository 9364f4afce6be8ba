#pragma once
// The simulator's JSON-lines send log (`--log FILE`): one line per message sent, with the
// server's steady time, so a client's measurements can be checked against the truth.
// Appended as it goes (a log, not a document), flushed per line.

#include <QFile>
#include <QJsonObject>
#include <QString>

namespace lbm::sim {

class SendLog {
public:
    // Empty path: logging off. Returns false (and sets error) when the file cannot open.
    bool open(const QString& path, QString* error);
    bool isOpen() const { return m_file.isOpen(); }
    // Writes entry plus "session" and "t_ns"/"t_ms": steady time since the connection was
    // accepted (session.start arrives on that clock too; video.start is the first entry).
    void record(int session_id, qint64 t_ns, QJsonObject entry);

private:
    QFile m_file;
};

} // namespace lbm::sim
