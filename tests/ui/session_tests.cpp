// Whole sessions in the window against the in-process simulator on 127.0.0.1: the chart
// gets one bar per chunk, the counters equal computeMetrics and the simulator after every
// chunk, the frame on screen is the one the clock says, and prompt and key interactions
// produce their payloads and history states.

#include "app/protocol/camera_keys.h"
#include "app/report/quality_json.h"
#include "app/report/session_document.h"
#include "app/report/session_outcome.h"
#include "app/sim/frame_barcode.h"
#include "metrics/geometry.h"
#include "metrics/playback_simulator.h"
#include "metrics/session_metrics.h"
#include "ui/counters_panel.h"
#include "ui/latency_chart.h"
#include "ui/main_window.h"
#include "ui/prompt_panel.h"
#include "ui/scrub_bar.h"
#include "ui/session_form.h"
#include "ui/video_view.h"
#include "window_test_support.h"

#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <catch2/catch.hpp>

#include <optional>

using lbm::ui::CountersPanel;
using lbm::ui::MainWindow;

namespace {

QString ms(double value) {
    return QStringLiteral("%1 ms").arg(value, 0, 'f', 1);
}

void resetSettings() {
    QSettings settings;
    settings.clear();
}

bool waitFinished(MainWindow& window, int timeout_ms) {
    return QTest::qWaitFor([&] { return window.sessionEngine()->result().has_value(); },
                           timeout_ms);
}

} // namespace

