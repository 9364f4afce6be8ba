// The monitor's panels as a user sees them: the chart holds one bar per chunk and stays
// windowed, the counters say what lbm_metrics says, invalid form values block a session
// with their reason, and the key pad maps keys to the protocol's velocities.

#include "app/protocol/camera_keys.h"
#include "metrics/geometry.h"
#include "metrics/live_session_metrics.h"
#include "metrics/playback_simulator.h"
#include "metrics/session_metrics.h"
#include "ui/count_text.h"
#include "ui/counters_panel.h"
#include "ui/key_pad.h"
#include "ui/latency_chart.h"
#include "ui/latency_chart_model.h"
#include "ui/prompt_panel.h"
#include "ui/recording_frames.h"
#include "ui/session_form.h"
#include "ui/session_status.h"

#include <QDir>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using lbm::ChunkRecord;
using lbm::ui::CountersPanel;

namespace {

// A session whose chunks come every base_ms with every seventh one late by 40%.
std::vector<ChunkRecord> makeRecords(int count, double base_ms) {
    std::vector<ChunkRecord> records;
    double t = 0.0;
    for (int i = 0; i < count; ++i) {
        ChunkRecord record;
        record.index = i;
        const double interval_s = i == 0 ? 1.5 : (i % 7 == 0 ? base_ms * 1.4 : base_ms) / 1000.0;
        t += interval_s;
        record.arrival_s = t;
        record.inter_arrival_s = interval_s;
        record.num_frames = lbm::pixelFramesInChunk(i);
        record.byte_length = 40000 + i;
        records.push_back(record);
    }
    return records;
}

QString ms(double value) {
    return QStringLiteral("%1 ms").arg(value, 0, 'f', 1);
}

// The chart following a live session: a metrics model that grows chunk by chunk.
struct LiveChart {
    explicit LiveChart(lbm::MetricsOptions options = {})
        : metrics(options) {
        chart.model()->attach(&metrics, 0);
    }
    void append(const ChunkRecord& record) {
        metrics.addRecord(record);
        chart.model()->chunkAdded();
    }
    lbm::LiveSessionMetrics metrics;
    lbm::ui::LatencyChart chart;
};

} // namespace

TEST_CASE("the latency chart draws one bar per chunk and colours late ones", "[ui][chart]") {
    LiveChart live; // 16 fps: a 750 ms deadline, 6 warmup chunks
    auto& chart = live.chart;
    chart.resize(1000, 400);
    chart.setFollow(false);
    const auto records = makeRecords(40, 700.0);
    for (const auto& record : records) {
        live.append(record);
    }
    chart.flush();
    CHECK(chart.chunkCount() == 40);
    CHECK(chart.plottedChunkCount() == 40);
    CHECK(chart.plottedBarCount() == 40);
    // Chunks 7, 14, 21, 28, 35 came 980 ms after the previous one: over 750 ms.
    CHECK(chart.lateChunkCount() == 5);
}

TEST_CASE("appends are coalesced into one redraw per tick", "[ui][chart]") {
    LiveChart live;
    auto& chart = live.chart;
    chart.flush();
    const int before = chart.redrawCount();
    for (const auto& record : makeRecords(200, 700.0)) {
        live.append(record);
    }
    CHECK(chart.redrawCount() == before);
    REQUIRE(QTest::qWaitFor([&] { return chart.redrawCount() > before; }, 1000));
    CHECK(chart.redrawCount() <= before + 2);
    CHECK(chart.plottedChunkCount() == 120); // the followed window
}

