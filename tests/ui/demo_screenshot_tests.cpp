// Screenshots of the demo at 1280x720 and 1920x1080, for people to look at (saved under
// build/screenshots/): a stall as it happens, a session killed with SIGKILL and reopened from
// the offer at the next start, and Compare on two kept sessions. Each scene is asserted to show
// what its name says before it is saved.

#include "ui/counters_panel.h"
#include "ui/main_window.h"
#include "ui/session_form.h"
#include "ui/side_by_side_window.h"
#include "window_test_support.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <catch2/catch.hpp>

#include <csignal>

using lbm::ui::MainWindow;
using lbm::ui::test::sessionsRoot;

namespace {

const QSize kSizes[] = {QSize(1280, 720), QSize(1920, 1080)};

QString sizeName(const QSize& size) {
    return QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
}

// The kept session folder of document_path, copied into this process's sessions root.
QString adopt(const QString& document_path) {
    const QString folder = QFileInfo(document_path).dir().dirName();
    const QString target = sessionsRoot() + QLatin1Char('/') + folder;
    REQUIRE(QDir().mkpath(target));
    for (const QString& file : {QStringLiteral("session.json"), QStringLiteral("stream.m4s")}) {
        QFile::remove(target + QLatin1Char('/') + file);
        REQUIRE(QFile::copy(QFileInfo(document_path).dir().filePath(file),
                            target + QLatin1Char('/') + file));
    }
    return target + QStringLiteral("/session.json");
}

// A session stalled at chunk 8, on screen at size. One case per size, so CTest runs them side
// by side: each waits through the simulator's real-time pace.
void screenshotStall(const QSize& size) {
    QSettings().clear();
    MainWindow window;
    lbm::ui::test::showAt(window, size);
    // With a fault the chunk timeouts are 60 s and 30 s: the stall is seen as one.
    lbm::ui::test::startOnSimulator(window, QStringLiteral("h200-sp4"), 24,
                                    {QStringLiteral("stall@8")});
    auto* engine = window.sessionEngine();
    // Stalled long enough for the viewer to have run dry.
    REQUIRE(QTest::qWaitFor(
        [&] {
            return window.windowTitle().contains(QStringLiteral("STALLED")) &&
                   engine->secondsSinceLastChunk().value_or(0.0) > 4.0;
        },
        90000));
    CHECK(window.bannerText().startsWith(QStringLiteral("Waiting for chunk 8")));
    lbm::ui::test::saveScreenshot(window, QStringLiteral("demo-stall-") + sizeName(size));
    lbm::ui::test::abortSession(window);
}

} // namespace

TEST_CASE("screenshot of a stall at 1280x720", "[screenshots][demo][paced]") {
    screenshotStall(QSize(1280, 720));
}

TEST_CASE("screenshot of a stall at 1920x1080", "[screenshots][demo][paced]") {
    screenshotStall(QSize(1920, 1080));
}

TEST_CASE("screenshots of a killed session reopened, and of Compare",
          "[screenshots][demo][paced]") {
    QSettings().clear();
    QDir(sessionsRoot()).removeRecursively();
    QTemporaryDir first_home, second_home;
    const QString killed = adopt(lbm::ui::test::runAndSignal(first_home, SIGKILL));
    const QString interrupted = adopt(lbm::ui::test::runAndSignal(second_home, SIGTERM));
    for (const QSize size : kSizes) {
        MainWindow window;
        window.resize(size);
        window.show();
        REQUIRE(QTest::qWaitForWindowExposed(&window));
        REQUIRE(QTest::qWaitFor(
            [&] { return window.bannerText().contains(QStringLiteral("ended unexpectedly")); },
            5000));
        lbm::ui::test::saveScreenshot(window,
                                      QStringLiteral("demo-killed-offered-") + sizeName(size));
        REQUIRE(window.openDocument(killed));
        QTest::qWait(600); // not a proof: the recording's first frame decoded and drawn
        CHECK(window.windowTitle().startsWith(QStringLiteral("ended unexpectedly: ")));
        // The counters read as an ended session's: the frames its decoder made, as the
        // document kept them, and no figure still waiting ("yet") for chunks that never come.
        using Row = lbm::ui::CountersPanel::Row;
        const auto* counters = window.countersPanel();
        CHECK(counters->valueText(Row::FramesDecoded).front().isDigit());
        CHECK_FALSE(counters->valueText(Row::SteadyRtf).contains(QStringLiteral("yet")));
        const QStringList cut = lbm::ui::test::cutLabels(&window);
        INFO(cut.join(QLatin1Char('\n')).toStdString());
        CHECK(cut.isEmpty());
        lbm::ui::test::saveScreenshot(window,
                                      QStringLiteral("demo-killed-reopened-") + sizeName(size));
    }
    for (const QSize size : kSizes) {
        auto* compare = lbm::ui::SideBySideWindow::open(killed, interrupted);
        compare->resize(size);
        REQUIRE(QTest::qWaitForWindowExposed(compare));
        QTest::qWait(800); // not a proof: the window paints before the screenshot
        CHECK(compare->width() <= size.width());
        const QStringList cut = lbm::ui::test::cutLabels(compare);
        INFO(cut.join(QLatin1Char('\n')).toStdString());
        CHECK(cut.isEmpty());
        lbm::ui::test::saveWidgetScreenshot(*compare,
                                            QStringLiteral("demo-compare-") + sizeName(size));
        compare->close();
    }
}
