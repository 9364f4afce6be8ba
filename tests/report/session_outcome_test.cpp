// How a kept session ended, as read back from its document: a "running" document whose writer
// is gone reads as ended unexpectedly, and so does one whose writer's process id now belongs
// to another program (ids are reused; a stale one must not make a dead session look alive).

#include "app/report/session_outcome.h"

#include <QCoreApplication>
#include <QSysInfo>

#include <catch2/catch.hpp>

using lbm::report::OutcomeKind;
using lbm::report::SessionDocument;
using lbm::report::SessionOutcome;

namespace {

SessionDocument runningDocument() {
    SessionDocument document;
    lbm::report::recordOutcome(document, SessionOutcome{OutcomeKind::Running, {}});
    return document;
}

} // namespace

TEST_CASE("a running document names its writer by id, host and start", "[report][outcome]") {
    const SessionDocument document = runningDocument();
    const auto& extras = document.monitor->extras;
    CHECK(static_cast<qint64>(extras.value(QStringLiteral("writer_pid")).toDouble()) ==
          QCoreApplication::applicationPid());
    CHECK(extras.value(QStringLiteral("writer_host")).toString() == QSysInfo::machineHostName());
    const QString mark = extras.value(QStringLiteral("writer_started")).toString();
    CHECK(mark == lbm::report::processStartMark(QCoreApplication::applicationPid()));
    // This process is alive: the session is still running.
    CHECK(lbm::report::readOutcome(document).kind == OutcomeKind::Running);

    // Finishing forgets the writer.
    SessionDocument finished = document;
    lbm::report::recordOutcome(finished, SessionOutcome{OutcomeKind::Finished, {}});
    CHECK_FALSE(finished.monitor->extras.contains(QStringLiteral("writer_started")));
}

TEST_CASE("a writer's id reused by another process does not keep the session alive",
          "[report][outcome]") {
    const qint64 self = QCoreApplication::applicationPid();
    const QString own_mark = lbm::report::processStartMark(self);
    if (own_mark.isEmpty()) {
        WARN("no /proc start times here: only the id is checked");
        return;
    }
    CHECK(own_mark.contains(QLatin1Char('/')));
    CHECK(lbm::report::processRunning(self, own_mark));
    // The same id with another start: the process that wrote the document is gone.
    const QString other_start = own_mark.section(QLatin1Char('/'), 0, 0) + QStringLiteral("/1");
    CHECK_FALSE(lbm::report::processRunning(self, other_start));

    SessionDocument document = runningDocument();
    document.monitor->extras.insert(QStringLiteral("writer_started"), other_start);
    const SessionOutcome outcome = lbm::report::readOutcome(document);
    CHECK(outcome.kind == OutcomeKind::EndedUnexpectedly);
    CHECK(outcome.detail.contains(QString::number(self)));

    // A document from before the start was recorded is judged on the id alone.
    document.monitor->extras.remove(QStringLiteral("writer_started"));
    CHECK(lbm::report::readOutcome(document).kind == OutcomeKind::Running);
}
