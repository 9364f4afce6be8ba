#include "ui/main_window.h"

#include "app/engine/session_csv.h"
#include "app/engine/session_document_builder.h"
#include "metrics/geometry.h"
#include "resources/bundled_resources.h"
#include "ui/camera_steering.h"
#include "ui/counters_panel.h"
#include "ui/document_viewer.h"
#include "ui/export_controller.h"
#include "ui/key_pad.h"
#include "ui/latency_chart.h"
#include "ui/latency_chart_model.h"
#include "ui/playback_feed.h"
#include "ui/prompt_panel.h"
#include "ui/recording_frames.h"
#include "ui/scrub_bar.h"
#include "ui/session_form.h"
#include "ui/session_settings.h"
#include "ui/status_colors.h"
#include "ui/steering_panel.h"
#include "ui/video_view.h"
#include "ui/window_actions.h"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QJsonObject>
#include <QKeyEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

#include <exception>

namespace lbm::ui {

namespace {

using lbm::playback::PlaybackClock;

// The server's words for a camera interaction during a scripted rollout (protocol.md).
const QString kScriptSteeringRefusal = QStringLiteral(
    "Cannot use mid-generation camera interaction together with camera_action_script");

// Frames the engine queues for the view before its pump waits (the clock holds the rest).
constexpr int kPresentationQueueFrames = 4;

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent) {
    setWindowTitle(tr("LingBot Live Monitor"));
    setObjectName(QStringLiteral("MainWindow"));
    setDockNestingEnabled(true);

    m_engine = new lbm::engine::SessionEngine(this);
    m_clock = new PlaybackClock(this);
    m_feed = new PlaybackFeed(m_clock, this);
    m_steering = new CameraSteering(this);
    m_exports = new ExportController(this);
    m_recording = new RecordingFrames(this);
    m_form = new SessionForm(this);
    m_counters = new CountersPanel(this);
    m_chart_model = new LatencyChartModel(this);
    m_chart = new LatencyChart(m_chart_model, this);
    m_prompt_panel = new PromptPanel(this);
    m_steering_panel = new SteeringPanel(m_steering, this);
    m_viewer = new DocumentViewer(m_chart_model, m_counters, this);

    // The video in the middle: banner above, scrub bar below.
    auto* central = new QWidget(this);
    auto* central_layout = new QVBoxLayout(central);
    central_layout->setContentsMargins(6, 6, 6, 6);
    central_layout->setSpacing(6);
    m_banner = new QLabel(central);
    m_banner->setWordWrap(true);
    m_banner->setTextFormat(Qt::PlainText);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setMargin(8);
    m_banner->hide();
    m_video = new VideoView(central);
    m_video->setToolTip(tr("Click the video to steer with W A S D (move) and I J K L (look)"));
    m_video->installEventFilter(this);
    m_steering->watch(m_video);
    m_clock->setPresenter(
        [this](const lbm::playback::PlaybackFrame& frame) { m_video->showFrame(frame); });
    central_layout->addWidget(m_banner);
    central_layout->addWidget(m_video, 1);
    m_scrub = new ScrubBar(central);
    m_scrub->hide();
    connect(m_scrub, &ScrubBar::positionChanged, m_recording, &RecordingFrames::request);
    connect(m_recording, &RecordingFrames::frameReady, this, &MainWindow::showScrubFrame);
    connect(m_recording, &RecordingFrames::opened, this, [this] { prepareScrub(); });
    central_layout->addWidget(m_scrub);
    setCentralWidget(central);

    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);
    m_busy = new QProgressBar(this);
    m_busy->setRange(0, 0); // a stream copy has no progress to report: busy, not a percentage
    m_busy->setMaximumWidth(160);
    m_busy->hide();
    statusBar()->addPermanentWidget(m_busy);

    m_actions = std::make_unique<WindowActions>(this);
    connectActions();
    buildDocks();
    connectEngine();

