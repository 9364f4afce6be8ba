// The Sessions browser lists the kept sessions with how each went, sorts and filters them,
// opens one in the window and compares two side by side; it fits a 1280x720 screen with no
// sideways scrolling and closes with Esc.

#include "ui/main_window.h"
#include "ui/session_library.h"
#include "ui/session_summary.h"
#include "ui/sessions_browser.h"
#include "ui/side_by_side_window.h"
#include "window_test_support.h"

#include <QApplication>
#include <QDir>
#include <QPointer>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <catch2/catch.hpp>

using lbm::ui::MainWindow;
using lbm::ui::SessionsBrowser;

namespace {

void runSession(MainWindow& window, int chunks, const QStringList& faults, bool stop) {
    lbm::ui::test::startOnSimulator(window, QStringLiteral("fast"), chunks, faults);
    auto* engine = window.sessionEngine();
    if (stop) {
        REQUIRE(QTest::qWaitFor([&] { return engine->liveMetrics().chunkCount() >= 2; }, 30000));
        window.stopSession();
    }
    REQUIRE(QTest::qWaitFor([&] { return engine->result().has_value(); }, 60000));
}

SessionsBrowser* openBrowser(MainWindow& window) {
    auto* library = window.findChild<lbm::ui::SessionLibrary*>();
    REQUIRE(library);
    library->showBrowser();
    SessionsBrowser* browser = nullptr;
    for (SessionsBrowser* candidate : window.findChildren<SessionsBrowser*>()) {
        if (candidate->isVisible()) {
            browser = candidate; // not one closed a moment ago, deleted later
        }
    }
    REQUIRE(browser);
    REQUIRE(QTest::qWaitForWindowExposed(browser));
    REQUIRE(QTest::qWaitFor([&] { return !browser->loading(); }, 10000));
    return browser;
}

// Reads the archive again and waits for the documents to be read (off the GUI thread: the
// table fills after reload() returns, announced by loaded()).
void reread(SessionsBrowser* browser) {
    QSignalSpy loaded(browser, &SessionsBrowser::loaded);
    browser->reload();
    CHECK(loaded.isEmpty());
    if (browser->loading()) {
        CHECK(browser->progressText().startsWith(QStringLiteral("Reading ")));
    }
    REQUIRE(QTest::qWaitFor([&] { return loaded.count() == 1; }, 10000));
    CHECK(browser->progressText().isEmpty());
}

} // namespace

TEST_CASE("the Sessions browser sorts, filters, opens and compares kept sessions",
          "[ui][sessions]") {
    QSettings().clear();
    QDir(lbm::ui::test::sessionsRoot()).removeRecursively();
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    runSession(window, 4, {QStringLiteral("seam@2")}, false);
    runSession(window, 40, {}, true);

    SessionsBrowser* browser = openBrowser(window);
    REQUIRE(browser->rowCount() == 2);
    // The stopped session's last document rewrite reaches the disk a moment after the result.
    REQUIRE(QTest::qWaitFor(
        [&] {
            reread(browser);
            return browser->cellText(0, SessionsBrowser::Outcome) == QStringLiteral("stopped");
        },
        10000));
    // Newest first: the stopped one.
    CHECK(browser->cellText(0, SessionsBrowser::Outcome) == QStringLiteral("stopped"));
    CHECK(browser->cellText(0, SessionsBrowser::Chunks).endsWith(QStringLiteral("/40")));
    CHECK(browser->cellText(1, SessionsBrowser::Outcome) == QStringLiteral("finished"));
    CHECK(browser->cellText(1, SessionsBrowser::Chunks) == QStringLiteral("4/4"));
    CHECK(browser->cellText(1, SessionsBrowser::Faults) == QStringLiteral("seam@2"));
    // The second Start waited for the first session's analysis: its document has the seam.
    CHECK(browser->cellText(1, SessionsBrowser::Quality) == QStringLiteral("seam 1"));
    CHECK(browser->cellText(1, SessionsBrowser::Profile) == QStringLiteral("fast"));
    // Sorted by the chunks received, as numbers, both ways.
    const auto received = [&](int row) {
        return browser->cellText(row, SessionsBrowser::Chunks)
            .section(QLatin1Char('/'), 0, 0)
            .toInt();
    };
    browser->table()->sortByColumn(SessionsBrowser::Chunks, Qt::AscendingOrder);
    CHECK(received(0) <= received(1));
    browser->table()->sortByColumn(SessionsBrowser::Chunks, Qt::DescendingOrder);
    CHECK(received(0) >= received(1));
    browser->table()->sortByColumn(SessionsBrowser::Date, Qt::DescendingOrder);
    // Filtered by any text in a row.
    browser->setFilterText(QStringLiteral("stopped"));
    CHECK(browser->rowCount() == 1);
    browser->setFilterText(QString());
    CHECK(browser->rowCount() == 2);
    // Never sideways scrolling, inside a 1280x720 screen.
    CHECK_FALSE(browser->table()->horizontalScrollBar()->isVisible());
    CHECK(browser->width() <= 1280);
    CHECK(browser->height() <= 720);
    lbm::ui::test::saveWidgetScreenshot(*browser, QStringLiteral("sessions-browser"));

    // Two selected: compare side by side.
    browser->selectRows({0, 1});
    auto* compare = browser->findChild<QPushButton*>();
    for (QPushButton* button : browser->findChildren<QPushButton*>()) {
        if (button->text() == QStringLiteral("Compare Side by Side")) {
            compare = button;
        }
    }
    REQUIRE(compare->isEnabled());
    compare->click();
    lbm::ui::SideBySideWindow* side = nullptr;
    for (QWidget* top : QApplication::topLevelWidgets()) {
        if (auto* candidate = qobject_cast<lbm::ui::SideBySideWindow*>(top)) {
            side = candidate;
        }
    }
    REQUIRE(side);
    side->close();

    // One selected: open it in the window.
    browser = openBrowser(window);
    browser->setFilterText(QStringLiteral("seam@2"));
    REQUIRE(browser->rowCount() == 1);
    browser->selectRows({0});
    QTest::keyClick(browser->table(), Qt::Key_Return);
    REQUIRE(QTest::qWaitFor(
        [&] { return window.windowTitle().startsWith(QStringLiteral("finished: ")); }, 5000));

    // Esc closes it.
    browser = openBrowser(window);
    QPointer<SessionsBrowser> guard(browser);
    QTest::keyClick(browser, Qt::Key_Escape);
    CHECK(QTest::qWaitFor([&] { return guard.isNull(); }, 2000));
}

TEST_CASE("a quality verdict read before the analysis reached every chunk says so",
          "[ui][sessions]") {
    lbm::ui::SessionSummary summary;
    CHECK(summary.qualityText().isEmpty()); // not analysed: no verdict at all
    summary.quality_analysed = true;
    summary.chunks = 4;
    summary.quality_chunks = 3;
    CHECK(summary.qualityText() == QStringLiteral("clean (3 of 4 chunks analysed)"));
    summary.quality_flags = QStringLiteral("seam 1");
    CHECK(summary.qualityText() == QStringLiteral("seam 1 (3 of 4 chunks analysed)"));
    summary.quality_chunks = 4;
    CHECK(summary.qualityText() == QStringLiteral("seam 1"));
}