TEST_CASE("the chunk in flight grows without redrawing the chart, clipped past the axis",
          "[ui][chart]") {
    LiveChart live;
    auto& chart = live.chart;
    chart.resize(1000, 400);
    chart.show();
    for (const auto& record : makeRecords(10, 700.0)) {
        live.append(record);
    }
    using Waiting = lbm::ui::LatencyChartModel::Waiting;
    using Kind = lbm::ui::LatencyBarsItem::Kind;
    chart.model()->setWaiting(Waiting{10, 100.0}); // a new chunk awaited: a full redraw
    chart.flush();
    REQUIRE(chart.drawnBars().size() == 11);
    CHECK(chart.drawnBars().back().kind == Kind::Waiting);
    CHECK(chart.legendText().contains(QStringLiteral("chunk&nbsp;in&nbsp;flight")));
    // The window's 10 Hz tick: only the last bar changes while its colour stays.
    int redraws = chart.redrawCount();
    const double axis_top = chart.valueAxisTopMs();
    chart.model()->setWaiting(Waiting{10, 300.0});
    CHECK(chart.drawnBars().back().value_ms == 300.0);
    CHECK_FALSE(chart.redrawPending());
    // Amber past 80 % of the deadline, red past it: each change of colour redraws once, so the
    // legend names the colour the bar has (it showed an amber "chunk in flight" beside a red
    // bar, and no "late" entry at all, during a stall).
    chart.model()->setWaiting(Waiting{10, 650.0});
    chart.flush();
    CHECK(chart.drawnBars().back().kind == Kind::InFlight);
    CHECK(chart.legendText().contains(
        QStringLiteral("chunk&nbsp;in&nbsp;flight,&nbsp;near&nbsp;the&nbsp;deadline")));
    CHECK_FALSE(chart.summaryText().contains(QStringLiteral("in flight")));
    chart.model()->setWaiting(Waiting{10, 800.0});
    chart.flush();
    CHECK(chart.drawnBars().back().kind == Kind::Late);
    CHECK(chart.legendText().contains(QStringLiteral("chunk&nbsp;in&nbsp;flight,&nbsp;late")));
    CHECK(chart.redrawCount() == redraws + 2);
    // Late before it lands: the header says so, beside the landed chunks' count (chunk 7 late).
    CHECK(chart.summaryText().contains(QStringLiteral("late 1 of 9")));
    CHECK(chart.summaryText().contains(QStringLiteral("chunk 10 late, in flight")));
    // A stall: the axis keeps the steady chunks' scale, the bar is clipped and labelled.
    redraws = chart.redrawCount();
    chart.model()->setWaiting(Waiting{10, 5000.0});
    CHECK(chart.drawnBars().back().value_ms == 5000.0);
    CHECK(chart.outlierLabels() == QStringList{QStringLiteral("waiting 5.0 s")});
    // Nothing redrawn, nothing scheduled to be.
    CHECK(chart.redrawCount() == redraws);
    CHECK_FALSE(chart.redrawPending());
    CHECK(chart.valueAxisTopMs() == axis_top);
    // The chunk lands: the bar becomes the chunk's own.
    chart.model()->setWaiting(std::nullopt);
    chart.flush();
    CHECK(chart.drawnBars().size() == 10);
    CHECK(chart.outlierLabels().isEmpty());
    CHECK_FALSE(chart.summaryText().contains(QStringLiteral("in flight")));
}

TEST_CASE("a 4000-chunk session redraws in windowed and whole-session views", "[ui][chart]") {
    lbm::ui::LatencyChart chart;
    chart.resize(1200, 400);
    chart.show();
    chart.model()->showRecords(makeRecords(4000, 700.0), {}, 4000);
    chart.setWindowChunks(100);
    chart.flush();
    CHECK(chart.plottedChunkCount() == 100);

    chart.setFollow(false);
    chart.flush();
    CHECK(chart.plottedChunkCount() == 4000);
    // Neighbours merge so that a redraw never draws thousands of bars.
    CHECK(chart.plottedBarCount() <= 800);
    // What a redraw costs at 5,000 chunks against 50 is measured by benchmarks/ui.
}

TEST_CASE("event and stall marks are kept", "[ui][chart]") {
    lbm::ui::LatencyChart chart;
    // At 16 fps chunk 0 plays for 562.5 ms, so chunk 1, 700 ms later, stalls the viewer.
    chart.model()->showRecords(makeRecords(10, 700.0), {}, 10);
    using Mark = lbm::ui::ChartEventMark;
    chart.model()->addEventMark(
        {Mark::Kind::Sent, Mark::Subject::Prompt, 3.5, QStringLiteral("prompt")});
    chart.model()->addEventMark(
        {Mark::Kind::Started, Mark::Subject::Prompt, 5, QStringLiteral("prompt")});
    chart.flush();
    CHECK(chart.eventMarkCount() == 2);
    CHECK(chart.stallMarkCount() == 1);
    // The report picture: the whole session under a title and the legend.
    const QImage image =
        chart.reportImage(QStringLiteral("run-1 · ws://h · 2026-12-03"), QSize(1280, 480));
    CHECK(image.width() == 1280);
    CHECK(image.height() > 480); // the header band above the chart
    CHECK(chart.legendText().contains(QStringLiteral("simulated&nbsp;viewer&nbsp;stall")));
}

