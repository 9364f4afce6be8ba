#include "ui/main_window.h"

#include "metrics/geometry.h"
#include "ui/banner.h"
#include "ui/broadcast_panel.h"
#include "ui/camera_steering.h"
#include "ui/counters_panel.h"
#include "ui/document_viewer.h"
#include "ui/eliding_label.h"
#include "ui/export_controller.h"
#include "ui/latency_chart.h"
#include "ui/latency_chart_model.h"
#include "ui/live_readout.h"
#include "ui/playback_feed.h"
#include "ui/presenter_mode.h"
#include "ui/prompt_panel.h"
#include "ui/quality_counters_panel.h"
#include "ui/quality_track.h"
#include "ui/quality_views.h"
#include "ui/recording_player.h"
#include "ui/scrub_bar.h"
#include "ui/session_exports.h"
#include "ui/session_form.h"
#include "ui/session_library.h"
#include "ui/session_status.h"
#include "ui/side_by_side_window.h"
#include "ui/status_colors.h"
#include "ui/steering_panel.h"
#include "ui/transition_filmstrip.h"
#include "ui/video_view.h"
#include "ui/window_actions.h"
#include "ui/window_dialogs.h"
#include "ui/window_layout.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QVBoxLayout>

#include <csignal>
#include <exception>

