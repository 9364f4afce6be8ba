// The one writer every saved file goes through: a failed save names the path and the
// system's reason, and leaves the previous file and the directory as they were.

#include "app/report/atomic_file.h"
#include "app/report/report_error.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

#include <csignal>
#include <sys/resource.h>

namespace {

QByteArray readAll(const QString& path) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    return file.readAll();
}

// Lowers the largest file this process may write (RLIMIT_FSIZE) for one scope: a write past
// it fails with EFBIG, like a disk that fills mid-write, and it binds root too.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        getrlimit(RLIMIT_FSIZE, &m_saved);
        m_saved_handler = std::signal(SIGXFSZ, SIG_IGN); // EFBIG instead of the signal
        rlimit limit = m_saved;
        limit.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &m_saved);
        std::signal(SIGXFSZ, m_saved_handler);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit m_saved{};
    void (*m_saved_handler)(int) = nullptr;
};

} // namespace

TEST_CASE("a save replaces the file with exactly the bytes given", "[report][files]") {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.json"));
    lbm::report::writeFileAtomically(path, QByteArrayLiteral("first"));
    lbm::report::writeFileAtomically(path, QByteArrayLiteral("second, longer"));
    REQUIRE(readAll(path) == QByteArrayLiteral("second, longer"));
    REQUIRE(QDir(dir.path()).entryList(QDir::Files) == QStringList{QStringLiteral("run.json")});
}

TEST_CASE("a save that runs out of space names the reason and keeps the previous file",
          "[report][files]") {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.json"));
    lbm::report::writeFileAtomically(path, QByteArrayLiteral("the good document"));
    const QByteArray big(1 << 20, 'x');
    QString message;
    {
        const FileSizeLimit limit(64 * 1024);
        try {
            lbm::report::writeFileAtomically(path, big);
        } catch (const lbm::report::ReportError& error) {
            message = QString::fromUtf8(error.what());
        }
    }
    INFO(message.toStdString());
    REQUIRE(message.startsWith(QStringLiteral("Cannot write ") + path));
    REQUIRE(message.contains(QStringLiteral("File too large")));
    REQUIRE(message.contains(QStringLiteral("Nothing was written")));
    REQUIRE(readAll(path) == QByteArrayLiteral("the good document"));
    // No temporary file is left beside it.
    REQUIRE(QDir(dir.path()).entryList(QDir::Files) == QStringList{QStringLiteral("run.json")});
}

TEST_CASE("a save into a path whose folder is a file says so", "[report][files]") {
    QTemporaryDir dir;
    const QString not_a_folder = dir.filePath(QStringLiteral("plain"));
    lbm::report::writeFileAtomically(not_a_folder, QByteArrayLiteral("x"));
    const QString path = not_a_folder + QStringLiteral("/run.json");
    REQUIRE_THROWS_WITH(lbm::report::writeFileAtomically(path, QByteArrayLiteral("y")),
                        Catch::Contains("Cannot write " + path.toStdString()) &&
                            Catch::Contains("Choose a writable location."));
}
