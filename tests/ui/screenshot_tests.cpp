// Screenshots of the monitor as a person sees it, saved under build/screenshots/: the idle
// window, a session with a late chunk and an underrun, a prompt transition in progress,
// presenter mode and the finished session's whole-session chart. Each scene is asserted to
// show what its name says before it is saved.

#include "metrics/playback_simulator.h"
#include "ui/counters_panel.h"
#include "ui/latency_chart.h"
#include "ui/main_window.h"
#include "ui/prompt_panel.h"
#include "ui/session_form.h"
#include "ui/video_view.h"
#include "window_test_support.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QImage>
#include <QSettings>
#include <QTest>

#include <catch2/catch.hpp>

using lbm::ui::MainWindow;

TEST_CASE("screenshot of the idle window", "[screenshots]") {
    QSettings().clear();
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    QTest::qWait(400); // not a proof: the window paints before the screenshot
    // Idle: the bundled first frame on screen, Start available, nothing received.
    CHECK_FALSE(window.videoView()->displayedImage().isNull());
    CHECK(window.latencyChart()->chunkCount() == 0);
    CHECK(QFileInfo(lbm::ui::test::saveScreenshot(window, QStringLiteral("01-idle"))).size() > 0);
}

TEST_CASE("screenshots of a live session, a transition and presenter mode",
          "[screenshots][paced]") {
    QSettings().clear();
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    auto* form = window.sessionForm();
    form->setSimulatorProfile(QStringLiteral("edge"));
    form->setChunks(40);
    form->setCameraChoice(lbm::ui::SessionForm::steerCameraChoice());
    REQUIRE(window.startSession());
    auto* session = window.sessionEngine();
    auto* chart = window.latencyChart();

    // Mid-session: at least one late chunk and one simulated underrun on screen.
    const auto underruns = [&] {
        const auto result = session->liveMetrics().simulatedPlayback();
        return result ? result->underrun_count : 0;
    };
    REQUIRE(QTest::qWaitFor(
        [&] {
            return chart->lateChunkCount() >= 1 && underruns() >= 1 &&
                   session->liveMetrics().chunkCount() >= 10;
        },
        60000));
    window.setSpeedFactor(1.0);
    window.videoView()->setFocus();
    QTest::keyPress(window.videoView(), Qt::Key_W);
    QTest::keyPress(window.videoView(), Qt::Key_L);
    QTest::qWait(300); // not a proof: the window paints before the screenshot
    lbm::ui::test::saveScreenshot(window, QStringLiteral("02-late-chunk-and-underrun"));
    QTest::keyRelease(window.videoView(), Qt::Key_W);
    QTest::keyRelease(window.videoView(), Qt::Key_L);

    // A transition in progress on screen: the picture shows a chunk after the one it started
    // in and before the one that completed it. (The player may be chunks behind the stream
    // on this profile, so the transition may have completed on the wire already.)
    window.promptPanel()->setPrompt(QStringLiteral("A snowy street at dusk"));
    window.promptPanel()->setTransitionChunks(4);
    window.promptPanel()->send();
    const auto in_transition = [&] {
        for (const auto& record : session->timeline().interactions()) {
            if (record.kind == lbm::session::InteractionKind::Prompt && record.started_chunk) {
                const auto& frame = window.playbackClock()->currentFrame();
                if (!frame) {
                    return false;
                }
                const auto shown = frame->tag().chunkIndex();
                return shown > *record.started_chunk &&
                       (!record.completed_chunk || shown < *record.completed_chunk);
            }
        }
        return false;
    };
    REQUIRE(QTest::qWaitFor(in_transition, 30000));
    window.promptPanel()->setFocus();
    lbm::ui::test::saveScreenshot(window, QStringLiteral("03-transition-in-progress"));

    window.setPresenterMode(true);
    QTest::qWait(800); // not a proof: the window paints before the screenshot
    const QString presenting =
        lbm::ui::test::saveScreenshot(window, QStringLiteral("04-presenter-mode"));
    // Letterboxed in black: the bottom corner (no picture there) is not the window's grey.
    const QImage presented(presenting);
    REQUIRE_FALSE(presented.isNull());
    CHECK(qGray(presented.pixel(presented.width() / 2, presented.height() - 2)) < 40);
    window.setPresenterMode(false);
    CHECK(window.centralWidget()->palette().color(QPalette::Window) != QColor(Qt::black));
    QTest::qWait(300); // not a proof: the window paints before the screenshot

    REQUIRE(QTest::qWaitFor([&] { return session->result().has_value(); }, 90000));
    chart->setFollow(false);
    chart->setPercentilesVisible(true);
    window.refreshCounters();
    QTest::qWait(400); // not a proof: the window paints before the screenshot
    lbm::ui::test::saveScreenshot(window, QStringLiteral("05-finished-whole-session"));
    CHECK(session->result()->ok);
}