TEST_CASE("a full session fills the chart and the counters equal compute_metrics",
          "[ui][session][paced]") {
    resetSettings();
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    auto* form = window.sessionForm();
    form->setUseSimulator(true);
    form->setSimulatorProfile(QStringLiteral("fast"));
    form->setChunks(12);
    const bool started = window.startSession();
    INFO(window.bannerText().toStdString());
    REQUIRE(started);

    // After every chunk the underrun counter says what the batch simulation says.
    int checked = 0;
    std::optional<qint64> barcode_mismatch;
    QObject::connect(
        window.sessionEngine(), &lbm::engine::SessionEngine::chunkLanded, &window,
        [&](const lbm::ChunkRecord&, double) {
            window.refreshCounters();
            const auto& records = window.sessionEngine()->liveMetrics().records();
            if (static_cast<int>(records.size()) < form->startBufferChunks()) {
                return;
            }
            const auto batch =
                lbm::simulatePlayback(records, form->targetFps(), form->startBufferChunks());
            // The counted underruns lead the text; on a loaded machine the viewer may already
            // be waiting for the next chunk by the time this runs ("0 (+1 in progress: ...)").
            const QString shown =
                window.countersPanel()->valueText(CountersPanel::Row::SimulatedUnderruns);
            CHECK(shown.section(QLatin1Char(' '), 0, 0) == QString::number(batch.underrun_count));
            ++checked;
        });
    // The frame on screen is the one the clock presented: the picture the view painted
    // carries that frame's barcode.
    int frames_checked = 0;
    QObject::connect(window.videoView(), &lbm::ui::VideoView::frameDisplayed, &window,
                     [&](const lbm::media::DecodedFrame& frame) {
                         const QImage shown = window.videoView()->displayedImage().scaled(832, 480);
                         const auto number = lbm::sim::readFrameBarcode(shown);
                         if (!number || *number != frame.globalFrameNumber()) {
                             barcode_mismatch = frame.globalFrameNumber();
                         }
                         ++frames_checked;
                     });
    REQUIRE(waitFinished(window, 120000));
    const auto& result = *window.sessionEngine()->result();
    INFO(result.error.toStdString());
    REQUIRE(result.ok);
    CHECK(checked == 12);

    auto* chart = window.latencyChart();
    chart->flush();
    CHECK(chart->chunkCount() == 12);
    CHECK(chart->plottedChunkCount() == 12);

    window.refreshCounters();
    lbm::MetricsOptions options;
    options.fps = form->targetFps();
    options.warmup_chunks = form->warmupChunks();
    options.playback_buffer_chunks = form->startBufferChunks();
    options.ttfc_s = result.ttfc_s;
    options.session_wall_s = result.wall_s;
    const auto metrics = lbm::computeMetrics(result.records, options);
    const auto* counters = window.countersPanel();
    CHECK(counters->valueText(CountersPanel::Row::Chunks).startsWith(QStringLiteral("12 / 12")));
    CHECK(counters->valueText(CountersPanel::Row::Ttfc) == ms(*metrics.ttfc_ms));
    CHECK(counters->valueText(CountersPanel::Row::VideoRtf)
              .startsWith(QString::number(metrics.video_rtf, 'f', 3)));
    CHECK(counters->valueText(CountersPanel::Row::SimulatedUnderruns) ==
          QString::number(metrics.playback.underrun_count));
    CHECK(counters->valueText(CountersPanel::Row::RequestId) == *result.request_id);
    // No longer live: the dock's title and the simulated buffer say the stream is over.
    const auto* counters_dock = window.findChild<QDockWidget*>(QStringLiteral("CountersDock"));
    REQUIRE(counters_dock);
    CHECK(counters_dock->windowTitle() == QStringLiteral("Counters · session finished"));
    CHECK(counters->valueText(CountersPanel::Row::BufferedAhead)
              .endsWith(QStringLiteral(" s at stream end")));

    // Every frame reaches the screen, and each one carries the barcode of its number.
    REQUIRE(QTest::qWaitFor(
        [&] {
            return window.playbackClock()->state() == lbm::playback::PlaybackClock::State::Finished;
        },
        30000));
    CHECK(window.playbackClock()->framesPresented() == lbm::numFramesForChunks(12));
    // The view paints the newest frame it is given: every frame handed over is either on
    // screen once or superseded by a newer one before its conversion finished (a loaded
    // machine, a sanitizer build), and no frame shown is a wrong one.
    auto* view = window.videoView();
    REQUIRE(QTest::qWaitFor(
        [&] { return frames_checked + view->framesSuperseded() == lbm::numFramesForChunks(12); },
        5000));
    INFO(frames_checked << " frames displayed, " << view->framesSuperseded() << " superseded");
    CHECK(frames_checked > view->framesSuperseded());
    CHECK_FALSE(barcode_mismatch.has_value());

    // Afterwards the recording is scrubbed from disk: the last frame, then chunk 3's first.
    auto* scrub = window.scrubBar();
    REQUIRE(QTest::qWaitFor([&] { return scrub->isVisible(); }, 10000));
    REQUIRE(QTest::qWaitFor(
        [&] {
            const auto& shown = window.videoView()->displayedFrame();
            return shown && shown->globalFrameNumber() == lbm::numFramesForChunks(12) - 1;
        },
        10000));
    scrub->setPosition(9 + 2 * 12);
    REQUIRE(QTest::qWaitFor(
        [&] {
            const auto& shown = window.videoView()->displayedFrame();
            return shown && shown->globalFrameNumber() == 9 + 2 * 12;
        },
        10000));
    CHECK(window.videoView()->displayedFrame()->tag().chunkIndex() == 3);
    CHECK(lbm::sim::readFrameBarcode(window.videoView()->displayedImage().scaled(832, 480)) ==
          std::optional<qint64>(9 + 2 * 12));
}

