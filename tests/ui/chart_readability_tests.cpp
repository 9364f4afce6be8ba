// The latency chart read from across a room: the chunk axis fits the session until it outgrows
// the followed window, the value axis is set by the steady chunks and the deadline (a 4 s TTFC
// and a 100 s stall are drawn clipped and labelled, not scaling everything else down to a line),
// and the percentile lines are named apart from the deadline even where they lie on it.

#include "metrics/geometry.h"
#include "metrics/live_session_metrics.h"
#include "ui/latency_chart.h"
#include "ui/latency_chart_model.h"

#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QLineSeries>
#include <QStringList>
#include <QTest>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <vector>

using lbm::ChunkRecord;

namespace {

// count chunks every interval_ms after a first chunk at ttfc_ms; stall_at's chunk (if any)
// comes stall_ms after the one before it.
std::vector<ChunkRecord> session(int count, double ttfc_ms, double interval_ms, int stall_at = -1,
                                 double stall_ms = 0.0) {
    std::vector<ChunkRecord> records;
    double t = 0.0;
    for (int i = 0; i < count; ++i) {
        const double gap_ms = i == 0 ? ttfc_ms : i == stall_at ? stall_ms : interval_ms;
        t += gap_ms / 1000.0;
        ChunkRecord record;
        record.index = i;
        record.arrival_s = t;
        record.inter_arrival_s = gap_ms / 1000.0;
        record.num_frames = lbm::pixelFramesInChunk(i);
        record.byte_length = 40000;
        records.push_back(record);
    }
    return records;
}

struct Size {
    int width;
    int height;
};

// The chart as the window lays it out at 1280x720 and 1920x1080 (about a third of the height).
const Size kSizes[] = {{1280, 260}, {1920, 380}};

} // namespace

TEST_CASE("the chunk axis fits the session until it outgrows the followed window", "[ui][chart]") {
    for (const Size size : kSizes) {
        lbm::LiveSessionMetrics metrics{lbm::MetricsOptions{}};
        lbm::ui::LatencyChart chart;
        chart.resize(size.width, size.height);
        chart.model()->attach(&metrics, 24);
        REQUIRE(chart.follow());
        REQUIRE(chart.windowChunks() == 120);
        for (const auto& record : session(24, 4000.0, 700.0)) {
            metrics.addRecord(record);
            chart.model()->chunkAdded();
        }
        chart.flush();
        // A 24-chunk session fills the plot, following or not.
        CHECK(chart.chunkAxisRange() == std::pair<double, double>(-0.5, 23.5));
        chart.setFollow(false);
        chart.flush();
        CHECK(chart.chunkAxisRange() == std::pair<double, double>(-0.5, 23.5));

        // Past the followed window it scrolls: the newest 10 chunks.
        chart.setFollow(true);
        chart.setWindowChunks(10);
        chart.flush();
        CHECK(chart.chunkAxisRange() == std::pair<double, double>(13.5, 23.5));
        CHECK(chart.plottedChunkCount() == 10);
    }
}

TEST_CASE(
    "a 4 s TTFC and a 100 s stall are clipped and labelled, and steady bars keep their height",
    "[ui][chart]") {
    for (const Size size : kSizes) {
        lbm::ui::LatencyChart chart;
        chart.resize(size.width, size.height);
        // 16 fps: a 750 ms deadline. Steady chunks at 700 ms, chunk 12 after a 100 s stall.
        chart.model()->showRecords(session(24, 4000.0, 700.0, 12, 100000.0), {}, 24);
        chart.setPercentilesVisible(true);
        chart.flush();
        const double top = chart.valueAxisTopMs();
        // The steady bars stand at least a quarter of the plot high (the deadline is on it).
        CHECK(700.0 / top >= 0.25);
        CHECK(top >= 750.0);
        CHECK(chart.outlierLabels() ==
              QStringList({QStringLiteral("TTFC 4.0 s"), QStringLiteral("\u2605 100.0 s")}));

        // Live, the stall is the chunk in flight: its wait is clipped and labelled too, and the
        // axis does not move while it grows.
        lbm::LiveSessionMetrics metrics{lbm::MetricsOptions{}};
        chart.model()->attach(&metrics, 24);
        for (const auto& record : session(12, 4000.0, 700.0)) {
            metrics.addRecord(record);
            chart.model()->chunkAdded();
        }
        chart.model()->setWaiting(lbm::ui::LatencyChartModel::Waiting{12, 2000.0});
        chart.flush();
        const double live_top = chart.valueAxisTopMs();
        CHECK(700.0 / live_top >= 0.25);
        chart.model()->setWaiting(lbm::ui::LatencyChartModel::Waiting{12, 100000.0});
        chart.flush();
        CHECK(chart.valueAxisTopMs() == live_top);
        CHECK(chart.outlierLabels() ==
              QStringList({QStringLiteral("TTFC 4.0 s"), QStringLiteral("waiting 100.0 s")}));
    }
}

