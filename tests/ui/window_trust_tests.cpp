// What a presenter and a QA engineer must be able to trust in the window: every session is
// kept on disk as it goes, a stalled server shows at once, quitting during a session asks,
// SIGTERM ends it cleanly, the recording plays back like a player, steering works out of the
// box, and what the window remembers and writes is right.

#include "app/report/session_document.h"
#include "tests/ui/window_test_support.h"
#include "ui/camera_steering.h"
#include "ui/counters_panel.h"
#include "ui/latency_chart.h"
#include "ui/latency_chart_model.h"
#include "ui/main_window.h"
#include "ui/prompt_panel.h"
#include "ui/recording_player.h"
#include "ui/scrub_bar.h"
#include "ui/session_form.h"
#include "ui/video_view.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QMessageBox>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <catch2/catch.hpp>

#include <csignal>
#include <optional>

using lbm::ui::CountersPanel;
using lbm::ui::MainWindow;

namespace {

QString sessionsRoot() {
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/lingbot-monitor/sessions");
}

bool waitFinished(MainWindow& window, int timeout_ms) {
    return QTest::qWaitFor([&] { return window.sessionEngine()->result().has_value(); },
                           timeout_ms);
}

// Clicks the button labelled `text` of the next modal dialog, once it is open.
void answerNextDialog(const QString& text) {
    QTimer::singleShot(200, [text] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        REQUIRE(box != nullptr);
        for (QAbstractButton* button : box->buttons()) {
            if (button->text() == text) {
                button->click();
                return;
            }
        }
        FAIL("no button " << text.toStdString());
    });
}

// Window shortcuts (Space, Ctrl+Return) only fire in the active window.
void showActive(MainWindow& window) {
    window.show();
    QApplication::setActiveWindow(&window);
    REQUIRE(QTest::qWaitForWindowActive(&window));
}

void startFastSession(MainWindow& window, int chunks) {
    auto* form = window.sessionForm();
    form->setUseSimulator(true);
    form->setSimulatorProfile(QStringLiteral("fast"));
    form->setChunks(chunks);
    INFO(window.bannerText().toStdString());
    REQUIRE(window.startSession());
}

} // namespace

TEST_CASE("every session is kept with its stream and a document that report reads",
          "[ui][trust][keep]") {
    QSettings().clear();
    QDir(sessionsRoot()).removeRecursively();
    MainWindow window;
    window.show();
    // Long enough (about 7 s on the fast profile, more under a sanitizer) that a spaced
    // rewrite lands while it streams.
    constexpr int kChunks = 30;
    startFastSession(window, kChunks);
    auto* engine = window.sessionEngine();
    REQUIRE(QTest::qWaitFor([&] { return engine->liveMetrics().chunkCount() >= 3; }, 30000));
    const auto folder = window.sessionKeeper()->current()->folder;
    CHECK(folder.startsWith(sessionsRoot()));
    // While it streams: the stream on disk, a document marked incomplete.
    const QString document_path = folder + QStringLiteral("/session.json");
    // Rewrites after chunks are at least a second apart (SessionKeeper), further on a slow
    // build (100 times a rewrite's cost: an ASan run beside other cases waited past 6 s):
    // soon, and before the session ends, the document on disk has the chunks that had landed.
    std::optional<lbm::report::SessionDocument> live;
    REQUIRE(QTest::qWaitFor(
        [&] {
            if (!QFileInfo::exists(document_path)) {
                return false;
            }
            live = lbm::report::readSessionDocument(document_path);
            return live->sessions.front().chunks.size() >= 3;
        },
        30000));
    REQUIRE(live->monitor);
    CHECK_FALSE(live->monitor->complete);
    CHECK(window.sessionKeeper()->rewriteSpacingMs() >= 1000);
    // A bound, not a measure: 30 chunks of the 3-D world took over a minute under ASan on a
    // loaded 2-core machine.
    REQUIRE(waitFinished(window, 180000));
    REQUIRE(engine->result()->ok);
    REQUIRE(window.sessionKeeper()->writer().flush(5000));
    // The folder carries the request id; the stream holds every byte received.
    const auto kept = window.sessionKeeper()->current();
    CHECK(QFileInfo(kept->folder).fileName().endsWith(*engine->result()->request_id));
    CHECK(QFileInfo(kept->recordingPath()).size() ==
          engine->result()->media_bytes + engine->result()->trailer_bytes);
    const auto document = lbm::report::readSessionDocument(kept->documentPath());
    REQUIRE(document.monitor);
    CHECK(document.monitor->complete);
    CHECK(document.sessions.front().chunks.size() == kChunks);
    // `lingbot-monitor report` reads it.
    QProcess report;
    report.start(QStringLiteral(LBM_BINARY_DIR "/lingbot-monitor"),
                 {QStringLiteral("report"), kept->documentPath()});
    REQUIRE(report.waitForFinished(30000));
    CHECK(report.exitCode() == 0);
    CHECK(report.readAllStandardOutput().contains("Chunks per session:"));
    // File > Recent Sessions lists it.
    REQUIRE(window.sessionKeeper()->recent().size() == 1);
}