TEST_CASE("a scripted prompt and held keys produce their interactions and history",
          "[ui][session][interaction]") {
    resetSettings();
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    auto* form = window.sessionForm();
    form->setSimulatorProfile(QStringLiteral("fast"));
    form->setChunks(30);
    form->setCameraChoice(lbm::ui::SessionForm::steerCameraChoice());
    const bool started = window.startSession();
    INFO(window.bannerText().toStdString());
    REQUIRE(started);
    REQUIRE(QTest::qWaitFor([&] { return window.sessionEngine()->liveMetrics().chunkCount() >= 1; },
                            30000));

    // The prompt: sent -> ... -> completed, on the panel's history.
    auto* panel = window.promptPanel();
    panel->setPrompt(QStringLiteral("A snowy street"));
    panel->setTransitionChunks(2);
    panel->send();

    // Keys, with the video focused: W then L held, then both released (one stop, sent once
    // the releases have settled).
    window.videoView()->setFocus();
    QTest::keyPress(window.videoView(), Qt::Key_W);
    QTest::keyPress(window.videoView(), Qt::Key_L);
    QTest::keyRelease(window.videoView(), Qt::Key_W);
    QTest::keyRelease(window.videoView(), Qt::Key_L);
    const auto& sent = window.sentVelocities();
    REQUIRE(sent.size() == 2);
    REQUIRE(QTest::qWaitFor([&] { return sent.size() == 3; }, 2000));
    CHECK(sent[0] == lbm::protocol::velocityForKeys(
                         lbm::protocol::CameraKeys::fromLetters(QStringLiteral("w")), 1.0));
    CHECK(sent[0].translation[2] == Approx(0.05));
    CHECK(sent[1] == lbm::protocol::velocityForKeys(
                         lbm::protocol::CameraKeys::fromLetters(QStringLiteral("wl")), 1.0));
    CHECK(sent[1].rotation[1] == Approx(0.0523360).margin(1e-6));
    CHECK(sent[2].isIdentity());

    // Focus loss with a key held sends the stop at once.
    QTest::keyPress(window.videoView(), Qt::Key_A);
    window.promptPanel()->setFocus();
    REQUIRE(QTest::qWaitFor([&] { return sent.size() == 5; }, 2000));
    CHECK(sent.back().isIdentity());

    REQUIRE(waitFinished(window, 120000));
    const auto& timeline = window.sessionEngine()->timeline();
    const lbm::session::InteractionRecord* prompt = nullptr;
    int camera = 0;
    for (const auto& record : timeline.interactions()) {
        if (record.kind == lbm::session::InteractionKind::Prompt) {
            prompt = &record;
        } else if (record.kind == lbm::session::InteractionKind::CameraVelocity) {
            ++camera;
            CHECK(record.error.isEmpty());
        }
    }
    CHECK(camera == 5);
    REQUIRE(prompt != nullptr);
    REQUIRE(prompt->completed_chunk.has_value());
    REQUIRE(prompt->started_chunk.has_value());
    CHECK(*prompt->completed_chunk == *prompt->started_chunk + 1); // K = 2
    CHECK(panel->stateText(prompt->event_id) ==
          QStringLiteral("completed at chunk %1").arg(*prompt->completed_chunk));
}

// The server refuses every interaction once it has generated its last chunk (the real handler
// does too), so a key released as a session ends gets "Failed to apply interaction": the
// window must not show that as a fault in front of an audience, but a refusal mid-session is.
TEST_CASE("an interaction refused after the last chunk is no red banner but one mid-session is",
          "[ui][session][interaction]") {
    using lbm::session::InteractionKind;
    using lbm::session::InteractionRecord;
    using lbm::session::TimelineEvent;
    using lbm::session::TimelineEventType;
    resetSettings();
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    window.sessionForm()->setSimulatorProfile(QStringLiteral("fast"));
    window.sessionForm()->setChunks(3);
    REQUIRE(window.startSession());
    auto* engine = window.sessionEngine();
    const auto refusal = [&](const QString& id, InteractionKind kind, const QString& summary) {
        TimelineEvent event;
        event.type = TimelineEventType::Error;
        event.event_id = id;
        event.detail = QStringLiteral("Failed to apply interaction");
        event.code = QStringLiteral("interaction_failed");
        InteractionRecord record;
        record.event_id = id;
        record.kind = kind;
        record.summary = summary;
        record.error = event.detail;
        record.error_code = event.code;
        emit engine->timelineChanged(event, record);
    };

    // Before the first chunk: the server did not take a live interaction, a fault.
    REQUIRE(engine->liveMetrics().chunkCount() == 0);
    refusal(QStringLiteral("ui-early"), InteractionKind::CameraVelocity, QStringLiteral("w"));
    CHECK(window.bannerText().contains(QStringLiteral("ui-early failed")));

    REQUIRE(waitFinished(window, 60000));
    REQUIRE(engine->liveMetrics().chunkCount() == 3);
    const QString banner_after_end = window.bannerText();
    refusal(QStringLiteral("ui-release"), InteractionKind::CameraVelocity, QStringLiteral("stop"));
    CHECK(window.bannerText() == banner_after_end);
    CHECK(window.statusText().contains(QStringLiteral("Camera stop not applied")));
    refusal(QStringLiteral("ui-late"), InteractionKind::Prompt, QStringLiteral("A snowy street"));
    CHECK(window.bannerText().contains(QStringLiteral("came too late")));
    CHECK_FALSE(window.bannerText().contains(QStringLiteral("failed")));
}

