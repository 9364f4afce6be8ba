// Every kept session says how it ended: stopped (in prose, not the server's dict), interrupted
// by SIGTERM, or ended unexpectedly when the program was killed with SIGKILL, in the document,
// `report`, the window title and the banner when reopened; a killed session is recognised at
// the next start and offered for reopening.

#include "app/report/session_document.h"
#include "app/report/session_outcome.h"
#include "ui/counters_panel.h"
#include "ui/latency_chart.h"
#include "ui/main_window.h"
#include "window_test_support.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <catch2/catch.hpp>

#include <csignal>

using lbm::report::OutcomeKind;
using lbm::ui::CountersPanel;
using lbm::ui::MainWindow;

namespace {

using lbm::ui::test::sessionsRoot;

QString reportOutcomeLine(const QString& document_path) {
    QProcess report;
    report.start(QStringLiteral(LBM_BINARY_DIR "/lingbot-monitor"),
                 {QStringLiteral("report"), document_path});
    REQUIRE(report.waitForFinished(30000));
    const QString output = QString::fromUtf8(report.readAllStandardOutput());
    INFO(output.toStdString() << QString::fromUtf8(report.readAllStandardError()).toStdString());
    for (const QString& line : output.split(QLatin1Char('\n'))) {
        if (line.startsWith(QStringLiteral("Outcome: "))) {
            return line;
        }
    }
    return QString();
}

} // namespace

TEST_CASE("SIGTERM and SIGKILL leave documents that say interrupted and ended unexpectedly",
          "[ui][outcome][signal][paced]") {
    QTemporaryDir term_home;
    const QString interrupted = lbm::ui::test::runAndSignal(term_home, SIGTERM);
    const auto by_term = lbm::report::readSessionDocument(interrupted);
    CHECK(lbm::report::readOutcome(by_term).kind == OutcomeKind::Interrupted);
    CHECK(lbm::report::readOutcome(by_term).detail == QStringLiteral("Interrupted by SIGTERM."));
    CHECK(reportOutcomeLine(interrupted).startsWith(QStringLiteral("Outcome: Interrupted after ")));

    QTemporaryDir kill_home;
    const QString killed = lbm::ui::test::runAndSignal(kill_home, SIGKILL);
    const auto by_kill = lbm::report::readSessionDocument(killed);
    // The document was last written while the session ran; its writer is gone.
    CHECK(by_kill.monitor->extras.value(QStringLiteral("outcome")).toString() ==
          QStringLiteral("running"));
    const auto outcome = lbm::report::readOutcome(by_kill);
    CHECK(outcome.kind == OutcomeKind::EndedUnexpectedly);
    CHECK(outcome.word() == QStringLiteral("ended unexpectedly"));
    CHECK(
        reportOutcomeLine(killed).startsWith(QStringLiteral("Outcome: Ended unexpectedly after ")));
    // While the writer lives, the same document reads as running.
    CHECK(lbm::report::readOutcome(by_kill, [](qint64, const QString&) { return true; }).kind ==
          OutcomeKind::Running);

    // The next start finds it among the kept sessions and offers it.
    QSettings().clear();
    QDir(sessionsRoot()).removeRecursively();
    const QString folder = QFileInfo(killed).dir().dirName();
    REQUIRE(QDir().mkpath(sessionsRoot() + QLatin1Char('/') + folder));
    for (const QString& file : {QStringLiteral("session.json"), QStringLiteral("stream.m4s")}) {
        REQUIRE(QFile::copy(QFileInfo(killed).dir().filePath(file),
                            sessionsRoot() + QLatin1Char('/') + folder + QLatin1Char('/') + file));
    }
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    REQUIRE(QTest::qWaitFor(
        [&] { return window.bannerText().contains(QStringLiteral("ended unexpectedly")); }, 5000));
    QAction* reopen = nullptr;
    for (QAction* action : window.actions()) {
        if (action->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R)) {
            reopen = action;
        }
    }
    REQUIRE(reopen);
    reopen->trigger();
    CHECK(window.bannerText().startsWith(QStringLiteral("Ended unexpectedly after ")));
    CHECK(window.windowTitle().startsWith(QStringLiteral("ended unexpectedly: ")));
}