TEST_CASE("the counters show computeMetrics and the simulator after every chunk",
          "[ui][counters]") {
    CountersPanel panel;
    const auto records = makeRecords(24, 780.0);
    panel.reset(24, lbm::numFramesForChunks(24), 750.0);
    lbm::LivePlaybackSimulator simulator(16.0, 1);
    lbm::MetricsOptions options;
    options.fps = 16.0;
    std::vector<ChunkRecord> so_far;
    for (const auto& record : records) {
        so_far.push_back(record);
        simulator.addRecord(record);
        options.ttfc_s = so_far.front().arrival_s;
        options.session_wall_s = record.arrival_s;
        const auto metrics = lbm::computeMetrics(so_far, options);
        panel.showMetrics(metrics, false);
        panel.showSimulatedPlayback(simulator.result(),
                                    simulator.bufferedAheadSeconds(record.arrival_s), false);
        const auto batch = lbm::simulatePlayback(so_far, 16.0, 1);
        REQUIRE(panel.valueText(CountersPanel::Row::SimulatedUnderruns) ==
                QString::number(batch.underrun_count));
        REQUIRE(panel.valueText(CountersPanel::Row::SimulatedStall)
                    .startsWith(ms(batch.totalStallMs())));
        CHECK(panel.valueText(CountersPanel::Row::Chunks)
                  .startsWith(QStringLiteral("%1 / 24").arg(so_far.size())));
        CHECK(panel.valueText(CountersPanel::Row::Ttfc) == ms(*metrics.ttfc_ms));
    }
    const auto final_metrics = lbm::computeMetrics(records, options);
    REQUIRE(final_metrics.slo_attainment.has_value());
    CHECK(panel.valueText(CountersPanel::Row::SloAttainment)
              .contains(
                  QStringLiteral("(%1%)").arg(*final_metrics.slo_attainment * 100.0, 0, 'f', 1)));
    // Which chunks those are: after the warmup, up to the one before the newest.
    CHECK(panel.valueText(CountersPanel::Row::SloAttainment)
              .contains(QStringLiteral("steady chunks %1–%2")
                            .arg(final_metrics.warmup_chunks)
                            .arg(static_cast<int>(records.size()) - 2)));
    // 780 ms chunks are late against 750 ms: the steady numbers are red.
    CHECK(panel.level(CountersPanel::Row::SteadyInterval) == CountersPanel::Level::Bad);
    CHECK(panel.level(CountersPanel::Row::SimulatedUnderruns) == CountersPanel::Level::Bad);
    CHECK(panel.valueText(CountersPanel::Row::VideoRtf)
              .startsWith(QString::number(final_metrics.video_rtf, 'f', 3)));
}