    m_counter_timer.setSingleShot(true);
    m_counter_timer.setInterval(40);
    connect(&m_counter_timer, &QTimer::timeout, this, &MainWindow::refreshCounters);
    m_live_timer.setInterval(250);
    connect(&m_live_timer, &QTimer::timeout, this, [this] {
        refreshCounters();
        updateHud(); // the stall clock runs while no frame comes
    });
    connect(m_clock, &PlaybackClock::stateChanged, this, [this](PlaybackClock::State state) {
        updateActions();
        updateHud();
        if (state == PlaybackClock::State::Finished && m_engine->result() &&
            !m_engine->recordingPath().isEmpty()) {
            std::vector<int> chunk_frames;
            for (const auto& record : m_engine->liveMetrics().records()) {
                chunk_frames.push_back(record.num_frames);
            }
            m_recording->open(m_engine->recordingPath(), chunk_frames);
        }
    });
    // The HUD describes the picture on screen, so it follows the view, not the clock.
    connect(m_video, &VideoView::frameDisplayed, this, [this] { updateHud(); });
    connect(m_form, &SessionForm::changed, this, &MainWindow::updateActions);
    connect(m_prompt_panel, &PromptPanel::sendRequested, this, &MainWindow::sendPrompt);
    connect(m_steering, &CameraSteering::keysChanged, this, [this] { updateHud(); });
    connect(m_exports, &ExportController::busyChanged, this,
            [this](bool busy, const QString& what) {
                m_busy->setVisible(busy);
                if (busy) {
                    m_status->setText(what);
                }
            });
    connect(m_exports, &ExportController::finished, this, [this](const ExportOutcome& outcome) {
        if (outcome.ok) {
            m_status->setText(outcome.message);
        } else {
            showBanner(outcome.message);
        }
    });

    // Idle picture: the first frame the session would start from.
    QImage first;
    first.loadFromData(lbm::bundledFirstFramePng(), "PNG");
    m_video->showStill(first);

    loadSettings();
    m_counters->reset(m_form->chunks(), lbm::numFramesForChunks(m_form->chunks()),
                      m_form->deadlineMs());
    m_chart_model->reset(m_form->deadlineMs(), m_form->warmupChunks(), m_form->chunks());
    updateActions();
    m_status->setText(tr("Ready: press F5 to start a session on the built-in simulator."));
}

MainWindow::~MainWindow() {
    m_feed->detach();
}

KeyPad* MainWindow::keyPad() const {
    return m_steering_panel->keyPad();
}

double MainWindow::speedFactor() const {
    return m_steering->speedFactor();
}

void MainWindow::setSpeedFactor(double factor) {
    m_steering->setSpeedFactor(factor);
}

const std::vector<lbm::protocol::CameraSe3>& MainWindow::sentVelocities() const {
    return m_steering->sentVelocities();
}

void MainWindow::connectActions() {
    const WindowActions& a = *m_actions;
    connect(a.open_workload, &QAction::triggered, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open workload"), {}, tr("Workload (*.json)"));
        if (!path.isEmpty()) {
            openWorkload(path);
        }
    });
    connect(a.save_workload, &QAction::triggered, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save workload"), {}, tr("Workload (*.json)"));
        if (path.isEmpty()) {
            return;
        }
        try {
            m_form->saveWorkloadFile(path);
        } catch (const std::exception& error) {
            showBanner(QString::fromUtf8(error.what()));
        }
    });
    connect(a.open_document, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open session document"), {},
                                                          tr("Session (*.json)"));
        if (!path.isEmpty()) {
            openDocument(path);
        }
    });
    connect(a.compare_document, &QAction::triggered, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Compare with"), {}, tr("Session (*.json)"));
        if (!path.isEmpty()) {
            compareDocument(path);
        }
    });
    connect(a.save_document, &QAction::triggered, this, &MainWindow::saveDocumentAs);
    connect(a.export_csv, &QAction::triggered, this, &MainWindow::exportCsv);
    connect(a.export_png, &QAction::triggered, this, &MainWindow::exportChartPng);
    connect(a.save_video, &QAction::triggered, this, &MainWindow::saveVideo);
    connect(a.quit, &QAction::triggered, this, &MainWindow::close);
    connect(a.start, &QAction::triggered, this, [this] { startSession(); });
    connect(a.stop, &QAction::triggered, this, &MainWindow::stopSession);
    connect(a.pause, &QAction::triggered, this, [this] {
        if (m_clock->state() == PlaybackClock::State::Paused) {
            m_clock->resume();
        } else {
            m_clock->pause();
        }
    });
    connect(a.step, &QAction::triggered, m_clock, &PlaybackClock::stepForward);
    connect(a.hud, &QAction::triggered, this, &MainWindow::setHudVisible);
    connect(a.presenter, &QAction::triggered, this, &MainWindow::setPresenterMode);
    connect(a.chart_follow, &QAction::triggered, this, [this] { m_chart->setFollow(true); });
    connect(a.chart_whole, &QAction::triggered, this, [this] { m_chart->setFollow(false); });
    connect(a.chart_percentiles, &QAction::triggered, this,
            [this] { m_chart->setPercentilesVisible(!m_chart->percentilesVisible()); });
    connect(a.shortcuts, &QAction::triggered, this, &MainWindow::showShortcuts);
    connect(a.about, &QAction::triggered, this, &MainWindow::showAbout);
}