TEST_CASE("the percentile lines are named apart from the deadline line", "[ui][chart]") {
    lbm::ui::LatencyChart chart;
    chart.resize(1280, 260);
    // Steady chunks exactly on the 750 ms deadline: p50, p95 and p99 lie on its line.
    chart.model()->showRecords(session(30, 1500.0, 750.0), {}, 30);
    chart.setPercentilesVisible(true);
    chart.flush();
    CHECK(chart.lineLabels() ==
          QStringList({QStringLiteral("deadline 750 ms"), QStringLiteral("p50 750 ms"),
                       QStringLiteral("p95 750 ms"), QStringLiteral("p99 750 ms")}));
    chart.setPercentilesVisible(false);
    chart.flush();
    CHECK(chart.lineLabels() == QStringList({QStringLiteral("deadline 750 ms")}));
}

TEST_CASE("the line labels stand right of the plot, off the newest bars", "[ui][chart]") {
    lbm::ui::LatencyChart chart;
    chart.resize(900, 300);
    chart.model()->showRecords(session(30, 1500.0, 700.0), {}, 30);
    chart.flush();
    chart.show();
    REQUIRE(QTest::qWaitForWindowExposed(&chart));
    auto* view = chart.findChild<QChartView*>();
    REQUIRE(view != nullptr);
    const QImage picture = view->grab().toImage();
    const QRectF plot = chart.chart()->plotArea();
    REQUIRE(plot.width() > 300);
    // The deadline's colour in the gutter right of the plot, level with the line (its label),
    // and the gutter as wide as the label needs.
    QColor deadline;
    for (QAbstractSeries* series : chart.chart()->series()) {
        if (series->name() == QStringLiteral("deadline")) {
            deadline = qobject_cast<QLineSeries*>(series)->pen().color();
        }
    }
    REQUIRE(deadline.isValid());
    const double scale = picture.devicePixelRatio();
    const QPoint line = view->mapFromScene(chart.chart()->mapToPosition(QPointF(0.0, 750.0)));
    const QPoint right_edge = view->mapFromScene(plot.topRight());
    int gutter_hits = 0;
    for (int x = right_edge.x() + 2; x < view->width(); ++x) {
        for (int y = std::max(0, line.y() - 6); y <= std::min(view->height() - 1, line.y() + 6);
             ++y) {
            const QColor pixel =
                picture.pixelColor(static_cast<int>(x * scale), static_cast<int>(y * scale));
            gutter_hits += std::abs(pixel.red() - deadline.red()) < 40 &&
                           std::abs(pixel.green() - deadline.green()) < 40 &&
                           std::abs(pixel.blue() - deadline.blue()) < 40;
        }
    }
    CHECK(gutter_hits > 10);
    CHECK(
        chart.width() - plot.right() >=
        QFontMetricsF(chart.chart()->font()).horizontalAdvance(QStringLiteral("deadline 750 ms")));
}

TEST_CASE("a stall's waiting label stays on screen beside the first chunk's TTFC label",
          "[ui][chart]") {
    // A 1280x720 window's chart: 24 chunks expected, so the bars are narrow and the TTFC label
    // of chunk 0 reaches several chunks to the right. The chunk in flight's wait is the live
    // figure: where the two would overlap, the TTFC label gives way.
    lbm::ui::LatencyChart chart;
    chart.resize(560, 240);
    lbm::LiveSessionMetrics metrics{lbm::MetricsOptions{}};
    chart.model()->attach(&metrics, 24);
    for (const auto& record : session(4, 1800.0, 640.0)) {
        metrics.addRecord(record);
        chart.model()->chunkAdded();
    }
    chart.model()->setWaiting(lbm::ui::LatencyChartModel::Waiting{4, 4000.0});
    chart.flush();
    chart.show();
    REQUIRE(QTest::qWaitForWindowExposed(&chart));
    chart.findChild<QChartView*>()->grab(); // one paint
    CHECK(chart.outlierLabels() ==
          QStringList({QStringLiteral("TTFC 1.8 s"), QStringLiteral("waiting 4.0 s")}));
    CHECK(chart.drawnOutlierLabels().contains(QStringLiteral("waiting 4.0 s")));
}