TEST_CASE("a stall too short for one decimal is not 0.0% of the span and the SLO range stays whole",
          "[ui][counters]") {
    CountersPanel panel;
    lbm::PlaybackResult result;
    result.underrun_count = 1;
    result.total_stall_s = 0.0051; // 5.1 ms of a 12 s span: 0.04%
    result.playback_span_s = 12.0;
    result.first_underrun_chunk = 1;
    panel.showSimulatedPlayback(result, 1.0, false, std::nullopt, std::nullopt, false);
    const QString stall = panel.valueText(CountersPanel::Row::SimulatedStall);
    CHECK(stall.endsWith(QStringLiteral("<0.1% of the span")));
    CHECK(panel.level(CountersPanel::Row::SimulatedStall) == CountersPanel::Level::Bad);
    // While a stall is still open the finished stalls' share would understate it: left out.
    panel.showSimulatedPlayback(result, 0.0, true, lbm::ProvisionalUnderrun{2, 2.6}, 3.9, false);
    CHECK_FALSE(panel.valueText(CountersPanel::Row::SimulatedStall)
                    .contains(QStringLiteral("of the span")));
    CHECK(panel.valueText(CountersPanel::Row::SimulatedStall)
              .contains(QStringLiteral("in progress")));
    result.total_stall_s = 0.6; // 5%: one decimal as before
    panel.showSimulatedPlayback(result, 1.0, false, std::nullopt, std::nullopt, false);
    CHECK(panel.valueText(CountersPanel::Row::SimulatedStall)
              .endsWith(QStringLiteral("5.0% of the span")));
    result.total_stall_s = 0.0;
    result.underrun_count = 0;
    result.first_underrun_chunk.reset();
    panel.showSimulatedPlayback(result, 1.0, false, std::nullopt, std::nullopt, false);
    CHECK(panel.valueText(CountersPanel::Row::SimulatedStall)
              .endsWith(QStringLiteral("0.0% of the span")));

    // The SLO value's parts are short enough to be kept whole: "steady chunks 6–14" never
    // breaks at its dash, and the deadline is the counters' own.
    panel.reset(16, lbm::numFramesForChunks(16), 750.0);
    lbm::MetricsOptions options;
    options.fps = 16.0;
    panel.showMetrics(lbm::computeMetrics(makeRecords(16, 780.0), options), false);
    const QString slo = panel.valueText(CountersPanel::Row::SloAttainment);
    INFO(slo.toStdString());
    const QStringList parts = slo.split(QStringLiteral(" · "));
    REQUIRE(parts.size() == 2);
    CHECK(parts[0].contains(QStringLiteral("≤ 750 ms (")));
    CHECK(parts[1].startsWith(QStringLiteral("steady chunks ")));
    for (const QString& part : parts) {
        CHECK(part.size() <= 24);
    }
}

TEST_CASE("an invalid form value blocks the session with its reason", "[ui][form]") {
    lbm::ui::SessionForm form;
    CHECK(form.validate().isEmpty());
    CHECK_NOTHROW(form.workload());

    form.setPrompt(QStringLiteral("   "));
    const QString reason = form.validate();
    CHECK_FALSE(reason.isEmpty());
    CHECK(reason.contains(QStringLiteral("prompt")));
    CHECK_THROWS(form.workload());

    form.setPrompt(QStringLiteral("A snowy street"));
    CHECK(form.validate().isEmpty());
    form.setTargetFps(0.0);
    CHECK(form.validate() == QStringLiteral("--target-fps must be positive."));
    form.setTargetFps(16.0);

    form.setUseSimulator(false);
    form.setServerUrlText(QStringLiteral("not a url"));
    CHECK_FALSE(form.validate().isEmpty());
    form.setServerUrlText(QStringLiteral("http://127.0.0.1:8000"));
    CHECK(form.validate().isEmpty());
    CHECK(form.serverUrl().toString() == QStringLiteral("ws://127.0.0.1:8000/v1/realtime/video"));

    form.setImagePath(QStringLiteral("/nonexistent/picture.png"));
    CHECK(form.validate().contains(QStringLiteral("/nonexistent/picture.png")));
}

TEST_CASE("the form's chunk count gives the seed's num_frames", "[ui][form]") {
    lbm::ui::SessionForm form;
    form.setChunks(7);
    REQUIRE(form.validate().isEmpty());
    CHECK(form.workload().numFrames() == 81);
    CHECK(form.deadlineMs() == Approx(750.0));
}

TEST_CASE("a count of chunks reads '1 chunk' and 'N chunks', never 'chunk(s)'", "[ui][form]") {
    using lbm::ui::chunkCountText;
    CHECK(chunkCountText(0) == QStringLiteral("0 chunks"));
    CHECK(chunkCountText(1) == QStringLiteral("1 chunk"));
    CHECK(chunkCountText(3) == QStringLiteral("3 chunks"));
    lbm::ui::PromptPanel panel;
    QSpinBox* transition = nullptr;
    for (QSpinBox* box : panel.findChildren<QSpinBox*>()) {
        if (box->toolTip().startsWith(QStringLiteral("transition_chunks"))) {
            transition = box;
        }
    }
    REQUIRE(transition != nullptr);
    transition->setValue(1);
    CHECK(transition->text() == QStringLiteral("over 1 chunk"));
    transition->setValue(4);
    CHECK(transition->text() == QStringLiteral("over 4 chunks"));
}