void MainWindow::connectEngine() {
    using lbm::engine::SessionEngine;
    connect(m_engine, &SessionEngine::chunkLanded, this, &MainWindow::onChunkLanded);
    connect(m_engine, &SessionEngine::timelineChanged, this, &MainWindow::onTimeline);
    connect(m_engine, &SessionEngine::finished, this, &MainWindow::onSessionFinished);
    connect(m_engine, &SessionEngine::promptScheduled, this,
            [this](const QString& id, qint64 after, const QString& prompt, int k) {
                m_transition_chunks.insert(id, k);
                m_prompt_panel->addScheduled(id, prompt, k, after);
            });
    for (const auto signal : {&SessionEngine::warning, &SessionEngine::decoderProblem,
                              &SessionEngine::recordingFailed}) {
        connect(m_engine, signal, this, [this](const QString& text) { showBanner(text, false); });
    }
    connect(m_engine, &SessionEngine::stateChanged, this, [this] {
        updateActions();
        m_counter_timer.start();
    });
}

void MainWindow::buildDocks() {
    const auto dock = [this](const QString& title, const QString& name, QWidget* content,
                             Qt::DockWidgetArea area) {
        auto* widget = new QDockWidget(title, this);
        widget->setObjectName(name);
        widget->setWidget(content);
        widget->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                            QDockWidget::DockWidgetClosable);
        addDockWidget(area, widget);
        m_actions->view_menu->addAction(widget->toggleViewAction());
        m_docks.append(widget);
        return widget;
    };
    const auto scrolled = [this](QWidget* content) {
        auto* scroll = new QScrollArea(this);
        scroll->setWidget(content);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setMinimumWidth(340);
        scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        return scroll;
    };
    QDockWidget* session_dock = dock(tr("Session"), QStringLiteral("SessionDock"), scrolled(m_form),
                                     Qt::LeftDockWidgetArea);
    QDockWidget* counters_dock = dock(tr("Live counters"), QStringLiteral("CountersDock"),
                                      scrolled(m_counters), Qt::RightDockWidgetArea);
    QDockWidget* camera_dock =
        dock(tr("Camera"), QStringLiteral("CameraDock"), m_steering_panel, Qt::LeftDockWidgetArea);
    QDockWidget* prompt_dock = dock(tr("Prompt transitions"), QStringLiteral("PromptDock"),
                                    m_prompt_panel, Qt::RightDockWidgetArea);
    QDockWidget* chart_dock =
        dock(tr("Latency"), QStringLiteral("ChartDock"), m_chart, Qt::BottomDockWidgetArea);
    splitDockWidget(session_dock, camera_dock, Qt::Vertical);
    tabifyDockWidget(counters_dock, prompt_dock);
    counters_dock->raise();
    resizeDocks({chart_dock}, {330}, Qt::Vertical);
    resizeDocks({session_dock, counters_dock}, {350, 380}, Qt::Horizontal);
    resizeDocks({session_dock, camera_dock}, {400, 150}, Qt::Vertical);
}

