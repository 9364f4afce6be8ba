#include "app/media/recorder.h"

#include <QDir>
#include <QFileInfo>

#include <cerrno>
#include <cstring>

namespace lbm::media {
namespace {

QString fixFor(QFileDevice::FileError error, const QString& path) {
    const QString directory = QFileInfo(path).absolutePath();
    switch (error) {
    case QFileDevice::ResourceError:
    case QFileDevice::WriteError:
        return QStringLiteral("free some disk space or record to another disk");
    case QFileDevice::OpenError:
    case QFileDevice::PermissionsError:
        if (!QFileInfo::exists(directory)) {
            return QStringLiteral("the directory %1 does not exist; create it or choose another "
                                  "path")
                .arg(QDir::toNativeSeparators(directory));
        }
        return QStringLiteral("choose a path in a directory you can write to");
    default:
        return QStringLiteral("check the disk and choose another path if the problem stays");
    }
}

} // namespace

Recorder::~Recorder() {
    close();
}

bool Recorder::open(const QString& path) {
    close();
    m_error.clear();
    m_bytes_written = 0;
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        m_error = QStringLiteral("Cannot create the recording %1: %2; %3.")
                      .arg(QDir::toNativeSeparators(path), m_file.errorString(),
                           fixFor(m_file.error(), path));
        return false;
    }
    return true;
}

bool Recorder::append(const QByteArray& bytes) {
    if (!m_error.isEmpty()) {
        return false;
    }
    if (!m_file.isOpen()) {
        m_error = QStringLiteral("The recording is not open; call open() with a .m4s path first.");
        return false;
    }
    errno = 0;
    const qint64 written = m_file.write(bytes);
    // A short write (the disk filled up) sets no QFile error; errno still says why.
    const int write_errno = errno;
    // QFile buffers; flushing each chunk is what makes a crash lose at most the chunk in
    // flight. (No fsync: the OS keeps the data if only the process dies.)
    const bool flushed = written == bytes.size() && m_file.flush();
    if (!flushed) {
        const bool qt_knows = m_file.error() != QFileDevice::NoError || write_errno == 0;
        m_error = QStringLiteral("Cannot write to the recording %1 after %2 bytes: %3; %4.")
                      .arg(QDir::toNativeSeparators(m_file.fileName()))
                      .arg(m_bytes_written)
                      .arg(qt_knows ? m_file.errorString()
                                    : QString::fromLocal8Bit(std::strerror(write_errno)),
                           fixFor(qt_knows ? m_file.error() : QFileDevice::WriteError,
                                  m_file.fileName()));
        return false;
    }
    m_bytes_written += written;
    return true;
}

void Recorder::close() {
    if (m_file.isOpen()) {
        m_file.close();
    }
}

} // namespace lbm::media