TEST_CASE("the oldest kept sessions beyond the retention count are removed", "[ui][trust][keep]") {
    QDir(sessionsRoot()).removeRecursively();
    lbm::engine::SessionArchive archive(sessionsRoot());
    QString error;
    const QDateTime start = QDateTime::currentDateTimeUtc().addDays(-1);
    QStringList created;
    for (int i = 0; i < 5; ++i) {
        const auto session = archive.create(&error, start.addSecs(i));
        REQUIRE(session);
        created << session->folder;
    }
    REQUIRE(archive.list().size() == 5);
    CHECK(archive.prune(3) == 2);
    QStringList kept;
    for (const auto& session : archive.list()) {
        kept << session.folder;
    }
    CHECK(kept == QStringList{created[4], created[3], created[2]}); // the newest, newest first
}

TEST_CASE("a stalled server shows in the title, the chart and the counters at once",
          "[ui][trust][stall][paced]") {
    QSettings().clear();
    MainWindow window;
    window.show();
    auto* form = window.sessionForm();
    form->setSimulatorFaults({QStringLiteral("stall@3")});
    form->setChunkTimeouts(60, 6);
    startFastSession(window, 10);
    auto* engine = window.sessionEngine();
    REQUIRE(QTest::qWaitFor([&] { return engine->liveMetrics().chunkCount() == 3; }, 30000));
    QElapsedTimer since_last_chunk;
    since_last_chunk.start();
    // The deadline is 0.75 s at 16 fps: within a second of it the title says so. (A title
    // still saying an earlier chunk was late, from before that chunk landed, does not count.)
    REQUIRE(QTest::qWaitFor(
        [&] {
            return window.windowTitle().contains(QStringLiteral("STALLED: waiting for chunk 3"));
        },
        3000));
    CHECK(since_last_chunk.elapsed() < 1750);
    INFO("title: " << window.windowTitle().toStdString()
                   << "\nbanner: " << window.bannerText().toStdString());
    CHECK(window.windowTitle().contains(QStringLiteral("waiting for chunk 3")));
    CHECK(window.bannerText().startsWith(QStringLiteral("Waiting for chunk 3")));
    // The chunk in flight is on the chart, growing.
    const auto waiting = window.latencyChart()->model()->waiting();
    REQUIRE(waiting);
    CHECK(waiting->index == 3);
    CHECK(waiting->waited_ms > 750.0);
    // The underrun the benchmark's simulator will count when the chunk lands, shown as soon as
    // the simulated viewer runs dry (at most the 2.06 s of video of chunks 0-2 after chunk 2,
    // well inside the 6 s chunk timeout).
    CHECK(QTest::qWaitFor(
        [&] {
            window.refreshCounters();
            return window.countersPanel()
                ->valueText(CountersPanel::Row::SimulatedUnderruns)
                .contains(QStringLiteral("in progress"));
        },
        4000));
    CHECK(window.countersPanel()->level(CountersPanel::Row::SimulatedUnderruns) ==
          CountersPanel::Level::Bad);
    // The window ends the silent session with the chunk timeout's message.
    REQUIRE(waitFinished(window, 15000));
    CHECK(engine->result()->error.startsWith(QStringLiteral("No media chunk for 6 s after 3")));
    CHECK(window.bannerText() == engine->result()->error);
    CHECK(window.windowTitle().contains(QStringLiteral("FAILED after 3 chunks")));
}