namespace {

// The window at size eight chunks into an h200-sp4 session, a prompt just sent. One case per
// size, so CTest runs them side by side: each waits through the simulator's real-time pace.
void screenshotLiveSession(const QSize& size) {
    QSettings().clear();
    MainWindow window;
    lbm::ui::test::showAt(window, size);
    lbm::ui::test::startOnSimulator(window, QStringLiteral("h200-sp4"), 24);
    auto* engine = window.sessionEngine();
    REQUIRE(QTest::qWaitFor([&] { return engine->liveMetrics().chunkCount() >= 8; }, 60000));
    window.promptPanel()->setPrompt(QStringLiteral("A snowy street at dusk"));
    window.promptPanel()->send();
    QTest::qWait(1500); // not a proof: the window paints before the screenshot
    const QString name = QStringLiteral("06-live-%1x%2").arg(size.width()).arg(size.height());
    CHECK(QFileInfo(lbm::ui::test::saveScreenshot(window, name)).size() > 0);
    lbm::ui::test::abortSession(window);
}

} // namespace

TEST_CASE("screenshot of a live session at 1280x720", "[screenshots][paced]") {
    screenshotLiveSession(QSize(1280, 720));
}

TEST_CASE("screenshot of a live session at 1600x1000", "[screenshots][paced]") {
    screenshotLiveSession(QSize(1600, 1000));
}

TEST_CASE("screenshot of a live session at 1920x1080", "[screenshots][paced]") {
    screenshotLiveSession(QSize(1920, 1080));
}

TEST_CASE("the README's screenshot: 1280x720 mid-session with a prompt transition",
          "[screenshots][demo][paced]") {
    QSettings().clear();
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    lbm::ui::test::startOnSimulator(window, QStringLiteral("h200-sp4"), 32);
    auto* session = window.sessionEngine();
    REQUIRE(QTest::qWaitFor([&] { return session->liveMetrics().chunkCount() >= 6; }, 60000));
    // The prompt transitions are a tab beside the camera pad at this height: shown, so the
    // history says where the transition started.
    for (QDockWidget* dock : window.docks()) {
        if (dock->objectName() == QStringLiteral("PromptDock")) {
            dock->raise();
        }
    }
    window.promptPanel()->setPrompt(QStringLiteral("A snowy street at dusk"));
    window.promptPanel()->setTransitionChunks(3);
    window.promptPanel()->send();
    // On screen: the transition's last step (K=3: two chunks after the one it started in),
    // where the new look shows.
    const auto mid_transition = [&] {
        for (const auto& record : session->timeline().interactions()) {
            if (record.kind == lbm::session::InteractionKind::Prompt && record.started_chunk) {
                const auto& frame = window.playbackClock()->currentFrame();
                return frame && frame->tag().chunkIndex() >= *record.started_chunk + 2;
            }
        }
        return false;
    };
    REQUIRE(QTest::qWaitFor(mid_transition, 60000));
    window.refreshCounters();
    CHECK(
        QFileInfo(lbm::ui::test::saveScreenshot(window, QStringLiteral("readme-1280x720"))).size() >
        0);
    session->abort(QStringLiteral("screenshot taken"));
    REQUIRE(QTest::qWaitFor([&] { return session->result().has_value(); }, 10000));
}