void MainWindow::loadSettings() {
    QSettings settings;
    m_form->setUseSimulator(settings.value(QStringLiteral("endpoint/simulator"), true).toBool());
    m_form->setSimulatorProfile(
        settings.value(QStringLiteral("endpoint/profile"), QStringLiteral("fast")).toString());
    m_form->setServerUrlText(settings.value(QStringLiteral("endpoint/url")).toString());
    const QString prompt = settings.value(QStringLiteral("session/prompt")).toString();
    if (!prompt.isEmpty()) {
        m_form->setPrompt(prompt);
    }
    m_form->setImagePath(settings.value(QStringLiteral("session/image")).toString());
    const QStringList presets = settings.value(QStringLiteral("prompt/presets")).toStringList();
    if (!presets.isEmpty()) {
        m_prompt_panel->setPresets(presets);
    }
    setSpeedFactor(settings.value(QStringLiteral("camera/speed"), 1.0).toDouble());
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue(QStringLiteral("endpoint/simulator"), m_form->useSimulator());
    settings.setValue(QStringLiteral("endpoint/profile"), m_form->simulatorProfile());
    settings.setValue(QStringLiteral("endpoint/url"), m_form->serverUrlText());
    settings.setValue(QStringLiteral("session/prompt"), m_form->prompt());
    settings.setValue(QStringLiteral("session/image"), m_form->imagePath());
    settings.setValue(QStringLiteral("prompt/presets"), m_prompt_panel->presets());
    settings.setValue(QStringLiteral("camera/speed"), speedFactor());
    if (!m_presenter) {
        settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
        settings.setValue(QStringLiteral("window/state"), saveState());
    }
}

QString MainWindow::bannerText() const {
    return m_banner->isHidden() ? QString() : m_banner->text();
}

void MainWindow::showBanner(const QString& text, bool error) {
    const QColor color = error ? lateColor(palette()) : nearLimitColor(palette());
    m_banner->setStyleSheet(
        QStringLiteral("QLabel { border: 1px solid %1; border-radius: 4px; background: %2; }")
            .arg(color.name(),
                 QColor(color.red(), color.green(), color.blue(), 40).name(QColor::HexArgb)));
    m_banner->setText(text);
    m_banner->show();
}

void MainWindow::hideBanner() {
    m_banner->hide();
}

bool MainWindow::startSession() {
    if (m_engine->running()) {
        return false;
    }
    const QString problem = m_form->validate();
    if (!problem.isEmpty()) {
        showBanner(tr("Cannot start: %1").arg(problem));
        return false;
    }
    lbm::engine::EngineSettings settings;
    try {
        settings = engineSettingsFromForm(*m_form);
    } catch (const std::exception& error) {
        showBanner(tr("Cannot start: %1").arg(QString::fromUtf8(error.what())));
        return false;
    }
    m_recording_dir = std::make_unique<QTemporaryDir>();
    if (!m_recording_dir->isValid()) {
        showBanner(tr("Cannot start: no temporary folder for the recording: %1")
                       .arg(m_recording_dir->errorString()));
        return false;
    }
    settings.recording_path = m_recording_dir->filePath(QStringLiteral("session.m4s"));
    settings.presentation_capacity = kPresentationQueueFrames;

    hideBanner();
    m_viewer->close();
    m_chart_model->clearComparison();
    m_chart_model->reset(m_form->deadlineMs(), settings.warmup_chunks,
                         static_cast<int>(settings.workload.numChunks()));
    m_counters->reset(static_cast<int>(settings.workload.numChunks()),
                      settings.workload.numFrames(), m_form->deadlineMs());
    m_prompt_panel->clearHistory();
    m_scrub->hide();
    m_recording->close();
    m_transition_chunks.clear();
    m_steering->releaseAll();
    m_steering->clearLog();
    for (const auto& update : settings.workload.prompt_updates) {
        m_transition_chunks.insert(QString::fromStdString(update.eventId()),
                                   update.transition_chunks);
    }

    QString error;
    if (!m_engine->start(settings, &error)) {
        showBanner(tr("Cannot start: %1").arg(error));
        updateActions();
        return false;
    }
    m_chart_model->attach(&m_engine->liveMetrics(),
                          static_cast<int>(settings.workload.numChunks()));
    m_feed->attach(m_engine, settings.target_fps, settings.playback_buffer_chunks);
    m_steering->setSession(m_engine, m_form->steeringEnabled());
    m_live_timer.start();
    m_status->setText(tr("Session on %1").arg(m_engine->endpointText()));
    m_video->setFocus();
    updateActions();
    return true;
}

