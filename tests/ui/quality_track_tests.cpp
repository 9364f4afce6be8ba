// The quality track as a user sees it: one column per analysed chunk with each signal as a
// multiple of its threshold, badges where the analysis flagged, a click on a chunk asks to
// show it, and under a latency chart it keeps the chart's chunk range and plot edges. Real
// data come from a kept simulator session with seam@6 freeze@10 blur@14 tint@18.

#include "kept_session.h"
#include "metrics/live_session_metrics.h"
#include "ui/latency_chart.h"
#include "ui/latency_chart_model.h"
#include "ui/quality_signals.h"
#include "ui/quality_track.h"

#include <QAbstractAxis>
#include <QAbstractScrollArea>
#include <QChart>
#include <QJsonValue>
#include <QSignalSpy>
#include <QTest>
#include <QVBoxLayout>

#include <catch2/catch.hpp>

using lbm::quality::ChunkQuality;
using lbm::quality::QualityFlag;
using lbm::ui::QualityTrack;
using lbm::ui::QualityTrackItem;

namespace {

// A clean chunk with ordinary signals.
ChunkQuality cleanChunk(qint64 index) {
    ChunkQuality chunk;
    chunk.generation_index = index;
    chunk.frame_count = index == 0 ? 9 : 12;
    if (index > 0) {
        chunk.seam_score = 1.0;
        chunk.boundary_change = 1.5;
    }
    chunk.sharpness_ratio = 1.0;
    chunk.chroma_drift = 0.5;
    chunk.is_final = true;
    return chunk;
}

const QualityTrackItem::Column* columnFor(const QualityTrack& track, qint64 chunk) {
    for (const auto& column : track.plottedColumns()) {
        if (column.first_chunk <= chunk && chunk <= column.last_chunk) {
            return &column;
        }
    }
    return nullptr;
}

qint64 firstColumnWith(const QualityTrack& track, QualityFlag flag) {
    for (const auto& column : track.plottedColumns()) {
        if (column.flags.testFlag(flag)) {
            return column.first_chunk;
        }
    }
    return -1;
}

} // namespace

TEST_CASE("the quality track draws the faulted session's flags at their chunks",
          "[ui][quality][track][kept-acceptance]") {
    const auto& session = lbm::ui::test::acceptanceSession();
    INFO(session.warnings.join(QLatin1Char('\n')).toStdString());
    REQUIRE(session.quality.size() == 24);
    QualityTrack track;
    track.resize(1100, 260);
    track.setChunks(session.quality);
    track.flush();
    REQUIRE(track.plottedColumnCount() == 24);
    // The whole session across the plot: chunks 0..23.
    CHECK(track.visibleAxisRange() == std::pair{-0.5, 23.5});

    const auto* seam = columnFor(track, 6);
    REQUIRE(seam != nullptr);
    CHECK(seam->flags.testFlag(QualityFlag::Seam));
    CHECK(seam->seam_kind == QualityTrackItem::SeamKind::Flagged);
    CHECK(seam->seam.value_or(0) >= 1.0);
    // Drawn off the scale (the cap is 3x), so the bar carries its value.
    CHECK(track.levelCap() == 3.0);
    CHECK(firstColumnWith(track, QualityFlag::Seam) == 6);
    CHECK(firstColumnWith(track, QualityFlag::Freeze) == 10);
    CHECK(columnFor(track, 10)->freeze >= 1.0);
    const qint64 blur = firstColumnWith(track, QualityFlag::Blur);
    CHECK((blur >= 14 && blur <= 15));
    CHECK(columnFor(track, blur)->blur >= 1.0);
    const qint64 tint = firstColumnWith(track, QualityFlag::Tint);
    REQUIRE(tint >= 0);
    CHECK((tint >= 18 && tint <= 19));
    CHECK(columnFor(track, tint)->tint >= 1.0);
    for (qint64 chunk = 0; chunk < 6; ++chunk) {
        INFO("chunk " << chunk);
        CHECK_FALSE(columnFor(track, chunk)->flags);
        // Inside the transition the look changes on purpose (drawn faded, never flagged).
        if (!columnFor(track, chunk)->in_transition) {
            CHECK(columnFor(track, chunk)->blur < 1.0);
            CHECK(columnFor(track, chunk)->tint < 1.0);
        }
    }
    // The K=3 transition is shaded as expected change from the chunk it started at (chunk 2
    // on an idle machine; a loaded one can land the prompt a chunk later), the lines faded.
    qint64 started = -1;
    for (const QJsonValue& record : session.interactions) {
        if (record[QStringLiteral("event_id")].toString() == QStringLiteral("chunk-0")) {
            started = record[QStringLiteral("started_chunk")].toInteger(-1);
        }
    }
    INFO("the workload's prompt started at chunk " << started);
    REQUIRE(started >= 1);
    CHECK(columnFor(track, started)->in_transition);
    CHECK_FALSE(columnFor(track, started - 1)->in_transition);
    // The summary counts every flag; the tooltip gives the real numbers.
    CHECK(track.summaryText().contains(QStringLiteral("24 chunks analysed")));
    CHECK(track.summaryText().contains(QStringLiteral("seam 1")));
    CHECK(track.summaryText().contains(QStringLiteral("freeze 1")));
    CHECK(track.describeChunk(6).contains(QStringLiteral("flagged: seam")));
    CHECK(track.describeChunk(6).contains(QStringLiteral("seam score")));
    CHECK(track.legendText().contains(QStringLiteral("flag&nbsp;at&nbsp;1")));
    // A hatched (excused) seam bar, when one is drawn, has its legend entry.
    bool excused = false;
    for (const auto& column : track.plottedColumns()) {
        excused = excused || column.seam_kind == lbm::ui::QualityTrackItem::SeamKind::Excused;
    }
    CHECK(track.legendText().contains(QStringLiteral("hatched:")) == excused);
}