TEST_CASE("quitting during a live session asks first, and stopping keeps what arrived",
          "[ui][trust][quit][paced]") {
    QSettings().clear();
    MainWindow window;
    window.show();
    auto* form = window.sessionForm();
    form->setSimulatorProfile(QStringLiteral("h200-sp4"));
    form->setChunks(40);
    REQUIRE(window.startSession());
    auto* engine = window.sessionEngine();
    REQUIRE(QTest::qWaitFor([&] { return engine->liveMetrics().chunkCount() >= 2; }, 30000));
    answerNextDialog(QStringLiteral("Keep Streaming"));
    CHECK_FALSE(window.close());
    CHECK(engine->running());
    answerNextDialog(QStringLiteral("Stop and Quit"));
    CHECK(window.close());
    REQUIRE(engine->result());
    CHECK(engine->result()->stop_requested);
    const auto document =
        lbm::report::readSessionDocument(window.sessionKeeper()->current()->documentPath());
    REQUIRE(document.monitor);
    CHECK_FALSE(document.monitor->complete);
    CHECK(document.sessions.front().chunks.size() >= 2);
}

TEST_CASE("SIGTERM ends the program within 3 s with the session document marked interrupted",
          "[ui][trust][signal][paced]") {
    QTemporaryDir home;
    QProcess monitor;
    monitor.setProcessEnvironment(lbm::ui::test::environmentIn(home));
    monitor.start(QStringLiteral(LBM_BINARY_DIR "/lingbot-monitor"),
                  {QStringLiteral("--profile"), QStringLiteral("h200-sp4"),
                   QStringLiteral("--chunks"), QStringLiteral("40"), QStringLiteral("--start")});
    REQUIRE(monitor.waitForStarted(10000));
    const QString root = home.filePath(QStringLiteral("data/lingbot-monitor/sessions"));
    // Wait for a kept document with a few chunks in it.
    QString document_path;
    REQUIRE(QTest::qWaitFor(
        [&] {
            for (const QFileInfo& folder :
                 QDir(root).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
                const QString path = folder.filePath() + QStringLiteral("/session.json");
                try {
                    if (QFileInfo::exists(path) &&
                        lbm::report::readSessionDocument(path).sessions.front().chunks.size() >=
                            3) {
                        document_path = path;
                        return true;
                    }
                } catch (const std::exception&) {
                }
            }
            return false;
        },
        60000));
    QElapsedTimer elapsed;
    elapsed.start();
    ::kill(static_cast<pid_t>(monitor.processId()), SIGTERM);
    REQUIRE(monitor.waitForFinished(10000));
    INFO(monitor.readAllStandardError().toStdString());
    CHECK(elapsed.elapsed() < 3000);
    CHECK(monitor.exitStatus() == QProcess::NormalExit);
    const auto document = lbm::report::readSessionDocument(document_path);
    REQUIRE(document.monitor);
    CHECK_FALSE(document.monitor->complete);
    CHECK(document.monitor->incomplete_reason.contains(QStringLiteral("SIGTERM")));
    CHECK(document.sessions.front().chunks.size() >= 3);
}

TEST_CASE("a workload that does not open keeps --start from starting another session",
          "[ui][trust][workload]") {
    QTemporaryDir home;
    REQUIRE(home.isValid());
    // The benchmark's format needs an image: this file is refused.
    const QString workload = home.filePath(QStringLiteral("no-image.json"));
    QFile file(workload);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(R"({"prompt": "A quiet village road.", "num_chunks": 40})");
    file.close();
    QProcess monitor;
    monitor.setProcessEnvironment(lbm::ui::test::environmentIn(home));
    monitor.start(QStringLiteral(LBM_BINARY_DIR "/lingbot-monitor"),
                  {QStringLiteral("--workload"), workload, QStringLiteral("--start")});
    REQUIRE(monitor.waitForStarted(10000));
    QByteArray errors;
    REQUIRE(QTest::qWaitFor(
        [&] {
            errors += monitor.readAllStandardError();
            return errors.contains("Not starting");
        },
        30000));
    INFO(errors.toStdString());
    CHECK(errors.contains("Cannot open workload"));
    CHECK(errors.contains("image or image_reference"));
    // The decision is made before the event loop runs: no session was started, so none is
    // kept.
    CHECK(QDir(home.filePath(QStringLiteral("data/lingbot-monitor/sessions")))
              .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
              .isEmpty());
    ::kill(static_cast<pid_t>(monitor.processId()), SIGTERM);
    REQUIRE(monitor.waitForFinished(10000));
}