void MainWindow::stopSession() {
    if (m_engine->running()) {
        m_steering->releaseAll();
        m_engine->stop();
    }
}

void MainWindow::updateActions() {
    const bool running = m_engine->running();
    const bool has_records = !m_engine->liveMetrics().empty() || m_viewer->document().has_value();
    const WindowActions& a = *m_actions;
    a.start->setEnabled(!running);
    a.stop->setEnabled(running);
    m_form->setEnabled(!running);
    const bool clock_active = m_clock->state() != PlaybackClock::State::Idle;
    a.pause->setEnabled(clock_active);
    a.pause->setChecked(m_clock->state() == PlaybackClock::State::Paused);
    a.step->setEnabled(m_clock->state() == PlaybackClock::State::Paused);
    a.save_document->setEnabled(has_records);
    a.export_csv->setEnabled(has_records);
    a.save_video->setEnabled(m_engine->result().has_value() &&
                             !m_engine->recordingPath().isEmpty() && !m_viewer->document());
    m_prompt_panel->setSessionActive(running);

    const bool steering = running && m_form->steeringEnabled();
    if (!running) {
        m_steering_panel->setStatus(
            false, m_form->steeringEnabled()
                       ? tr("Start a session, click the video, then hold W A S D / I J K L.")
                       : tr("Steering needs Camera: \"%1\" in the session form.")
                             .arg(SessionForm::steerCameraChoice()));
    } else if (!steering) {
        m_steering_panel->setStatus(false,
                                    tr("Steering is off for this workload: the server says \"%1\".")
                                        .arg(kScriptSteeringRefusal));
    } else {
        m_steering_panel->setStatus(true, tr("Click the video, then hold W A S D (move) and "
                                             "I J K L (look). Releasing the keys stops the "
                                             "camera."));
    }
}