TEST_CASE("adding chunks one at a time updates the quality track in coalesced redraws",
          "[ui][quality][track]") {
    QualityTrack track;
    track.resize(900, 240);
    track.flush();
    const int redraws_before = track.redrawCount();
    for (qint64 i = 0; i < 30; ++i) {
        ChunkQuality chunk = cleanChunk(i);
        if (i == 12) {
            chunk.seam_score = 6.0; // twice the threshold
            chunk.flags = QualityFlag::Seam;
        }
        if (i == 20) {
            chunk.frozen_frames = 3; // near the freeze threshold of 4, not over it
            chunk.motion_expected = true;
        }
        if (i == 21) {
            // Repeats under a still camera over a still scene: no freeze, not drawn as one.
            chunk.frozen_frames = 12;
            chunk.motion_expected = false;
        }
        track.addChunk(chunk);
    }
    // A burst of chunks costs one redraw.
    REQUIRE(QTest::qWaitFor([&] { return track.plottedColumnCount() == 30; }, 2000));
    CHECK(track.redrawCount() - redraws_before == 1);
    CHECK(columnFor(track, 12)->seam == Approx(2.0));
    CHECK(columnFor(track, 12)->seam_kind == QualityTrackItem::SeamKind::Flagged);
    CHECK(columnFor(track, 11)->seam == Approx(1.0 / 3.0));
    CHECK(columnFor(track, 11)->seam_kind == QualityTrackItem::SeamKind::Normal);
    CHECK(columnFor(track, 20)->freeze == Approx(0.75));
    CHECK(columnFor(track, 21)->freeze == 0.0);
    CHECK(track.levelCap() == 2.0);

    // A later result for chunk 12 (a transition judged one chunk later) replaces it.
    ChunkQuality revised = cleanChunk(12);
    revised.flags = QualityFlag::Transition;
    track.addChunk(revised);
    track.flush();
    CHECK(track.chunkCount() == 30);
    CHECK(columnFor(track, 12)->flags == lbm::quality::QualityFlags(QualityFlag::Transition));

    // A long session decimates to about one column per pixel and keeps every flag.
    std::vector<ChunkQuality> many;
    for (qint64 i = 0; i < 3000; ++i) {
        many.push_back(cleanChunk(i));
    }
    many[2222].flags = QualityFlag::Tint;
    many[2222].chroma_drift = 9.0;
    track.setChunks(many);
    track.flush();
    CHECK(track.plottedColumnCount() <= 800);
    CHECK(track.plottedColumnCount() >= 700);
    const qint64 tint = firstColumnWith(track, QualityFlag::Tint);
    REQUIRE(tint >= 0);
    CHECK(columnFor(track, tint)->last_chunk >= 2222);
    CHECK(columnFor(track, 2222)->tint == Approx(9.0 / 4.0));
    CHECK(track.summaryText().contains(QStringLiteral("chunks per column")));
}