TEST_CASE("a stopped session says so in prose, in its document, title and reopened banner",
          "[ui][outcome][paced]") {
    QSettings().clear();
    QDir(sessionsRoot()).removeRecursively();
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    lbm::ui::test::startOnSimulator(window, QStringLiteral("h200-sp4"), 40);
    auto* engine = window.sessionEngine();
    REQUIRE(QTest::qWaitFor([&] { return engine->liveMetrics().chunkCount() >= 3; }, 60000));
    window.stopSession();
    REQUIRE(QTest::qWaitFor([&] { return engine->result().has_value(); }, 15000));
    const auto chunks = engine->liveMetrics().chunkCount();
    CHECK(window.windowTitle().startsWith(QStringLiteral("stopped after")));

    // The kept document, once its last rewrite reached the disk.
    const QString path = lbm::ui::test::newestKeptDocument(OutcomeKind::Stopped);
    const auto document = lbm::report::readSessionDocument(path);
    const QString sentence =
        QStringLiteral("Stopped by the user after %1 of 40 chunks.").arg(chunks);
    CHECK(lbm::report::readOutcome(document).sentence(
              static_cast<qsizetype>(document.sessions.front().chunks.size()), 40) == sentence);
    // Prose, not the server's session.done as a Python dict.
    CHECK_FALSE(document.monitor->incomplete_reason.contains(QLatin1Char('{')));

    const auto* counters_dock = window.findChild<QDockWidget*>(QStringLiteral("CountersDock"));
    REQUIRE(counters_dock);
    CHECK(counters_dock->windowTitle() == QStringLiteral("Counters · session stopped"));

    REQUIRE(window.openDocument(path));
    CHECK(window.bannerText() == sentence);
    CHECK(window.windowTitle().startsWith(QStringLiteral("stopped: ")));
    CHECK(counters_dock->windowTitle() == QStringLiteral("Counters · saved session"));
    CHECK(window.countersPanel()
              ->valueText(lbm::ui::CountersPanel::Row::BufferedAhead)
              .endsWith(QStringLiteral(" s at stream end")));
}

TEST_CASE("a stall the user stops keeps its figures on the counters and the chart",
          "[ui][outcome][stall][paced]") {
    QSettings().clear();
    QDir(sessionsRoot()).removeRecursively();
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    lbm::ui::test::startOnSimulator(window, QStringLiteral("fast"), 10,
                                    {QStringLiteral("stall@3")});
    auto* engine = window.sessionEngine();
    auto* counters = window.countersPanel();
    REQUIRE(QTest::qWaitFor(
        [&] {
            window.refreshCounters();
            // Well into the stall: the video of chunks 0-2 (2.06 s) has played out for sure,
            // whatever the few ms between the window's clock and the session's.
            return counters->valueText(CountersPanel::Row::SimulatedUnderruns)
                       .contains(QStringLiteral("in progress · at chunk 3")) &&
                   engine->secondsSinceLastChunk().value_or(0.0) > 3.5;
        },
        20000));
    window.stopSession();
    REQUIRE(QTest::qWaitFor([&] { return engine->result().has_value(); }, 15000));
    window.refreshCounters();
    window.latencyChart()->flush();
    const QString underruns = counters->valueText(CountersPanel::Row::SimulatedUnderruns);
    INFO(underruns.toStdString());
    // The stall the viewer was in when the session ended is still there, said to be cut short.
    CHECK(underruns.contains(QStringLiteral(" + 1 cut short · at chunk 3 · stalled ")));
    const QString stall = counters->valueText(CountersPanel::Row::SimulatedStall);
    CHECK(stall.contains(QStringLiteral(" · + ")));
    CHECK(stall.contains(QStringLiteral(" cut short")));
    CHECK(
        counters->valueText(CountersPanel::Row::Connection).startsWith(QStringLiteral("stopped")));
    const QStringList labels = window.latencyChart()->outlierLabels();
    INFO(labels.join(QStringLiteral(" | ")).toStdString());
    CHECK(labels.filter(QStringLiteral(", none came")).size() == 1);
    CHECK(window.windowTitle().startsWith(QStringLiteral("stopped after 3 chunks")));

    // Reopened from its kept document, the counters say the same, word for word.
    // The kept document, once its last rewrite reached the disk.
    const QString path = lbm::ui::test::newestKeptDocument(OutcomeKind::Stopped);
    REQUIRE(window.openDocument(path));
    CHECK(counters->valueText(CountersPanel::Row::SimulatedUnderruns) == underruns);
    CHECK(counters->valueText(CountersPanel::Row::SimulatedStall) == stall);
}
