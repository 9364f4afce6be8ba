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
#include "ui/quality_track.h"
#include "window_test_support.h"

#include <QFileInfo>
#include <QLabel>
#include <QTest>
#include <QVBoxLayout>

#include <catch2/catch.hpp>

using lbm::quality::QualityFlag;

TEST_CASE("screenshot of the quality track under the latency chart for the faulted session",
          "[screenshots][quality]") {
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
    QTest::qWait(300);
    chart->flush();
    track->flush();
    QTest::qWait(200);
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
