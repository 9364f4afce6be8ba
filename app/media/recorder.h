#pragma once
// The raw recording: every chunk's bytes are appended to a .m4s file the moment they arrive
// and handed to the OS at once, so a crash or a dropped connection leaves a partial file
// that still plays (fragmented MP4 needs no index at the end). This is the one file the
// project writes as it goes rather than atomically.

#include <QByteArray>
#include <QFile>
#include <QString>

namespace lbm::media {

class Recorder {
public:
    Recorder() = default;
    ~Recorder();
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    // Creates (or truncates) path. False with errorString() naming the path, the reason and
    // what to do.
    bool open(const QString& path);
    // Writes and flushes bytes. False, with errorString(), when the disk is full or the
    // file became unwritable; later appends keep failing so nothing is silently skipped.
    bool append(const QByteArray& bytes);
    void close();

    bool isOpen() const { return m_file.isOpen(); }
    QString path() const { return m_file.fileName(); }
    qint64 bytesWritten() const { return m_bytes_written; }
    const QString& errorString() const { return m_error; }

private:
    QFile m_file;
    qint64 m_bytes_written = 0;
    QString m_error;
};

} // namespace lbm::media