TEST_CASE("the recording plays like a player after the session, and chart clicks seek",
          "[ui][trust][player][paced]") {
    QSettings().clear();
    MainWindow window;
    window.resize(1280, 800);
    showActive(window);
    startFastSession(window, 6);
    REQUIRE(waitFinished(window, 60000));
    auto* player = window.recordingPlayer();
    REQUIRE(
        QTest::qWaitFor([&] { return player->isOpen() && window.scrubBar()->isVisible(); }, 30000));
    const int frames = 9 + 5 * 12;
    CHECK(player->frameCount() == frames);
    auto* video = window.videoView();
    const auto shown = [&] {
        return video->displayedFrame() ? video->displayedFrame()->globalFrameNumber() : -1;
    };
    REQUIRE(QTest::qWaitFor([&] { return shown() == frames - 1; }, 10000));
    video->setFocus();
    QTest::keyClick(video, Qt::Key_Home);
    REQUIRE(QTest::qWaitFor([&] { return shown() == 0; }, 5000));
    QTest::keyClick(video, Qt::Key_Right);
    REQUIRE(QTest::qWaitFor([&] { return shown() == 1; }, 5000));
    QTest::keyClick(video, Qt::Key_Right, Qt::ShiftModifier); // to chunk 1's first frame
    REQUIRE(QTest::qWaitFor([&] { return shown() == 9; }, 5000));
    CHECK(video->displayedFrame()->tag().chunkIndex() == 1);
    QTest::keyClick(video, Qt::Key_Left);
    REQUIRE(QTest::qWaitFor([&] { return shown() == 8; }, 5000));
    // Space plays at the target fps: frames advance by themselves.
    QTest::keyClick(video, Qt::Key_Space);
    REQUIRE(QTest::qWaitFor([&] { return shown() >= 12; }, 5000));
    QTest::keyClick(video, Qt::Key_Space);
    CHECK_FALSE(player->isPlaying());
    // Paused, the position label says so at once (not when the next frame is shown).
    CHECK_FALSE(window.scrubBar()->label().contains(QStringLiteral("playing")));
    QTest::keyClick(video, Qt::Key_End);
    REQUIRE(QTest::qWaitFor([&] { return shown() == frames - 1; }, 5000));
    // A click on chunk 3's bar shows chunk 3.
    auto* chart = window.latencyChart();
    chart->flush();
    const QPoint bar = chart->viewPositionOf(3, 100.0);
    QTest::mouseClick(qobject_cast<QAbstractScrollArea*>(chart->chartView())->viewport(),
                      Qt::LeftButton, Qt::NoModifier, bar);
    REQUIRE(QTest::qWaitFor([&] { return shown() == 9 + 2 * 12; }, 5000));
    // The bar's marks explain themselves.
    const auto& marks = window.scrubBar()->marks();
    REQUIRE_FALSE(marks.isEmpty());
    CHECK(marks.front().tooltip.startsWith(QStringLiteral("chunk 0 starts")));
}

TEST_CASE("opening a kept session shows its own recording and marks, and a clean HUD",
          "[ui][trust][document]") {
    QSettings().clear();
    QDir(sessionsRoot()).removeRecursively();
    MainWindow window;
    window.show();
    auto* panel = window.promptPanel();
    // Scheduled after chunk 1, so the engine sends it as that chunk lands however slow the GUI
    // thread is (a sanitizer on a loaded machine), and it starts well before the last chunk.
    startFastSession(window, 12);
    panel->setPrompt(QStringLiteral("A snowy street"));
    panel->setTransitionChunks(1);
    panel->setSendAfterChunk(1);
    panel->send();
    REQUIRE(waitFinished(window, 60000));
    REQUIRE(window.sessionKeeper()->writer().flush(5000));
    const QString first_document = window.sessionKeeper()->current()->documentPath();
    // A second, longer session; then the first one is opened again.
    startFastSession(window, 8);
    REQUIRE(waitFinished(window, 60000));
    REQUIRE(window.openDocument(first_document));
    auto* player = window.recordingPlayer();
    REQUIRE(QTest::qWaitFor([&] { return player->isOpen(); }, 30000));
    CHECK(player->frameCount() == 9 + 11 * 12);
    bool has_prompt_mark = false;
    for (const auto& mark : window.scrubBar()->marks()) {
        has_prompt_mark =
            has_prompt_mark || mark.tooltip.contains(QStringLiteral("A snowy street"));
    }
    CHECK(has_prompt_mark);
    INFO(window.videoView()->hud().lines().join(QLatin1Char('|')).toStdString());
    CHECK(window.videoView()->hud().lines().isEmpty());
    CHECK(window.latencyChart()->chunkCount() == 12);
}