TEST_CASE("a kept session's folder is shown with the home directory as ~", "[ui][status]") {
    using lbm::ui::displayedFolder;
    const QString home = QDir::homePath();
    const QString kept = home + QStringLiteral("/.local/share/lingbot-monitor/sessions/a");
    CHECK(displayedFolder(kept) == QStringLiteral("~/.local/share/lingbot-monitor/sessions/a"));
    CHECK(displayedFolder(home) == QStringLiteral("~"));
    // Only the whole home directory: a sibling that starts with its name is left whole.
    CHECK(displayedFolder(home + QStringLiteral("2/sessions")) ==
          home + QStringLiteral("2/sessions"));
    CHECK(displayedFolder(QStringLiteral("/srv/sessions/a")) == QStringLiteral("/srv/sessions/a"));
    CHECK(
        lbm::ui::liveStatusFor(QStringLiteral("simulator"), kept) ==
        QStringLiteral("Session on simulator, kept in ~/.local/share/lingbot-monitor/sessions/a."));
}

TEST_CASE("the form's chunk counts read '1 chunk' and '2 chunks'", "[ui][form]") {
    lbm::ui::SessionForm form;
    const auto startBufferText = [&form] {
        for (const QSpinBox* box : form.findChildren<QSpinBox*>()) {
            if (box->value() == form.startBufferChunks() &&
                box->toolTip().startsWith(QStringLiteral("Chunks buffered"))) {
                return box->text();
            }
        }
        return QString();
    };
    form.setStartBufferChunks(1);
    CHECK(startBufferText() == QStringLiteral("1 chunk"));
    form.setStartBufferChunks(2);
    CHECK(startBufferText() == QStringLiteral("2 chunks"));
}

TEST_CASE("the key pad shows held keys and its clicks map to the protocol's velocity",
          "[ui][keys]") {
    lbm::ui::KeyPad pad;
    QSignalSpy clicked(&pad, &lbm::ui::KeyPad::keysClicked);
    pad.setHeld(lbm::protocol::CameraKeys::fromLetters(QStringLiteral("wl")));
    CHECK(pad.held().letters() == QStringLiteral("wl"));
    CHECK(clicked.isEmpty());
    pad.setHeld({});
    const auto buttons = pad.findChildren<QToolButton*>();
    QToolButton* i_key = nullptr;
    for (QToolButton* button : buttons) {
        if (button->text() == QStringLiteral("I")) {
            i_key = button;
        }
    }
    REQUIRE(i_key != nullptr);
    QTest::mouseClick(i_key, Qt::LeftButton);
    REQUIRE(clicked.count() == 1);
    const auto keys = clicked.first().at(0).value<lbm::protocol::CameraKeys>();
    const auto velocity = lbm::protocol::velocityForKeys(keys, 1.0);
    // protocol.md: i alone -> [0.0348995, 0, 0, 0.9993908].
    CHECK(velocity.rotation[0] == Approx(0.0348995).margin(1e-6));
    CHECK(velocity.rotation[3] == Approx(0.9993908).margin(1e-6));
}

TEST_CASE("the prompt panel validates and schedules", "[ui][prompt]") {
    lbm::ui::PromptPanel panel;
    QSignalSpy sent(&panel, &lbm::ui::PromptPanel::sendRequested);
    panel.setPrompt(QStringLiteral("A snowy street"));
    panel.send();
    CHECK(sent.isEmpty()); // no session yet
    panel.setSessionActive(true);
    panel.send();
    REQUIRE(sent.count() == 1);
    CHECK(sent.first().at(0).toString() == QStringLiteral("A snowy street"));
    CHECK(sent.first().at(1).toInt() == 3);

    lbm::session::InteractionRecord record;
    record.event_id = QStringLiteral("ui-1-abcdef01");
    record.kind = lbm::session::InteractionKind::Prompt;
    record.summary = QStringLiteral("A snowy street");
    record.sent_s = 1.0;
    panel.updateInteraction(record);
    CHECK(panel.stateText(record.event_id) == QStringLiteral("sent"));
    record.queued_s = 1.1;
    record.started_chunk = 4;
    panel.updateInteraction(record);
    CHECK(panel.stateText(record.event_id) == QStringLiteral("started at chunk 4"));
    record.completed_chunk = 6;
    panel.updateInteraction(record);
    CHECK(panel.stateText(record.event_id) == QStringLiteral("completed at chunk 6"));
    CHECK(panel.historyCount() == 1);
}