TEST_CASE("a click on a chunk of the quality track emits chunkClicked with that chunk",
          "[ui][quality][track]") {
    QualityTrack track;
    track.resize(1000, 260);
    std::vector<ChunkQuality> chunks;
    for (qint64 i = 0; i < 20; ++i) {
        chunks.push_back(cleanChunk(i));
    }
    track.setChunks(chunks);
    track.show();
    REQUIRE(QTest::qWaitForWindowExposed(&track));
    track.flush();
    QSignalSpy clicked(&track, &QualityTrack::chunkClicked);
    auto* viewport = qobject_cast<QAbstractScrollArea*>(track.chartView())->viewport();
    for (const qint64 chunk : {qint64(3), qint64(14), qint64(19)}) {
        // On the column, well above its bar: the whole column counts.
        QTest::mouseClick(viewport, Qt::LeftButton, Qt::NoModifier,
                          track.viewPositionOf(chunk, 1.2));
        REQUIRE(clicked.count() == 1);
        CHECK(clicked.takeFirst().at(0).toLongLong() == chunk);
    }
    // A drag is not a click.
    const QPoint from = track.viewPositionOf(5, 0.5);
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, from);
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, from + QPoint(40, 0));
    CHECK(clicked.isEmpty());
}

TEST_CASE("under a latency chart the quality track keeps its chunk range and plot edges",
          "[ui][quality][track]") {
    QWidget column;
    auto* layout = new QVBoxLayout(&column);
    lbm::LiveSessionMetrics metrics{lbm::MetricsOptions{}};
    auto* chart = new lbm::ui::LatencyChart();
    chart->model()->attach(&metrics, 0);
    auto* track = new QualityTrack();
    layout->addWidget(chart);
    layout->addWidget(track);
    column.resize(1100, 640);
    track->syncWith(chart);
    chart->setWindowChunks(40);
    chart->setFollow(true);
    double t = 0;
    for (qint64 i = 0; i < 100; ++i) {
        lbm::ChunkRecord record;
        record.index = i;
        t += 0.7;
        record.arrival_s = t;
        record.inter_arrival_s = 0.7;
        record.num_frames = i == 0 ? 9 : 12;
        record.byte_length = 1000;
        metrics.addRecord(record);
        chart->model()->chunkAdded();
        track->addChunk(cleanChunk(i));
    }
    chart->model()->addEventMark({lbm::ui::ChartEventMark::Kind::Started,
                                  lbm::ui::ChartEventMark::Subject::Prompt, 80.0,
                                  QStringLiteral("prompt started: Snow")});
    column.show();
    REQUIRE(QTest::qWaitForWindowExposed(&column));
    chart->flush();
    track->flush();
    // Following the latest 40 chunks: 60..99, as the chart shows them.
    CHECK(track->visibleAxisRange() == std::pair{59.5, 99.5});
    CHECK(track->plottedColumnCount() == 40);
    CHECK(track->plottedEventMarkCount() == 1);
    // The same chunk sits at the same screen x in both.
    const auto same_x = [&](qint64 chunk) {
        const QWidget* chart_view = chart->chartView();
        const int chart_x = qobject_cast<const QAbstractScrollArea*>(chart_view)
                                ->viewport()
                                ->mapToGlobal(chart->viewPositionOf(chunk, 100.0))
                                .x();
        const int track_x = qobject_cast<const QAbstractScrollArea*>(track->chartView())
                                ->viewport()
                                ->mapToGlobal(track->viewPositionOf(chunk, 0.5))
                                .x();
        INFO("chunk " << chunk << ": chart x " << chart_x << ", track x " << track_x);
        return std::abs(chart_x - track_x) <= 1;
    };
    REQUIRE(QTest::qWaitFor([&] { return same_x(60) && same_x(99); }, 3000));

    // The whole session, then a zoom, follow too.
    chart->setFollow(false);
    chart->flush();
    track->flush();
    CHECK(track->visibleAxisRange() == std::pair{-0.5, 99.5});
    CHECK(track->plottedColumnCount() == 100);
    REQUIRE(QTest::qWaitFor([&] { return same_x(0) && same_x(99); }, 3000));
    chart->chart()->axes(Qt::Horizontal).value(0)->setRange(19.5, 49.5);
    track->flush();
    CHECK(track->visibleAxisRange() == std::pair{19.5, 49.5});
    CHECK(track->plottedColumnCount() == 30);
}

// The CTest fixture that runs the acceptance session once for every [kept-acceptance] case
// (tests/ui/CMakeLists.txt); hidden, so only that entry runs it.
TEST_CASE("the acceptance session is kept for the cases that read it", "[.keep-acceptance]") {
    lbm::ui::test::keepAcceptanceSession();
}