namespace lbm::ui {

namespace {

using lbm::playback::PlaybackClock;

} // namespace

MainWindow::MainWindow(QWidget* parent, const QString& archive_root)
    : QMainWindow(parent) {
    setObjectName(QStringLiteral("MainWindow"));
    setDockNestingEnabled(true);

    m_engine = new lbm::engine::SessionEngine(this);
    m_keeper = new lbm::engine::SessionKeeper(m_engine, archive_root, this);
    m_clock = new PlaybackClock(this);
    m_feed = new PlaybackFeed(m_clock, this);
    m_steering = new CameraSteering(this);
    m_exports = new ExportController(this);
    m_form = new SessionForm(this);
    m_counters = new CountersPanel(this);
    m_chart_model = new LatencyChartModel(this);
    m_chart = new LatencyChart(m_chart_model, this);
    m_prompt_panel = new PromptPanel(this);
    m_steering_panel = new SteeringPanel(m_steering, this);
    m_viewer = new DocumentViewer(m_chart_model, m_counters, this);
    m_session_exports =
        std::make_unique<SessionExports>(this, m_engine, m_clock, m_viewer, m_chart, m_exports);
    m_keeper->setViewExtras([this] {
        return QJsonObject{{QStringLiteral("observed_player_stalls"),
                            lbm::playback::observedStallsJson(m_clock->stalls())}};
    });

    // The video in the middle: banner above, the recording's transport bar below.
    auto* central = new QWidget(this);
    auto* central_layout = new QVBoxLayout(central);
    central_layout->setContentsMargins(6, 6, 6, 6);
    central_layout->setSpacing(6);
    m_banner = new Banner(central);
    m_video = new VideoView(central);
    m_video->setToolTip(tr("Click the video to steer with W A S D (move) and I J K L (look)"));
    m_video->installEventFilter(this);
    m_steering->watch(m_video);
    m_clock->setPresenter(
        [this](const lbm::media::DecodedFrame& frame) { m_video->showFrame(frame); });
    m_scrub = new ScrubBar(central);
    m_scrub->hide();
    m_player = new RecordingPlayer(m_scrub, m_video, this);
    // Neither the banner (over the video's top edge) nor the scrub bar (its room kept while
    // hidden) moves the video when it comes or goes.
    m_banner->overlay(m_video);
    QSizePolicy scrub_policy = m_scrub->sizePolicy();
    scrub_policy.setRetainSizeWhenHidden(true);
    m_scrub->setSizePolicy(scrub_policy);
    central_layout->addWidget(m_video, 1);
    central_layout->addWidget(m_scrub);
    setCentralWidget(central);

    // Paths and URLs make it long: shortened in the middle, whole in its tooltip.
    m_status = new ElidingLabel(this);
    statusBar()->addWidget(m_status, 1);
    m_busy = new QProgressBar(this);
    m_busy->setRange(0, 0); // a stream copy has no progress to report: busy, not a percentage
    m_busy->setMaximumWidth(160);
    m_busy->hide();
    statusBar()->addPermanentWidget(m_busy);

    m_actions = std::make_unique<WindowActions>(this);
    m_presenter = new PresenterMode(this, m_video, this);
    m_readout =
        new LiveReadout({m_engine, m_clock, m_counters, m_chart_model, m_video, m_steering}, this);
    connect(m_readout, &LiveReadout::titleChanged, this, &QWidget::setWindowTitle);
    connect(m_readout, &LiveReadout::stallChanged, this, [this](const QString& stall) {
        stall.isEmpty() ? m_banner->clearStall() : m_banner->showStall(stall);
    });
    m_quality = new QualityViews(m_engine, m_chart, this);
    connectActions();
    // The quality counters read as part of the live counters, in the same scrolling column.
    auto* counters_column = new QWidget(this);
    auto* counters_layout = new QVBoxLayout(counters_column);
    counters_layout->setContentsMargins(0, 0, 0, 0);
    counters_layout->addWidget(m_counters);
    counters_layout->addWidget(m_quality->counters());
    counters_layout->addStretch(1);
    m_dock_set = std::make_unique<DockSet>(
        buildDocks(this, m_actions->view_menu,
                   {m_form, m_steering_panel, counters_column, m_prompt_panel, m_chart,
                    m_quality->track(), m_quality->filmstrip()}));
    m_docks = m_dock_set->all();
    m_dock_set->broadcast =
        addBroadcastDock(this, m_actions->view_menu, m_engine, m_dock_set->prompts);
    m_docks.append(m_dock_set->broadcast);
    connectEngine();
    connectQuality();
    m_presenter->setDocks(m_docks);
    m_presenter->setShortcutActions(m_actions->presenterShortcuts());

    m_counter_timer.setSingleShot(true);
    m_counter_timer.setInterval(40);
    connect(&m_counter_timer, &QTimer::timeout, this, &MainWindow::refreshCounters);
    // 10 Hz: a stall shows within a tenth of a second of its deadline.
    m_live_timer.setInterval(100);
    connect(&m_live_timer, &QTimer::timeout, this, &MainWindow::refreshCounters);
    connect(m_clock, &PlaybackClock::stateChanged, this, [this](PlaybackClock::State state) {
        updateActions();
        updateHud();
        if (state == PlaybackClock::State::Finished && m_engine->result() &&
            !m_engine->recordingPath().isEmpty()) {
            m_player->open(m_engine->recordingPath(), m_engine->liveMetrics().records(),
                           sessionScrubMarks(), m_engine->settings().metrics.fps);
        }
    });
    // The HUD describes the picture on screen, so it follows the view, not the clock.
    connect(m_video, &VideoView::frameDisplayed, this, [this] {
        updateHud();
        const auto& shown = m_video->displayedFrame();
        m_quality->setShownChunk(shown ? std::optional<qint64>(shown->tag().chunkIndex())
                                       : std::nullopt);
    });
    connect(m_form, &SessionForm::changed, this, &MainWindow::updateActions);
    connect(m_prompt_panel, &PromptPanel::sendRequested, this, &MainWindow::sendPrompt);
    connect(m_steering, &CameraSteering::keysChanged, this, [this] { updateHud(); });
    connect(m_chart, &LatencyChart::chunkClicked, m_player, &RecordingPlayer::seekChunk);
    // Space and the step action drive the player once its recording is indexed.
    connect(m_player, &RecordingPlayer::opened, this, &MainWindow::updateActions);
    connect(m_player, &RecordingPlayer::failed, this,
            [this](const QString& reason) { showBanner(reason, false); });
    connect(m_exports, &ExportController::busyChanged, this,
            [this](bool busy, const QString& what) {
                m_busy->setVisible(busy);
                if (busy) {
                    m_status->setFullText(what);
                }
            });
    connect(m_exports, &ExportController::finished, this, [this](const ExportOutcome& outcome) {
        outcome.ok ? m_status->setFullText(outcome.message) : showBanner(outcome.message);
    });

    m_video->showIdlePicture();

    loadSettings();
    m_counters->reset(m_form->chunks(), lbm::numFramesForChunks(m_form->chunks()),
                      m_form->deadlineMs());
    m_chart_model->reset(m_form->deadlineMs(), m_form->warmupChunks(), m_form->chunks());
    updateActions();
    refreshCounters();
    m_status->setFullText(
        m_form->useSimulator()
            ? tr("Ready: press F5 to start a session on the built-in simulator.")
            : tr("Ready: press F5 to start a session on %1.").arg(m_form->serverUrl().toString()));
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
        try {
            if (!path.isEmpty()) {
                m_form->saveWorkloadFile(path);
            }
        } catch (const std::exception& error) {
            showBanner(QString::fromUtf8(error.what()));
        }
    });
    connect(a.open_document, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open session document"), m_keeper->archive().root(), tr("Session (*.json)"));
        if (!path.isEmpty()) {
            openDocument(path);
        }
    });
    connect(a.compare_document, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Compare with"), m_keeper->archive().root(), tr("Session (*.json)"));
        if (!path.isEmpty()) {
            compareDocument(path);
        }
    });
    auto* library = new SessionLibrary(a.recent_sessions, m_keeper, this);
    connect(library, &SessionLibrary::openRequested, this, &MainWindow::openDocument);
    connect(library, &SessionLibrary::keepChanged, this, [this] { saveSettings(); });
    // Compare picks its two sessions in the Sessions browser.
    connect(a.compare_side_by_side, &QAction::triggered, library, &SessionLibrary::showBrowser);
    // A session left running by a program that died (killed, crashed) is offered at start.
    QTimer::singleShot(0, this, [this, library] {
        if (const auto offer = library->offerEndedUnexpectedly(this)) {
            showBanner(*offer, false);
        }
    });
    connect(a.save_document, &QAction::triggered, this,
            [this] { m_session_exports->saveDocumentAs(); });
    connect(a.export_csv, &QAction::triggered, this, [this] { m_session_exports->exportCsv(); });
    connect(a.export_png, &QAction::triggered, this,
            [this] { m_session_exports->exportChartPng(); });
    connect(a.save_video, &QAction::triggered, this, [this] { m_session_exports->saveVideo(); });
    connect(a.quit, &QAction::triggered, this, &MainWindow::close);
    connect(a.start, &QAction::triggered, this, [this] { startSession(); });
    connect(a.stop, &QAction::triggered, this, &MainWindow::stopSession);
    connect(a.send_prompt, &QAction::triggered, m_prompt_panel, &PromptPanel::send);
    connect(a.pause, &QAction::triggered, this, [this] {
        if (m_player->isOpen()) {
            m_player->togglePlay(); // after the session: play the recording
        } else if (m_clock->state() == PlaybackClock::State::Paused) {
            m_clock->resume();
        } else {
            m_clock->pause();
        }
        updateActions();
    });
    connect(a.step, &QAction::triggered, this,
            [this] { m_player->isOpen() ? m_player->step(1) : void(m_clock->stepForward()); });
    connect(a.hud, &QAction::triggered, this, &MainWindow::setHudVisible);
    connect(a.presenter, &QAction::triggered, this, &MainWindow::setPresenterMode);
    connect(a.chart_follow, &QAction::triggered, this, [this] { m_chart->setFollow(true); });
    connect(a.chart_whole, &QAction::triggered, this, [this] { m_chart->setFollow(false); });
    connect(a.chart_percentiles, &QAction::triggered, this,
            [this] { m_chart->setPercentilesVisible(!m_chart->percentilesVisible()); });
    connect(a.shortcuts, &QAction::triggered, this, [this] { showShortcutsDialog(this); });
    connect(a.about, &QAction::triggered, this, [this] { showAboutDialog(this); });
}