TEST_CASE("steering works out of the box and Ctrl+Return sends the prompt from the video",
          "[ui][trust][steering]") {
    QSettings().clear();
    MainWindow window;
    showActive(window);
    CHECK(window.sessionForm()->steeringEnabled()); // the default camera mode
    startFastSession(window, 30);
    REQUIRE(QTest::qWaitFor([&] { return window.sessionEngine()->liveMetrics().chunkCount() >= 1; },
                            30000));
    auto* video = window.videoView();
    video->setFocus();
    QTest::keyPress(video, Qt::Key_W);
    CHECK(window.sentVelocities().size() == 1);
    window.refreshCounters();
    CHECK(video->hud().lines().join(QLatin1Char('\n')).contains(QStringLiteral("keys: W")));
    // X11 repeats a held key as a release and a press; when Qt cannot tell (the press not yet
    // queued), the pair reaches us as real events and must not send a stop and a go.
    QTest::keyRelease(video, Qt::Key_W);
    QTest::keyPress(video, Qt::Key_W);
    CHECK(window.sentVelocities().size() == 1);
    CHECK(window.steering()->settlingReleases().isEmpty());
    // A real release stops the camera once it has settled; a key pressed meanwhile goes out
    // with it in one velocity.
    QTest::keyRelease(video, Qt::Key_W);
    CHECK(window.sentVelocities().size() == 1);
    QTest::keyPress(video, Qt::Key_A);
    REQUIRE(window.sentVelocities().size() == 2);
    CHECK(window.sentVelocities().back() ==
          lbm::protocol::velocityForKeys(
              lbm::protocol::CameraKeys::fromLetters(QStringLiteral("a")), 1.0));
    QTest::keyRelease(video, Qt::Key_A);
    REQUIRE(QTest::qWaitFor([&] { return window.sentVelocities().size() == 3; }, 2000));
    CHECK(window.sentVelocities().back().isIdentity());
    window.promptPanel()->setPrompt(QStringLiteral("Rain at night"));
    QTest::keyClick(video, Qt::Key_Return, Qt::ControlModifier);
    CHECK(QTest::qWaitFor([&] { return window.promptPanel()->historyCount() == 1; }, 5000));
    window.sessionEngine()->abort(QStringLiteral("done"));
    REQUIRE(waitFinished(window, 10000));
}

TEST_CASE("with a camera script the HUD shows no keys", "[ui][trust][steering]") {
    QSettings().clear();
    MainWindow window;
    window.show();
    window.sessionForm()->setCameraChoice(QStringLiteral("forward"));
    startFastSession(window, 20);
    REQUIRE(QTest::qWaitFor([&] { return window.sessionEngine()->liveMetrics().chunkCount() >= 1; },
                            30000));
    auto* video = window.videoView();
    video->setFocus();
    QTest::keyPress(video, Qt::Key_W);
    window.refreshCounters();
    CHECK_FALSE(video->hud().lines().join(QLatin1Char('\n')).contains(QStringLiteral("keys")));
    QTest::keyRelease(video, Qt::Key_W);
    window.sessionEngine()->abort(QStringLiteral("done"));
    REQUIRE(waitFinished(window, 10000));
}

TEST_CASE("one colour rule for stall counts, kept after the session", "[ui][trust][counters]") {
    using Level = CountersPanel::Level;
    CHECK(CountersPanel::stallLevel(0, false, false) == Level::Good);
    CHECK(CountersPanel::stallLevel(0, false, true) == Level::Warning);
    CHECK(CountersPanel::stallLevel(0, true, false) == Level::Bad);
    CHECK(CountersPanel::stallLevel(3, false, false) == Level::Bad);
    CountersPanel panel;
    lbm::playback::PlaybackStalls stalls;
    stalls.count = 2;
    stalls.ongoing_s = 0.4;
    panel.showObservedStalls(stalls);
    CHECK(panel.level(CountersPanel::Row::ObservedStalls) == Level::Bad);
    stalls.ongoing_s = 0.0; // the session stopped: the count stays red
    panel.showObservedStalls(stalls);
    CHECK(panel.level(CountersPanel::Row::ObservedStalls) == Level::Bad);
}