void MainWindow::sendPrompt(const QString& prompt, int transition_chunks,
                            std::optional<qint64> after) {
    if (!m_engine->running()) {
        return;
    }
    if (after) {
        // The engine's scheduler sends it right after that chunk (at once if it landed).
        m_engine->schedulePrompt(*after, prompt, transition_chunks);
        return;
    }
    const QString id = m_engine->sendPrompt(prompt, transition_chunks);
    m_transition_chunks.insert(id, transition_chunks);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_video && event->type() == QEvent::KeyPress) {
        auto* key_event = static_cast<QKeyEvent*>(event);
        if (m_scrub->isVisible() &&
            (key_event->key() == Qt::Key_Left || key_event->key() == Qt::Key_Right)) {
            m_scrub->setPosition(m_scrub->position() + (key_event->key() == Qt::Key_Left ? -1 : 1));
            return true;
        }
        if (key_event->key() == Qt::Key_Escape && m_presenter) {
            setPresenterMode(false);
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveSettings();
    if (m_engine->running()) {
        m_engine->stop();
    }
    m_exports->waitForIdle(30000); // a file being written is finished, not cut off
    QMainWindow::closeEvent(event);
}

void MainWindow::onChunkLanded(const lbm::ChunkRecord& /*record*/, double /*simulated_stall_ms*/) {
    m_chart_model->chunkAdded();
    m_counter_timer.start();
    updateActions();
}

void MainWindow::onTimeline(const lbm::session::TimelineEvent& event,
                            const lbm::session::InteractionRecord& record) {
    using lbm::session::TimelineEventType;
    m_prompt_panel->updateInteraction(record);
    const QString label =
        QStringLiteral("%1 %2: %3")
            .arg(lbm::session::interactionKindName(record.kind),
                 lbm::session::timelineEventTypeName(event.type), record.summary.left(60));
    const double between_chunks = m_engine->liveMetrics().chunkCount() - 0.5;
    switch (event.type) {
    case TimelineEventType::Sent:
        m_chart_model->addEventMark({ChartEventMark::Kind::Sent, between_chunks, label});
        break;
    case TimelineEventType::Started:
        m_chart_model->addEventMark({ChartEventMark::Kind::Started,
                                     static_cast<double>(event.chunk_index.value_or(0)), label});
        break;
    case TimelineEventType::Completed:
        m_chart_model->addEventMark({ChartEventMark::Kind::Completed,
                                     static_cast<double>(event.chunk_index.value_or(0)), label});
        break;
    case TimelineEventType::Error:
        m_chart_model->addEventMark({ChartEventMark::Kind::Failed, between_chunks,
                                     label + QStringLiteral(" — ") + event.detail});
        showBanner(tr("Interaction %1 failed: %2").arg(event.event_id, event.detail));
        break;
    case TimelineEventType::Queued:
    case TimelineEventType::Active:
        break;
    }
    updateHud();
}

void MainWindow::onSessionFinished(const lbm::session::SessionResult& result) {
    m_steering->releaseAll();
    refreshCounters();
    if (!result.ok && !result.stop_requested) {
        // Server errors are quoted verbatim by the session engine.
        showBanner(result.error);
    } else if (result.stop_requested) {
        showBanner(tr("Session stopped after %1 chunk(s).").arg(result.records.size()), false);
    }
    m_status->setText(result.ok ? tr("Session finished: %1 chunks in %2 s")
                                      .arg(result.records.size())
                                      .arg(result.wall_s, 0, 'f', 2)
                                : tr("Session ended: %1").arg(result.error));
    updateActions();
}

void MainWindow::refreshCounters() {
    if (!m_engine->hasSession() || m_viewer->document()) {
        return;
    }
    const auto& live = m_engine->liveMetrics();
    const auto& result = m_engine->result();
    m_counters->showConnection(lbm::session::sessionStateName(m_engine->state()),
                               m_engine->requestId());
    m_counters->showFrames(m_engine->framesDecoded(), m_engine->framesAnnounced());
    m_counters->showObservedStalls(m_clock->stalls());
    if (!live.empty()) {
        const std::optional<double> ttfc =
            result && result->ttfc_s ? result->ttfc_s : live.records().front().arrival_s;
        const double wall = result ? result->wall_s : live.records().back().arrival_s;
        // Before the start buffer fills the seed refuses the playback part; the simulated
        // playback row below says so.
        if (const auto metrics = live.tryMetrics(ttfc, wall)) {
            m_counters->showMetrics(*metrics);
        }
    }
    const double now_s = m_engine->sessionNowS();
    m_counters->showSimulatedPlayback(live.simulatedPlayback(),
                                      live.playback().bufferedAheadSeconds(now_s),
                                      !result && live.playback().stalledAt(now_s));
}

void MainWindow::updateHud() {
    HudState state;
    const auto& current = m_video->displayedFrame();
    if (current) {
        state.chunk_index = current->chunk_index;
        state.frame_number = current->frame_number;
    }
    if (m_engine->hasSession()) {
        state.expected_frames = m_engine->settings().workload.numFrames();
        // The active transition: the newest prompt that has started.
        const auto& interactions = m_engine->timeline().interactions();
        for (auto it = interactions.crbegin(); it != interactions.crend(); ++it) {
            if ((it->kind == lbm::session::InteractionKind::Prompt ||
                 it->kind == lbm::session::InteractionKind::ScheduledPrompt) &&
                it->started_chunk) {
                const int k = std::max(1, m_transition_chunks.value(it->event_id, 1));
                const qint64 at = current ? current->chunk_index : *it->started_chunk;
                state.prompt = it->summary;
                state.transition_chunks = k;
                state.transition_step =
                    static_cast<int>(std::clamp<qint64>(at - *it->started_chunk + 1, 0, k));
                state.transition_done =
                    it->completed_chunk && current && current->chunk_index >= *it->completed_chunk;
                break;
            }
        }
    }
    if (!m_steering->heldKeys().none()) {
        state.keys = m_steering->heldKeys().letters().toUpper();
        state.speed = m_steering->speedFactor();
    }
    state.buffered_ahead_s = m_clock->bufferedAheadSeconds();
    const auto clock_state = m_clock->state();
    if (clock_state == PlaybackClock::State::Stalled) {
        state.stalled_ms = m_clock->stalls().ongoing_s * 1000.0;
    }
    state.buffering = clock_state == PlaybackClock::State::Buffering;
    state.paused = clock_state == PlaybackClock::State::Paused;
    const QStringList lines = composeHudLines(state);
    if (lines != m_video->hud().lines()) {
        m_video->hud().setLines(lines);
        m_video->refreshOverlay();
    }
}

void MainWindow::setHudVisible(bool visible) {
    m_video->hud().setVisible(visible);
    m_actions->hud->setChecked(visible);
    m_video->refreshOverlay();
}

void MainWindow::setPresenterMode(bool on) {
    if (m_presenter == on) {
        return;
    }
    m_presenter = on;
    m_actions->presenter->setChecked(on);
    m_video->hud().setCompact(on);
    if (on) {
        m_state_before_presenter = saveState();
        for (QDockWidget* dock : std::as_const(m_docks)) {
            dock->hide();
        }
        menuBar()->hide();
        statusBar()->hide();
        for (QToolBar* bar : findChildren<QToolBar*>()) {
            bar->hide();
        }
        // Shortcuts keep working with the menu bar hidden.
        addActions(m_actions->presenterShortcuts());
        centralWidget()->layout()->setContentsMargins(0, 0, 0, 0);
        showFullScreen();
    } else {
        menuBar()->show();
        statusBar()->show();
        for (QToolBar* bar : findChildren<QToolBar*>()) {
            bar->show();
        }
        restoreState(m_state_before_presenter);
        centralWidget()->layout()->setContentsMargins(6, 6, 6, 6);
        showNormal();
    }
    m_video->setFocus();
    m_video->refreshOverlay();
}

bool MainWindow::openWorkload(const QString& path) {
    try {
        m_form->loadWorkloadFile(path);
        hideBanner();
        m_status->setText(tr("Loaded workload %1").arg(QDir::toNativeSeparators(path)));
        return true;
    } catch (const std::exception& error) {
        showBanner(tr("Cannot open workload %1: %2").arg(path, QString::fromUtf8(error.what())));
        return false;
    }
}

bool MainWindow::openDocument(const QString& path) {
    if (m_engine->running()) {
        showBanner(tr("Stop the session before opening a document."));
        return false;
    }
    QString error;
    if (!m_viewer->open(path, &error)) {
        showBanner(error);
        return false;
    }
    m_live_timer.stop();
    m_chart->setFollow(false);
    if (!m_viewer->warning().isEmpty()) {
        showBanner(m_viewer->warning(), false);
    } else {
        hideBanner();
    }
    m_status->setText(m_viewer->statusText());
    updateActions();
    return true;
}

bool MainWindow::compareDocument(const QString& path) {
    QString error;
    if (!m_viewer->compare(path, &error)) {
        showBanner(error);
        return false;
    }
    return true;
}

std::optional<lbm::report::SessionDocument> MainWindow::currentDocument() const {
    if (m_viewer->document()) {
        return m_viewer->document();
    }
    if (!m_engine->hasSession() || m_engine->liveMetrics().empty()) {
        return std::nullopt;
    }
    lbm::engine::SessionDocumentBuilder builder(m_engine->settings(), m_engine->url().toString());
    const auto stalls = m_clock->stalls();
    builder.addSession(*m_engine,
                       QJsonObject{{QStringLiteral("observed_player_stalls"),
                                    QJsonObject{
                                        {QStringLiteral("count"), stalls.count},
                                        {QStringLiteral("total_ms"), stalls.total_s * 1000.0},
                                        {QStringLiteral("longest_ms"), stalls.longest_s * 1000.0},
                                    }}});
    return builder.document();
}

void MainWindow::saveDocumentAs() {
    const auto document = currentDocument();
    if (!document) {
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save session document"), QStringLiteral("session.json"), tr("Session (*.json)"));
    if (!path.isEmpty()) {
        m_exports->saveDocument(*document, path);
    }
}

void MainWindow::exportCsv() {
    const auto document = currentDocument();
    if (!document) {
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chunks"), QStringLiteral("chunks.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty()) {
        return;
    }
    if (m_viewer->document()) {
        m_exports->saveCsv(lbm::report::ChunkCsvTable(document->sessions.front().chunks,
                                                      m_chart->deadlineMs(),
                                                      document->config.warmup_chunks),
                           path);
    } else {
        m_exports->saveCsv(lbm::engine::sessionCsvTable(*m_engine), path);
    }
}

void MainWindow::exportChartPng() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chart"), QStringLiteral("latency.png"), tr("PNG (*.png)"));
    if (path.isEmpty()) {
        return;
    }
    // Rendered here (the chart is a scene on this thread); encoded and written off it.
    const QSize size = m_chart->width() >= 640 ? m_chart->size() : QSize(1280, 480);
    m_exports->savePng(m_chart->renderImage(size), path);
}

void MainWindow::saveVideo() {
    if (m_engine->recordingPath().isEmpty()) {
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save video"), QStringLiteral("session.mp4"), tr("MP4 (*.mp4)"));
    if (!path.isEmpty()) {
        m_exports->saveVideo(m_engine->recordingPath(), path);
    }
}

void MainWindow::prepareScrub() {
    const int count = m_recording->frameCount();
    if (count == 0) {
        return;
    }
    QList<int> chunk_starts;
    for (const auto& record : m_engine->liveMetrics().records()) {
        const int first = m_recording->firstFrameOfChunk(record.index);
        if (first >= 0 && first < count) {
            chunk_starts << first;
        }
    }
    QList<int> event_frames;
    for (const auto& record : m_engine->timeline().interactions()) {
        for (const auto& chunk : {record.started_chunk, record.completed_chunk}) {
            const int first = chunk ? m_recording->firstFrameOfChunk(*chunk) : -1;
            if (first >= 0 && first < count) {
                event_frames << first;
            }
        }
    }
    m_scrub->setFrames(count, chunk_starts, event_frames);
    m_scrub->setPosition(count - 1);
    m_scrub->show();
    m_recording->request(count - 1);
}

void MainWindow::showScrubFrame(const lbm::playback::PlaybackFrame& frame) {
    m_video->showFrame(frame);
    m_scrub->setLabel(tr("frame %1 · chunk %2 (frame %3 in chunk)")
                          .arg(frame.frame_number)
                          .arg(frame.chunk_index)
                          .arg(frame.index_in_chunk));
}

void MainWindow::showShortcuts() {
    QStringList rows;
    for (QAction* action : findChildren<QAction*>()) {
        if (!action->shortcut().isEmpty()) {
            rows << QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                        .arg(action->shortcut().toString(QKeySequence::NativeText),
                             action->text().remove(QLatin1Char('&')));
        }
    }
    rows << tr("<tr><td><b>W A S D</b></td><td>Move the camera (video focused)</td></tr>")
         << tr("<tr><td><b>I J K L</b></td><td>Pitch / yaw the camera (video focused)</td></tr>")
         << tr("<tr><td><b>Ctrl+Return</b></td><td>Send the prompt transition</td></tr>");
    QMessageBox::information(
        this, tr("Keyboard shortcuts"),
        QStringLiteral("<table cellspacing=6>%1</table>").arg(rows.join(QString())));
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About LingBot Live Monitor"),
                       tr("<b>LingBot Live Monitor</b> %1<br>Live monitor for realtime "
                          "world-model video streams (LingBot-World over vLLM-Omni).<br>Qt %2")
                           .arg(QStringLiteral(LBM_VERSION), QString::fromLatin1(qVersion())));
}

} // namespace lbm::ui