TEST_CASE("the chart's percentile lines are the counters' p50 / p99", "[ui][chart]") {
    LiveChart live;
    const auto records = makeRecords(30, 700.0);
    for (const auto& record : records) {
        live.append(record);
    }
    CountersPanel panel;
    panel.reset(30, lbm::numFramesForChunks(30), 750.0);
    const auto metrics = live.metrics.metrics(records.front().arrival_s, records.back().arrival_s);
    panel.showMetrics(metrics, false);
    const QString counters = panel.valueText(CountersPanel::Row::SteadyInterval);
    REQUIRE(live.chart.model()->percentilesAreSteady());
    CHECK(counters == QStringLiteral("%1 / %2").arg(ms(*live.chart.model()->percentileMs(0.5)),
                                                    ms(*live.chart.model()->percentileMs(0.99))));
}

TEST_CASE("the prompt history settles superseded, unanswered and never-applied prompts",
          "[ui][prompt]") {
    using lbm::session::TimelineEvent;
    using lbm::session::TimelineEventType;
    lbm::session::InteractionTimeline timeline;
    const auto apply = [&](TimelineEventType type, const char* id, std::optional<qint64> chunk) {
        TimelineEvent event;
        event.type = type;
        event.event_id = QString::fromLatin1(id);
        event.kind = lbm::session::InteractionKind::Prompt;
        event.detail = QStringLiteral("prompt %1").arg(event.event_id);
        event.chunk_index = chunk;
        timeline.apply(event);
    };
    apply(TimelineEventType::Sent, "a", std::nullopt);
    apply(TimelineEventType::Queued, "a", std::nullopt);
    apply(TimelineEventType::Started, "a", 2);
    apply(TimelineEventType::Sent, "b", std::nullopt);
    apply(TimelineEventType::Queued, "b", std::nullopt);
    apply(TimelineEventType::Started, "b", 3);
    apply(TimelineEventType::Sent, "late", std::nullopt);
    apply(TimelineEventType::Queued, "late", std::nullopt);
    apply(TimelineEventType::Sent, "silent", std::nullopt);
    lbm::ui::PromptPanel panel;
    panel.updateTimeline(timeline);
    CHECK(panel.stateText(QStringLiteral("a")) == QStringLiteral("superseded by b at chunk 3"));
    CHECK(panel.stateText(QStringLiteral("late")) == QStringLiteral("queued"));
    TimelineEvent ended;
    ended.type = TimelineEventType::SessionEnded;
    timeline.apply(ended);
    panel.updateTimeline(timeline);
    CHECK(panel.stateText(QStringLiteral("b")) ==
          QStringLiteral("started at chunk 3, unfinished when the session ended"));
    CHECK(panel.stateText(QStringLiteral("late")) ==
          QStringLiteral("queued, never applied: the session ended first"));
    CHECK(panel.stateText(QStringLiteral("silent")) ==
          QStringLiteral("unanswered: no reply by the end of the session"));
    CHECK(panel.historyCount() == 4);
}

TEST_CASE("a chunk step lands on a chunk's first frame, back to this chunk's start first",
          "[ui][player]") {
    lbm::ui::RecordingFrames frames;
    // The layout is known at once; the (missing) file fails later, on the worker.
    frames.open(QStringLiteral("/nonexistent/session.m4s"), {9, 12, 12});
    CHECK(frames.chunkStepTarget(0, +1) == 9);
    CHECK(frames.chunkStepTarget(5, +1) == 9);
    CHECK(frames.chunkStepTarget(9, +1) == 21);
    CHECK_FALSE(frames.chunkStepTarget(25, +1).has_value()); // past the last chunk
    CHECK(frames.chunkStepTarget(25, -1) == 21);             // this chunk's start first
    CHECK(frames.chunkStepTarget(21, -1) == 9);
    CHECK(frames.chunkStepTarget(3, -1) == 0);
    CHECK(frames.chunkStepTarget(0, -1) == 0); // chunk 0 is as far back as it goes
}