TEST_CASE("form values and the layout are remembered, and the status names the endpoint",
          "[ui][trust][settings]") {
    QSettings().clear();
    {
        MainWindow window;
        window.show();
        auto* form = window.sessionForm();
        form->setUseSimulator(false);
        form->setServerUrlText(QStringLiteral("http://gpu-host:8000"));
        form->setChunks(37);
        form->setTargetFps(12.0);
        form->setStartBufferChunks(2);
        form->setCameraChoice(QStringLiteral("orbit"));
        form->setChunkTimeouts(120, 30);
        window.close();
    }
    MainWindow window;
    auto* form = window.sessionForm();
    CHECK_FALSE(form->useSimulator());
    CHECK(form->serverUrlText() == QStringLiteral("http://gpu-host:8000"));
    CHECK(form->chunks() == 37);
    CHECK(form->targetFps() == 12.0);
    CHECK(form->startBufferChunks() == 2);
    CHECK(form->cameraChoice() == QStringLiteral("orbit"));
    CHECK(form->chunkTimeoutS() == 30.0);
    CHECK(window.statusText().contains(QStringLiteral("ws://gpu-host:8000/v1/realtime/video")));
    CHECK_FALSE(window.statusText().contains(QStringLiteral("simulator")));
}

TEST_CASE("a scripted run's document records no camera pattern and its workload file",
          "[ui][trust][exports]") {
    QSettings().clear();
    QTemporaryDir dir;
    QImage first_frame(832, 480, QImage::Format_RGB32);
    first_frame.fill(QColor(40, 90, 140));
    REQUIRE(first_frame.save(dir.filePath(QStringLiteral("road.png"))));
    const QString workload = dir.filePath(QStringLiteral("scripted.json"));
    QFile file(workload);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(QStringLiteral(R"({"prompt": "A road", "image": "%1", "camera_action_script":
               [[["w"],["w"],["w"]], [["w"],[],[]], [["l"],["l"],["l"]]]})")
                   .arg(dir.filePath(QStringLiteral("road.png")))
                   .toUtf8());
    file.close();
    MainWindow window;
    window.show();
    INFO(window.bannerText().toStdString());
    REQUIRE(window.openWorkload(workload));
    window.sessionForm()->setSimulatorProfile(QStringLiteral("fast"));
    REQUIRE(window.startSession());
    REQUIRE(waitFinished(window, 60000));
    const auto document = window.currentDocument();
    REQUIRE(document);
    CHECK_FALSE(document->config.camera_pattern.has_value());
    CHECK(document->config.workload_file == workload);
    // Status texts are sentences, plurals right.
    CHECK(window.statusText().startsWith(QStringLiteral("Session finished: 3 chunks in ")));
    CHECK_FALSE(window.statusText().contains(QLatin1Char('{')));
}

TEST_CASE("a server error mid-stream reads as the server ending the session, not rejecting it",
          "[ui][trust][wording]") {
    QSettings().clear();
    MainWindow window;
    window.show();
    window.sessionForm()->setSimulatorFaults({QStringLiteral("error@2")});
    startFastSession(window, 5);
    REQUIRE(waitFinished(window, 60000));
    const auto& result = *window.sessionEngine()->result();
    REQUIRE_FALSE(result.ok);
    // The benchmark's wording stays in the result (bench and the document print it) ...
    CHECK(result.error.startsWith(QStringLiteral("Server rejected the session after 2 chunk(s)")));
    // ... the window speaks plainly, plurals right.
    INFO(window.bannerText().toStdString());
    CHECK(window.bannerText().startsWith(
        QStringLiteral("The server ended the session with an error after 2 chunks: ")));
    CHECK_FALSE(window.bannerText().contains(QStringLiteral("rejected")));
    CHECK(window.statusText().startsWith(QStringLiteral("Session ended after 2 chunks: The server "
                                                        "ended the session")));
}
