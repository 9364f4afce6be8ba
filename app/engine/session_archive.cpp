#include "app/engine/session_archive.h"

#include <QDir>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>

namespace lbm::engine {
namespace {

const QString kTimeFormat = QStringLiteral("yyyyMMdd'T'HHmmss'Z'");
const QString kPending = QStringLiteral("pending");

QString safeName(const QString& text) {
    QString name = text;
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9_.-]"));
    name.replace(unsafe, QStringLiteral("_"));
    return name.left(80);
}

std::optional<ArchivedSession> parseFolder(const QFileInfo& info) {
    const QString name = info.fileName();
    const qsizetype underscore = name.indexOf(QLatin1Char('_'));
    if (underscore < 0) {
        return std::nullopt;
    }
    QDateTime started = QDateTime::fromString(name.left(underscore), kTimeFormat);
    if (!started.isValid()) {
        return std::nullopt;
    }
    started.setTimeSpec(Qt::UTC);
    ArchivedSession session;
    session.folder = info.absoluteFilePath();
    session.started_utc = started;
    const QString rest = name.mid(underscore + 1);
    session.request_id = rest.startsWith(kPending) ? QString() : rest;
    return session;
}

} // namespace

QString ArchivedSession::title() const {
    const QString when = started_utc.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    return request_id.isEmpty() ? when : when + QStringLiteral(" · ") + request_id;
}

QString SessionArchive::defaultRoot() {
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/lingbot-monitor/sessions");
}

SessionArchive::SessionArchive(QString root)
    : m_root(std::move(root)) {}

std::optional<ArchivedSession> SessionArchive::create(QString* error, const QDateTime& now) {
    const QDateTime utc = now.toUTC();
    const QString stamp = utc.toString(kTimeFormat);
    QDir root(m_root);
    // Two sessions started within a second get distinct folders.
    QString name = stamp + QLatin1Char('_') + kPending;
    for (int n = 2; root.exists(name); ++n) {
        name = stamp + QLatin1Char('_') + kPending + QString::number(n);
    }
    if (!root.mkpath(name)) {
        *error = QStringLiteral("Cannot create the session folder %1; check that %2 is writable "
                                "or free some space.")
                     .arg(QDir::toNativeSeparators(root.filePath(name)),
                          QDir::toNativeSeparators(m_root));
        return std::nullopt;
    }
    ArchivedSession session;
    session.folder = QFileInfo(root.filePath(name)).absoluteFilePath();
    session.started_utc = QDateTime::fromString(stamp, kTimeFormat);
    session.started_utc.setTimeSpec(Qt::UTC);
    return session;
}

bool SessionArchive::nameAfter(ArchivedSession& session, const QString& request_id) {
    const QFileInfo current(session.folder);
    const QString name =
        session.started_utc.toString(kTimeFormat) + QLatin1Char('_') + safeName(request_id);
    const QString target = current.dir().filePath(name);
    if (QFileInfo::exists(target) || !QDir().rename(session.folder, target)) {
        return false;
    }
    session.folder = QFileInfo(target).absoluteFilePath();
    session.request_id = safeName(request_id);
    return true;
}

QList<ArchivedSession> SessionArchive::list() const {
    QList<ArchivedSession> sessions;
    const QDir root(m_root);
    for (const QFileInfo& info : root.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (const auto session = parseFolder(info)) {
            sessions.append(*session);
        }
    }
    // Names start with the UTC time, so the name orders them; newest first.
    std::sort(sessions.begin(), sessions.end(), [](const auto& a, const auto& b) {
        return QFileInfo(a.folder).fileName() > QFileInfo(b.folder).fileName();
    });
    return sessions;
}

int SessionArchive::prune(int keep, const QString& in_use) {
    const QList<ArchivedSession> sessions = list();
    int removed = 0;
    int kept = 0;
    for (const ArchivedSession& session : sessions) {
        if (session.folder == in_use || kept < keep) {
            ++kept;
            continue;
        }
        if (QDir(session.folder).removeRecursively()) {
            ++removed;
        }
    }
    return removed;
}

} // namespace lbm::engine