TEST_CASE("an invalid form value blocks Start with its reason in the banner", "[ui][session]") {
    resetSettings();
    MainWindow window;
    window.sessionForm()->setPrompt(QStringLiteral("  "));
    CHECK_FALSE(window.startSession());
    CHECK_FALSE(window.sessionEngine()->hasSession());
    CHECK(window.bannerText().startsWith(QStringLiteral("Cannot start: ")));
    CHECK(window.bannerText().contains(QStringLiteral("prompt")));
}

TEST_CASE("a simulator fault past the last chunk blocks Start with its reason", "[ui][session]") {
    resetSettings();
    MainWindow window;
    auto* form = window.sessionForm();
    form->setSimulatorProfile(QStringLiteral("fast"));
    form->setChunks(16);
    form->setSimulatorFaults({QStringLiteral("seam@6"), QStringLiteral("stall@16")});
    CHECK_FALSE(window.startSession());
    CHECK_FALSE(window.sessionEngine()->running());
    INFO(window.bannerText().toStdString());
    CHECK(window.bannerText().contains(
        QStringLiteral("The fault stall@16 never fires in a 16-chunk session: give it a chunk "
                       "from 0 to 15, or run more chunks.")));
}

TEST_CASE("a scripted camera workload disables steering with the server's reason",
          "[ui][session]") {
    resetSettings();
    MainWindow window;
    window.sessionForm()->setCameraChoice(QStringLiteral("forward"));
    window.sessionForm()->setChunks(3);
    const bool started = window.startSession();
    INFO(window.bannerText().toStdString());
    REQUIRE(started);
    QTest::keyPress(window.videoView(), Qt::Key_W);
    QTest::keyRelease(window.videoView(), Qt::Key_W);
    CHECK(window.sentVelocities().empty());
    REQUIRE(waitFinished(window, 60000));
}

TEST_CASE("a saved session document opens with its chart and counters, and compares",
          "[ui][document]") {
    resetSettings();
    lbm::report::SessionDocument document;
    document.endpoint = QStringLiteral("ws://127.0.0.1:8000/v1/realtime/video");
    document.workload = QJsonObject{{QStringLiteral("num_chunks"), 10},
                                    {QStringLiteral("num_frames"), 117},
                                    {QStringLiteral("width"), 832},
                                    {QStringLiteral("height"), 480},
                                    {QStringLiteral("fps"), 16}};
    lbm::report::SessionEntry entry;
    double t = 0.0;
    for (int i = 0; i < 10; ++i) {
        lbm::ChunkRecord record;
        record.index = i;
        record.inter_arrival_s = i == 0 ? 1.4 : (i == 7 ? 1.1 : 0.7);
        t += record.inter_arrival_s;
        record.arrival_s = t;
        record.num_frames = lbm::pixelFramesInChunk(i);
        record.byte_length = 50000;
        entry.chunks.push_back(record);
    }
    entry.ttfc_s = entry.chunks.front().arrival_s;
    entry.wall_s = t;
    // As written by a run: the stored metrics carry ttfc_ms and wall_seconds.
    lbm::MetricsOptions stored;
    stored.ttfc_s = entry.ttfc_s;
    stored.session_wall_s = entry.wall_s;
    entry.metrics = lbm::computeMetrics(entry.chunks, stored);
    document.sessions.push_back(entry);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("session.json"));
    lbm::report::writeSessionDocument(document, path);

    MainWindow window;
    REQUIRE(window.openDocument(path));
    auto* chart = window.latencyChart();
    chart->flush();
    CHECK(chart->chunkCount() == 10);
    CHECK(chart->plottedChunkCount() == 10);
    CHECK(chart->lateChunkCount() == 1);
    lbm::MetricsOptions options;
    options.ttfc_s = entry.ttfc_s;
    options.session_wall_s = entry.wall_s;
    const auto metrics = lbm::computeMetrics(entry.chunks, options);
    CHECK(window.countersPanel()->valueText(CountersPanel::Row::Ttfc) == ms(*metrics.ttfc_ms));
    CHECK(window.countersPanel()->valueText(CountersPanel::Row::SimulatedUnderruns) ==
          QString::number(metrics.playback.underrun_count));
    CHECK(chart->stallMarkCount() == metrics.playback.underrun_count);

    REQUIRE(window.compareDocument(path));
    CHECK_FALSE(window.openDocument(dir.filePath(QStringLiteral("missing.json"))));
    CHECK(window.bannerText().contains(QStringLiteral("missing.json")));
}