void MainWindow::connectEngine() {
    using lbm::engine::SessionEngine;
    connect(m_engine, &SessionEngine::chunkLanded, this, [this] {
        m_chart_model->chunkAdded();
        m_counter_timer.start();
        updateActions();
    });
    connect(m_engine, &SessionEngine::timelineChanged, this,
            [this](const lbm::session::TimelineEvent& event,
                   const lbm::session::InteractionRecord& record) {
                // One event can settle other rows too (supersession, the session's end).
                m_prompt_panel->updateTimeline(m_engine->timeline());
                m_chart_model->addTimelineEvent(event, record,
                                                m_engine->liveMetrics().chunkCount());
                if (event.type == lbm::session::TimelineEventType::Error) {
                    showInteractionFailure(event, record);
                }
                updateHud();
            });
    connect(m_engine, &SessionEngine::finished, this, &MainWindow::onSessionFinished);
    // The keeper renamed the folder after the request id (it was connected first).
    connect(m_engine, &SessionEngine::videoStarted, this, [this] {
        m_status->setFullText(liveStatusFor(m_engine->endpointText(), m_keeper->current()->folder));
    });
    connect(m_engine, &SessionEngine::promptScheduled, this,
            [this](const QString& id, qint64 after, const QString& prompt, int k) {
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

QString MainWindow::bannerText() const {
    return m_banner->shownText();
}

QString MainWindow::statusText() const {
    return m_status->fullText();
}

void MainWindow::showInteractionFailure(const lbm::session::TimelineEvent& event,
                                        const lbm::session::InteractionRecord& record) {
    // The server refuses whatever arrives once it has taken its last block (the real handler
    // does too, and sends the last chunk first): a key released as the session ends is the
    // common case, and no fault. Before the last chunk has landed a refusal stays red.
    const auto planned = static_cast<int>(m_engine->settings().session.workload.numChunks());
    const bool after_last_block = event.code == QLatin1String("interaction_failed") &&
                                  m_engine->liveMetrics().chunkCount() >= planned;
    if (!after_last_block) {
        showBanner(tr("Interaction %1 failed: %2").arg(event.event_id, event.detail));
    } else if (record.isPrompt()) {
        showBanner(tr("The prompt \u201c%1\u201d came too late: the server had already "
                      "generated the session's last chunk.")
                       .arg(record.summary),
                   false);
    } else {
        m_status->setFullText(tr("Camera %1 not applied: the server had already generated the "
                                 "session's last chunk.")
                                  .arg(record.summary));
    }
}

void MainWindow::showBanner(const QString& text, bool error) {
    m_banner->showMessage(text, error);
}

void MainWindow::hideBanner() {
    m_banner->dismiss();
}

void MainWindow::updateActions() {
    const bool running = m_engine->running();
    const bool has_records = !m_engine->liveMetrics().empty() || m_viewer->document().has_value();
    const WindowActions& a = *m_actions;
    a.start->setEnabled(!running && !m_finishing_last);
    a.stop->setEnabled(running);
    m_form->setEnabled(!running);
    const bool clock_active = m_clock->state() != PlaybackClock::State::Idle &&
                              m_clock->state() != PlaybackClock::State::Finished;
    a.pause->setEnabled(clock_active || m_player->isOpen());
    a.pause->setChecked(m_clock->state() == PlaybackClock::State::Paused);
    a.step->setEnabled(m_clock->state() == PlaybackClock::State::Paused || m_player->isOpen());
    a.save_document->setEnabled(has_records);
    a.export_csv->setEnabled(has_records);
    a.save_video->setEnabled(!m_engine->recordingPath().isEmpty() && m_engine->result() &&
                             !m_viewer->document());
    m_prompt_panel->setSessionActive(running);
    m_steering_panel->showSessionState(running, m_form->steeringEnabled());
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // With a recording open the video takes the player's keys before the window's shortcuts.
    if (watched == m_video && event->type() == QEvent::ShortcutOverride && m_player->isOpen()) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Left || key == Qt::Key_Right || key == Qt::Key_Home ||
            key == Qt::Key_End) {
            event->accept();
            return true;
        }
    }
    if (watched == m_video && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Escape && m_presenter->isOn()) {
            setPresenterMode(false);
            return true;
        }
        if (m_player->handleKey(key)) {
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    const bool was_running = m_engine->running();
    if (was_running && !m_quitting) {
        if (!confirmQuitDuringSession(this, m_keeper->current() ? m_keeper->current()->folder
                                                                : m_keeper->archive().root())) {
            event->ignore();
            return;
        }
        m_steering->releaseAll();
        // The server answers session.stop with session.done; a moment for it, then go.
        m_engine->end(tr("The window was closed during the session."), 3000);
    }
    saveSettings();
    m_keeper->finalize(was_running ? tr("The window was closed during the session.") : QString(),
                       3000);
    m_exports->waitForIdle(30000); // a file being written is finished, not cut off
    QMainWindow::closeEvent(event);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (!m_layout_restored) {
        // Sized for the screen the window first appears at; the user's own layout wins later.
        m_layout_restored = true;
        m_fitted_compact = compactLayout(height());
        fitDocks(this, *m_dock_set);
    }
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    // A window shown small and then maximized (or moved to a projector) gets the layout of
    // its new height; within one side of the threshold the docks keep what the user made of
    // them. Presenter mode hides the docks and restores them itself.
    if (m_fitted_compact && *m_fitted_compact != compactLayout(height()) && isVisible() &&
        !m_presenter->isOn()) {
        m_fitted_compact = compactLayout(height());
        fitDocks(this, *m_dock_set);
    }
}

void MainWindow::terminate(int signal_number) {
    const QString reason =
        tr("Interrupted by %1.")
            .arg(signal_number == SIGINT ? QStringLiteral("SIGINT") : QStringLiteral("SIGTERM"));
    m_quitting = true;
    m_engine->end(reason, 0);
    saveSettings();
    m_keeper->finalize(reason, 1000);
    QApplication::exit(0);
}

std::optional<lbm::report::SessionDocument> MainWindow::currentDocument() const {
    return m_session_exports->currentDocument();
}

QString MainWindow::reportTitle() const {
    return m_session_exports->reportTitle();
}

void MainWindow::refreshCounters() {
    m_readout->refresh();
}

void MainWindow::updateHud() {
    m_readout->refreshHud();
}

void MainWindow::setHudVisible(bool visible) {
    m_video->hud().setVisible(visible);
    m_actions->hud->setChecked(visible);
    m_video->refreshOverlay();
}

void MainWindow::setPresenterMode(bool on) {
    m_presenter->setOn(on);
    m_actions->presenter->setChecked(on);
}

} // namespace lbm::ui
