#include "app/report/atomic_file.h"

#include "app/report/report_error.h"

#include <QSaveFile>

#include <cerrno>
#include <cstring>

namespace lbm::report {

void writeFileAtomically(const QString& path, const QByteArray& bytes) {
    QSaveFile file(path);
    // Unbuffered: Qt 6.4's buffered QSaveFile::commit() reports success on a full disk and
    // leaves an empty file; a direct write fails honestly, and errno says why.
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) {
        throw ReportError(QStringLiteral("Cannot write %1: %2. Choose a writable location.")
                              .arg(path, file.errorString()));
    }
    errno = 0;
    const bool written = file.write(bytes) == bytes.size();
    const QString reason = file.error() != QFileDevice::NoError || errno == 0
                               ? file.errorString()
                               : QString::fromLocal8Bit(std::strerror(errno));
    if (!written || !file.commit()) {
        throw ReportError(QStringLiteral("Cannot write %1: %2. Nothing was written; check the "
                                         "free space and permissions.")
                              .arg(path, written ? file.errorString() : reason));
    }
}

} // namespace lbm::report