TEST_CASE("the form's SLO, warmup, fps and start buffer, set once, reach the engine, the "
          "window's deadline and the kept document",
          "[ui][session][settings]") {
    resetSettings();
    MainWindow window;
    window.show();
    auto* form = window.sessionForm();
    form->setUseSimulator(true);
    form->setSimulatorProfile(QStringLiteral("fast"));
    form->setChunks(3);
    // Values no default and no other setting produces.
    constexpr double kSloMs = 432.5;
    form->setSloMs(kSloMs);
    form->setWarmupChunks(1);
    form->setTargetFps(20.0);
    form->setStartBufferChunks(2);
    const bool started = window.startSession();
    INFO(window.bannerText().toStdString());
    REQUIRE(started);

    // The engine measures with them, and the window judges by the engine's deadline.
    auto* engine = window.sessionEngine();
    CHECK(engine->liveMetrics().deadlineMs() == kSloMs);
    CHECK(engine->liveMetrics().options().warmup_chunks == 1);
    CHECK(window.latencyChart()->deadlineMs() == kSloMs);
    CHECK(window.countersPanel()->deadlineMs() == kSloMs);
    CHECK(window.playbackClock()->targetFps() == 20.0);
    CHECK(window.playbackClock()->startBufferChunks() == 2);

    // The kept document's config and its metrics (the engine's live ones) say the same.
    REQUIRE(waitFinished(window, 120000));
    INFO(window.sessionEngine()->result()->error.toStdString());
    REQUIRE(window.sessionEngine()->result()->ok);
    REQUIRE(window.sessionKeeper()->writer().flush(5000));
    const auto document =
        lbm::report::readSessionDocument(window.sessionKeeper()->current()->documentPath());
    CHECK(document.config.chunk_slo_ms == std::optional<double>(kSloMs));
    CHECK(document.config.warmup_chunks == 1);
    CHECK(document.config.target_fps == 20.0);
    CHECK(document.config.playback_buffer_chunks == 2);
    REQUIRE(document.sessions.front().metrics.has_value());
    const lbm::SessionMetrics& metrics = *document.sessions.front().metrics;
    CHECK(metrics.chunk_deadline_ms == kSloMs);
    CHECK(metrics.warmup_chunks == 1);
    CHECK(metrics.playback_buffer_chunks == 2);
}

TEST_CASE("Start after a paused session waits for its analysis, not for its playback",
          "[ui][session]") {
    resetSettings();
    QDir(lbm::ui::test::sessionsRoot()).removeRecursively();
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    lbm::ui::test::startOnSimulator(window, QStringLiteral("fast"), 6, {QStringLiteral("seam@4")});
    auto* engine = window.sessionEngine();
    // The viewer pauses as the picture starts: the rest of the frames queue up behind it, and
    // a full picture queue holds the decoder, which feeds the analysis.
    REQUIRE(QTest::qWaitFor([&] { return window.playbackClock()->framesPresented() > 0; }, 30000));
    window.playbackClock()->pause();
    REQUIRE(QTest::qWaitFor([&] { return engine->result().has_value(); }, 60000));
    const QString first = lbm::ui::test::newestKeptDocument(lbm::report::OutcomeKind::Finished);

    QElapsedTimer started;
    started.start();
    REQUIRE(window.startSession());
    // Well inside the 15 s the window would wait for a player that does not play on.
    CHECK(started.elapsed() < 10000);
    CHECK_FALSE(window.bannerText().contains(QStringLiteral("did not finish")));
    // The first session's document has every chunk's verdict, the injected seam among them.
    const auto document = lbm::report::readSessionDocument(first);
    const auto quality =
        lbm::report::sessionQuality(document.sessions.front(), QStringLiteral("sessions[0]"));
    REQUIRE(quality.has_value());
    CHECK(quality->chunks.size() == 6);
    bool seam = false;
    for (const auto& chunk : quality->chunks) {
        seam = seam || chunk.flagged(lbm::quality::QualityFlag::Seam);
    }
    CHECK(seam);
    window.stopSession();
    REQUIRE(QTest::qWaitFor([&] { return engine->result().has_value(); }, 15000));
}
