#include "app/report/session_outcome.h"

#include <QCoreApplication>
#include <QFile>
#include <QSysInfo>

#include <cerrno>
#include <csignal>

namespace lbm::report {
namespace {

struct KindName {
    OutcomeKind kind;
    const char* key; // in the document
    const char* word;
};
constexpr KindName kKinds[] = {
    {OutcomeKind::Finished, "finished", "finished"},
    {OutcomeKind::Stopped, "stopped", "stopped"},
    {OutcomeKind::Failed, "failed", "failed"},
    {OutcomeKind::Interrupted, "interrupted", "interrupted"},
    {OutcomeKind::Running, "running", "running"},
    {OutcomeKind::EndedUnexpectedly, "ended_unexpectedly", "ended unexpectedly"},
};

const KindName& nameOf(OutcomeKind kind) {
    for (const KindName& name : kKinds) {
        if (name.kind == kind) {
            return name;
        }
    }
    return kKinds[0];
}

QString chunksText(qsizetype chunks, qint64 expected) {
    const QString of =
        expected > 0 && expected != chunks ? QStringLiteral(" of %1").arg(expected) : QString();
    return chunks == 1 && of.isEmpty() ? QStringLiteral("1 chunk")
                                       : QStringLiteral("%1%2 chunks").arg(chunks).arg(of);
}

QByteArray readSmallFile(const QString& path) {
    QFile file(path);
    // /proc files report size 0: read what there is rather than trusting size().
    return file.open(QIODevice::ReadOnly) ? file.read(4096) : QByteArray();
}

QString withStop(QString text) {
    return text.endsWith(QLatin1Char('.')) ? text : text + QLatin1Char('.');
}

} // namespace

QString SessionOutcome::word() const {
    return QString::fromLatin1(nameOf(kind).word);
}

QString SessionOutcome::sentence(qsizetype chunks, qint64 expected_chunks) const {
    const QString count = chunksText(chunks, expected_chunks);
    switch (kind) {
    case OutcomeKind::Finished:
        return QStringLiteral("Finished after %1.").arg(count);
    case OutcomeKind::Stopped:
        return QStringLiteral("Stopped by the user after %1.").arg(count);
    case OutcomeKind::Failed:
        return QStringLiteral("Failed after %1: %2").arg(count, withStop(detail));
    case OutcomeKind::Interrupted:
        return QStringLiteral("Interrupted after %1: %2").arg(count, withStop(detail));
    case OutcomeKind::Running:
        return QStringLiteral("Still running (%1 so far).").arg(count);
    case OutcomeKind::EndedUnexpectedly:
        return QStringLiteral("Ended unexpectedly after %1: %2").arg(count, withStop(detail));
    }
    return {};
}

void recordOutcome(SessionDocument& document, const SessionOutcome& outcome) {
    if (!document.monitor) {
        document.monitor = MonitorSection{};
    }
    MonitorSection& monitor = *document.monitor;
    monitor.extras.insert(QStringLiteral("outcome"), QString::fromLatin1(nameOf(outcome.kind).key));
    monitor.extras.insert(QStringLiteral("outcome_detail"), outcome.detail);
    monitor.extras.remove(QStringLiteral("writer_pid"));
    monitor.extras.remove(QStringLiteral("writer_host"));
    monitor.extras.remove(QStringLiteral("writer_started"));
    if (outcome.kind == OutcomeKind::Running) {
        // So the next reader can tell a session in progress from one whose program died.
        monitor.extras.insert(QStringLiteral("writer_pid"), QCoreApplication::applicationPid());
        monitor.extras.insert(QStringLiteral("writer_host"), QSysInfo::machineHostName());
        monitor.extras.insert(QStringLiteral("writer_started"),
                              processStartMark(QCoreApplication::applicationPid()));
    }
    if (outcome.kind != OutcomeKind::Finished) {
        monitor.complete = false;
        monitor.incomplete_reason = outcome.detail;
    }
}

QString processStartMark(qint64 pid) {
    if (pid <= 0) {
        return {};
    }
    const QByteArray boot =
        readSmallFile(QStringLiteral("/proc/sys/kernel/random/boot_id")).trimmed();
    const QByteArray stat = readSmallFile(QStringLiteral("/proc/%1/stat").arg(pid));
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so the fields are
    // counted from the last ')'. starttime is field 22, the 20th after comm.
    const qsizetype comm_end = stat.lastIndexOf(')');
    if (boot.isEmpty() || comm_end < 0) {
        return {};
    }
    const QList<QByteArray> fields = stat.mid(comm_end + 2).split(' ');
    constexpr int kStartTimeAfterComm = 19; // field 22, counted from field 3
    if (fields.size() <= kStartTimeAfterComm) {
        return {};
    }
    return QString::fromLatin1(boot + '/' + fields[kStartTimeAfterComm]);
}

bool processRunning(qint64 pid, const QString& start_mark) {
    if (pid <= 0) {
        return false;
    }
    // Signal 0 checks without sending: EPERM means it exists under another user.
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM) {
        return false;
    }
    if (start_mark.isEmpty()) {
        return true;
    }
    // The id is taken; by the same process only if it started at the same moment of this boot.
    const QString now = processStartMark(pid);
    return now.isEmpty() || now == start_mark;
}

SessionOutcome readOutcome(const SessionDocument& document,
                           const std::function<bool(qint64, const QString&)>& process_running) {
    if (!document.monitor) {
        return {OutcomeKind::Finished, {}}; // the benchmark's own documents: complete runs
    }
    const MonitorSection& monitor = *document.monitor;
    const QString key = monitor.extras.value(QStringLiteral("outcome")).toString();
    SessionOutcome outcome{
        OutcomeKind::Finished,
        monitor.extras.value(QStringLiteral("outcome_detail")).toString(monitor.incomplete_reason)};
    bool known = false;
    for (const KindName& name : kKinds) {
        if (key == QLatin1String(name.key)) {
            outcome.kind = name.kind;
            known = true;
        }
    }
    if (!known) {
        // Written before the outcome was: judged from what those documents said.
        if (monitor.complete) {
            outcome.kind = OutcomeKind::Finished;
        } else if (monitor.extras.value(QStringLiteral("interrupted")).toBool()) {
            outcome.kind = OutcomeKind::Interrupted;
        } else if (monitor.incomplete_reason == QLatin1String("the session is still running")) {
            outcome.kind = OutcomeKind::EndedUnexpectedly;
            outcome.detail = QStringLiteral("the document was last written while the session "
                                            "ran, and never finished");
        } else {
            outcome.kind = OutcomeKind::Failed;
        }
        return outcome;
    }
    if (outcome.kind == OutcomeKind::Running) {
        const QString host = monitor.extras.value(QStringLiteral("writer_host")).toString();
        const auto pid =
            static_cast<qint64>(monitor.extras.value(QStringLiteral("writer_pid")).toDouble());
        const QString started = monitor.extras.value(QStringLiteral("writer_started")).toString();
        if (host == QSysInfo::machineHostName() && !process_running(pid, started)) {
            outcome.kind = OutcomeKind::EndedUnexpectedly;
            outcome.detail = QStringLiteral("the program that ran it (process %1) stopped "
                                            "without finishing the document: killed, crashed "
                                            "or the machine went down")
                                 .arg(pid);
        }
    }
    return outcome;
}

} // namespace lbm::report
