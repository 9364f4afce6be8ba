// Screenshots of the visual quality instruments for people to look at, saved under
// build/<preset>/screenshots/: the quality track under the latency chart for the issue's
// faulted simulator session (seam@6 freeze@10 blur@14 tint@18, 24 chunks, orbit camera, two
// prompt transitions), the filmstrip of its transitions, and two sessions side by side.
// Each scene is asserted to show what its name says before it is saved.

#include "kept_session.h"
#include "metrics/live_session_metrics.h"
#include "ui/compared_session.h"
#include "ui/latency_chart.h"
#include "ui/latency_chart_model.h"
#include "ui/prompt_interactions.h"
#include "ui/quality_track.h"
#include "ui/side_by_side_pane.h"
#include "ui/side_by_side_window.h"
#include "ui/transition_filmstrip.h"
#include "ui/video_view.h"
#include "window_test_support.h"

#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>

#include <catch2/catch.hpp>

using lbm::quality::QualityFlag;

TEST_CASE("screenshot of the quality track under the latency chart for the faulted session",
          "[screenshots][quality][kept-acceptance]") {
    const auto& kept = lbm::ui::test::acceptanceSession();
    QString error;
    const auto session = lbm::ui::ComparedSession::load(kept.folder, &error);
    INFO(error.toStdString());
    REQUIRE(session.has_value());
    REQUIRE(session->quality.has_value());

    QWidget panel;
    panel.setWindowTitle(QStringLiteral("Quality track"));
    auto* layout = new QVBoxLayout(&panel);
    auto* title = new QLabel(session->title() + QStringLiteral("\n") + session->promptLine());
    layout->addWidget(title);
    auto* chart = new lbm::ui::LatencyChart();
    const auto& entry = session->document.sessions.front();
    chart->model()->showRecords(session->chunks,
                                lbm::report::metricsOptionsFor(session->document.config, entry),
                                static_cast<int>(session->chunks.size()));
    for (const auto& mark :
         lbm::ui::chartMarksFromInteractions(session->interactions(), session->chunks)) {
        chart->model()->addEventMark(mark);
    }
    chart->setFollow(false);
    auto* track = new lbm::ui::QualityTrack();
    track->setSettings(session->quality->settings);
    track->setChunks(session->quality->chunks);
    track->syncWith(chart);
    layout->addWidget(chart, 3);
    layout->addWidget(track, 2);
    panel.resize(1400, 820);
    panel.show();
    REQUIRE(QTest::qWaitForWindowExposed(&panel));
    QTest::qWait(300); // not a proof: the views paint before the screenshot
    chart->flush();
    track->flush();
    QTest::qWait(200); // not a proof: the views paint before the screenshot
    CHECK(track->plottedColumnCount() == 24);
    CHECK(track->summaryText().contains(QStringLiteral("seam 1")));
    CHECK(track->plottedEventMarkCount() >= 4); // two prompts: sent, started, completed
    CHECK(QFileInfo(lbm::ui::test::saveWidgetScreenshot(panel, QStringLiteral("20-quality-track")))
              .size() > 0);
    // The track alone for a report.
    const QImage report =
        track->reportImage(QStringLiteral("Visual quality — faulted session"), QSize(1400, 360));
    CHECK(report.save(QStringLiteral(LBM_BINARY_DIR "/screenshots/21-quality-track-report.png")));
}

TEST_CASE("screenshot of the transition filmstrip and its contact sheet",
          "[screenshots][quality][kept-acceptance]") {
    const auto& kept = lbm::ui::test::acceptanceSession();
    const auto prompts = lbm::ui::promptInteractionsFromJson(kept.interactions, kept.workload);
    REQUIRE(prompts.size() == 2);
    lbm::ui::TransitionFilmstrip filmstrip;
    filmstrip.setWindowTitle(QStringLiteral("Transition filmstrip"));
    QSignalSpy loaded(&filmstrip, &lbm::ui::TransitionFilmstrip::loaded);
    filmstrip.setSession(kept.recording_path, kept.chunk_frames, prompts);
    filmstrip.setTransitionChecks(kept.quality);
    filmstrip.resize(1860, 560);
    filmstrip.show();
    REQUIRE(QTest::qWaitForWindowExposed(&filmstrip));
    REQUIRE((loaded.count() > 0 || loaded.wait(30000)));
    QTest::qWait(300); // not a proof: the views paint before the screenshot
    CHECK(filmstrip.statusText().contains(QStringLiteral("16 of 16 frames")));
    CHECK(QFileInfo(lbm::ui::test::saveWidgetScreenshot(filmstrip,
                                                        QStringLiteral("22-transition-filmstrip")))
              .size() > 0);
    QString error;
    CHECK(filmstrip.exportContactSheet(
        QStringLiteral(LBM_BINARY_DIR "/screenshots/23-transition-contact-sheet.png"), &error,
        QStringLiteral("Prompt transitions — faulted orbit session (seam@6 freeze@10 blur@14 "
                       "tint@18)")));
}

TEST_CASE("screenshot of two transition lengths side by side", "[screenshots][quality]") {
    static QTemporaryDir root;
    REQUIRE(root.isValid());
    const auto k1 = lbm::ui::test::runKeptSession(lbm::ui::test::transitionSpec(1), root.path());
    const auto k3 = lbm::ui::test::runKeptSession(lbm::ui::test::transitionSpec(3), root.path());
    lbm::ui::SideBySideWindow window;
    QSignalSpy ready(&window, &lbm::ui::SideBySideWindow::ready);
    REQUIRE(window.load(0, k1.folder));
    REQUIRE(window.load(1, k3.folder));
    window.resize(1920, 1040);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    REQUIRE((ready.count() > 0 || ready.wait(20000)));
    // The first frame of chunk 6: K=1 has landed (chunk 5), K=3 is half-way (chunks 5-7).
    window.seekChunk(6);
    REQUIRE(QTest::qWaitFor(
        [&] {
            for (int side = 0; side < 2; ++side) {
                const auto& shown = window.pane(side)->videoView()->displayedFrame();
                if (!shown || shown->tag().chunkIndex() != 6) {
                    return false;
                }
            }
            return true;
        },
        10000));
    QTest::qWait(400); // not a proof: the views paint before the screenshot
    CHECK(window.errorText(0).isEmpty());
    CHECK(window.errorText(1).isEmpty());
    CHECK(QFileInfo(lbm::ui::test::saveWidgetScreenshot(window, QStringLiteral("24-side-by-side")))
              .size() > 0);

    // And with a side that cannot be opened: the reason in its place.
    window.load(1, root.filePath(QStringLiteral("no-such-session")));
    QTest::qWait(300); // not a proof: the views paint before the screenshot
    CHECK_FALSE(window.errorText(1).isEmpty());
    CHECK(QFileInfo(
              lbm::ui::test::saveWidgetScreenshot(window, QStringLiteral("25-side-by-side-error")))
              .size() > 0);
}
