// One number per fact during a stall: read at the same moment, the window title, the stall
// banner, the HUD over the video, the chart's bar in flight and the underrun counter all give
// the stream's wait for the late chunk as the same figure in the same unit style; the counter
// sets the simulated viewer's shorter stall beside it and says why it is shorter.

#include "ui/counters_panel.h"
#include "ui/latency_chart.h"
#include "ui/main_window.h"
#include "ui/video_view.h"
#include "window_test_support.h"

#include <QDockWidget>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTest>

#include <catch2/catch.hpp>

using lbm::ui::CountersPanel;
using lbm::ui::MainWindow;

TEST_CASE("a stall reads as one figure on the title, banner, HUD, chart and counters",
          "[ui][stall][paced]") {
    QSettings().clear();
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    lbm::ui::test::startOnSimulator(window, QStringLiteral("fast"), 10,
                                    {QStringLiteral("stall@3")});
    auto* engine = window.sessionEngine();
    auto* chart = window.latencyChart();
    auto* counters = window.countersPanel();
    const auto hudStall = [&] {
        for (const QString& line : window.videoView()->hud().lines()) {
            if (line.startsWith(QStringLiteral("STALLED"))) {
                return line;
            }
        }
        return QString();
    };
    // Until the player and the simulated viewer have both run dry on chunk 3 (the video of
    // chunks 0-2 plays first).
    REQUIRE(QTest::qWaitFor(
        [&] {
            window.refreshCounters();
            return engine->liveMetrics().chunkCount() == 3 &&
                   window.windowTitle().contains(QStringLiteral("STALLED")) &&
                   !hudStall().isEmpty() &&
                   counters->valueText(CountersPanel::Row::SimulatedUnderruns)
                       .contains(QStringLiteral("in progress"));
        },
        20000));

    // One moment: a refresh, then every surface read with no event processed in between.
    window.refreshCounters();
    chart->flush();
    const QString title = window.windowTitle();
    const QString banner = window.bannerText();
    const QString hud = hudStall();
    const QStringList chart_labels = chart->outlierLabels();
    const QString underruns = counters->valueText(CountersPanel::Row::SimulatedUnderruns);
    const QString stall = counters->valueText(CountersPanel::Row::SimulatedStall);
    INFO("title: " << title.toStdString() << "\nbanner: " << banner.toStdString()
                   << "\nHUD: " << hud.toStdString()
                   << "\nchart: " << chart_labels.join(QStringLiteral(" | ")).toStdString()
                   << "\nunderruns: " << underruns.toStdString()
                   << "\ntotal stall: " << stall.toStdString());

    const QRegularExpression in_title(
        QStringLiteral("STALLED: waiting for chunk 3 — (\\d+\\.\\d s|\\d+ ms) — "));
    const auto match = in_title.match(title);
    REQUIRE(match.hasMatch());
    const QString wait = match.captured(1);
    CHECK(
        banner.startsWith(QStringLiteral("Waiting for chunk 3 — %1 (deadline 750 ms).").arg(wait)));
    // How long the silence may last, in figures (startOnSimulator's chunk timeout is 30 s).
    CHECK(banner.endsWith(QStringLiteral(
        "Nothing has arrived since chunk 2; the session ends after 30.0 s of silence (the chunk "
        "timeout).")));
    CHECK(hud == QStringLiteral("STALLED: waiting for chunk 3 — %1").arg(wait));
    CHECK(chart_labels.contains(QStringLiteral("waiting %1").arg(wait)));
    // The simulated viewer's stall is part of that wait, and the counter says so.
    const QRegularExpression in_counter(QStringLiteral(
        " \\+ 1 in progress · at chunk 3 · stalled (\\d+\\.\\d s|\\d+ ms) of (.+)$"));
    const auto counter_match = in_counter.match(underruns);
    REQUIRE(counter_match.hasMatch());
    CHECK(counter_match.captured(2) == wait);
    CHECK(stall.contains(QStringLiteral("+ %1 in progress").arg(counter_match.captured(1))));

    // At 1280x720 the counters, with the stall's long figures and the quality rows, read
    // whole: the column does not scroll.
    QCoreApplication::processEvents();
    for (QDockWidget* dock : window.docks()) {
        if (dock->objectName() == QStringLiteral("CountersDock")) {
            auto* scroll = qobject_cast<QScrollArea*>(dock->widget());
            REQUIRE(scroll);
            INFO("counters: " << scroll->widget()->height() << " px of rows in a "
                              << scroll->viewport()->height() << " px column");
            CHECK_FALSE(scroll->verticalScrollBar()->isVisible());
        }
    }

    engine->abort(QStringLiteral("the test read the stall"));
    REQUIRE(QTest::qWaitFor([&] { return engine->result().has_value(); }, 10000));
}
