#include "ui/main_window.h"

#include "app/media/remux.h"
#include "app/playback/video_frame_factory.h"
#include "app/report/chunk_csv.h"
#include "app/report/workload_json.h"
#include "app/session/session_notes.h"
#include "app/sim/frame_barcode.h"
#include "metrics/geometry.h"
#include "metrics/metric_error.h"
#include "metrics/session_metrics.h"
#include "resources/bundled_resources.h"
#include "ui/counters_panel.h"
#include "ui/key_pad.h"
#include "ui/latency_chart.h"
#include "ui/prompt_panel.h"
#include "ui/scrub_bar.h"
#include "ui/session_form.h"
#include "ui/status_colors.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFocusEvent>
#include <QHBoxLayout>
#include <QHostInfo>
#include <QJsonObject>
#include <QKeyEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>
#include <QVideoSink>
#include <QVideoWidget>

#include <algorithm>
#include <cmath>
#include <exception>

namespace lbm::ui {

namespace {

// The server's words for a camera interaction during a scripted rollout (protocol.md).
const QString kScriptSteeringRefusal = QStringLiteral(
    "Cannot use mid-generation camera interaction together with camera_action_script");

std::optional<QChar> cameraLetter(int key) {
    switch (key) {
    case Qt::Key_W:
        return QLatin1Char('w');
    case Qt::Key_A:
        return QLatin1Char('a');
    case Qt::Key_S:
        return QLatin1Char('s');
    case Qt::Key_D:
        return QLatin1Char('d');
    case Qt::Key_I:
        return QLatin1Char('i');
    case Qt::Key_J:
        return QLatin1Char('j');
    case Qt::Key_K:
        return QLatin1Char('k');
    case Qt::Key_L:
        return QLatin1Char('l');
    default:
        return std::nullopt;
    }
}

QString withShortcut(const QString& text, const QKeySequence& keys) {
    return QStringLiteral("%1 (%2)").arg(text, keys.toString(QKeySequence::NativeText));
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent) {
    setWindowTitle(tr("LingBot Live Monitor"));
    setObjectName(QStringLiteral("MainWindow"));
    setDockNestingEnabled(true);

    m_clock = new lbm::playback::PlaybackClock(this);
    m_form = new SessionForm(this);
    m_counters = new CountersPanel(this);
    m_chart = new LatencyChart(this);
    m_prompt_panel = new PromptPanel(this);
    m_key_pad = new KeyPad(this);

    // The video in the middle: banner above, transport below.
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
    m_video = new QVideoWidget(central);
    m_video->setFocusPolicy(Qt::StrongFocus);
    m_video->setMinimumSize(416, 240);
    m_video->setAspectRatioMode(Qt::KeepAspectRatio);
    m_video->setToolTip(tr("Click the video to steer with W A S D (move) and I J K L (look)"));
    m_video->installEventFilter(this);
    m_clock->setVideoSink(m_video->videoSink());
    m_clock->setFrameDecorator([this](QImage& image, const lbm::playback::PlaybackFrame& frame) {
        decorateFrame(image, frame);
    });
    central_layout->addWidget(m_banner);
    central_layout->addWidget(m_video, 1);
    m_scrub = new ScrubBar(central);
    m_scrub->hide();
    connect(m_scrub, &ScrubBar::positionChanged, this, &MainWindow::showScrubFrame);
    central_layout->addWidget(m_scrub);
    setCentralWidget(central);

    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);

    buildActions();
    buildDocks();

    m_counter_timer.setSingleShot(true);
    m_counter_timer.setInterval(40);
    connect(&m_counter_timer, &QTimer::timeout, this, &MainWindow::refreshCounters);
    m_live_timer.setInterval(250);
    connect(&m_live_timer, &QTimer::timeout, this, [this] {
        refreshCounters();
        const auto state = m_clock->state();
        if (state == lbm::playback::PlaybackClock::State::Stalled ||
            state == lbm::playback::PlaybackClock::State::Paused ||
            state == lbm::playback::PlaybackClock::State::Finished) {
            m_clock->refresh(); // keeps the HUD's stall time and keys current
        }
    });
    connect(m_clock, &lbm::playback::PlaybackClock::stateChanged, this,
            [this](lbm::playback::PlaybackClock::State state) {
                updateActions();
                m_clock->refresh();
                if (state == lbm::playback::PlaybackClock::State::Finished) {
                    prepareScrub();
                }
            });
    connect(m_clock, &lbm::playback::PlaybackClock::framePresented, this,
            [this](const lbm::playback::PlaybackFrame& frame) { m_history.add(frame); });
    connect(m_form, &SessionForm::changed, this, &MainWindow::updateActions);
    connect(m_prompt_panel, &PromptPanel::sendRequested, this,
            [this](const QString& prompt, int k, std::optional<qint64> after) {
                if (!after) {
                    sendPromptNow(prompt, k);
                    return;
                }
                if (m_session && static_cast<qint64>(m_session->records().size()) > *after) {
                    sendPromptNow(prompt, k); // that chunk already landed
                    return;
                }
                const QString key = QStringLiteral("pending-%1").arg(++m_scheduled_counter);
                m_scheduled.push_back({key, prompt, k, *after});
                m_prompt_panel->addScheduled(key, prompt, k, *after);
            });
    connect(m_key_pad, &KeyPad::keysClicked, this, &MainWindow::setHeldKeys);

    // Idle picture: the first frame the session would start from.
    QImage first;
    first.loadFromData(lbm::bundledFirstFramePng(), "PNG");
    if (!first.isNull()) {
        m_video->videoSink()->setVideoFrame(lbm::playback::videoFrameFromImage(first));
    }

    loadSettings();
    m_counters->reset(m_form->chunks(), lbm::numFramesForChunks(m_form->chunks()),
                      m_form->deadlineMs());
    m_chart->setDeadlineMs(m_form->deadlineMs());
    m_chart->setWarmupChunks(m_form->warmupChunks());
    m_chart->setExpectedChunks(m_form->chunks());
    updateActions();
    m_status->setText(tr("Ready: press F5 to start a session on the built-in simulator."));
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QMenu* session = menuBar()->addMenu(tr("&Session"));
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QToolBar* bar = addToolBar(tr("Session"));
    bar->setObjectName(QStringLiteral("SessionToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    const auto make = [this](QMenu* menu, const QString& text, const QKeySequence& keys,
                             const QString& tip, auto slot) {
        auto* action = new QAction(text, this);
        if (!keys.isEmpty()) {
            action->setShortcut(keys);
            action->setToolTip(withShortcut(tip, keys));
        } else {
            action->setToolTip(tip);
        }
        action->setStatusTip(tip);
        connect(action, &QAction::triggered, this, slot);
        menu->addAction(action);
        return action;
    };

    make(file, tr("&Open Workload…"), QKeySequence(Qt::CTRL | Qt::Key_O),
         tr("Load a workload file into the session form"), [this] {
             const QString path = QFileDialog::getOpenFileName(this, tr("Open workload"), {},
                                                               tr("Workload (*.json)"));
             if (!path.isEmpty()) {
                 openWorkload(path);
             }
         });
    make(file, tr("Save &Workload As…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W),
         tr("Save the form as a workload file"), [this] {
             const QString path = QFileDialog::getSaveFileName(this, tr("Save workload"), {},
                                                               tr("Workload (*.json)"));
             if (path.isEmpty()) {
                 return;
             }
             try {
                 m_form->saveWorkloadFile(path);
             } catch (const std::exception& error) {
                 showBanner(QString::fromUtf8(error.what()));
             }
         });
    file->addSeparator();
    make(file, tr("Open Session &Document…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O),
         tr("View a saved session document (ours or the Python benchmark's)"), [this] {
             const QString path = QFileDialog::getOpenFileName(this, tr("Open session document"),
                                                               {}, tr("Session (*.json)"));
             if (!path.isEmpty()) {
                 openDocument(path);
             }
         });
    make(file, tr("&Compare With Document…"), QKeySequence(Qt::CTRL | Qt::Key_K),
         tr("Draw another session document in the same chart"), [this] {
             const QString path =
                 QFileDialog::getOpenFileName(this, tr("Compare with"), {}, tr("Session (*.json)"));
             if (!path.isEmpty()) {
                 compareDocument(path);
             }
         });
    file->addSeparator();
    m_save_document_action =
        make(file, tr("&Save Session Document…"), QKeySequence(Qt::CTRL | Qt::Key_S),
             tr("Write the session document (the benchmark's JSON)"), [this] { saveDocumentAs(); });
    m_csv_action = make(file, tr("Export Chunks as &CSV…"), QKeySequence(Qt::CTRL | Qt::Key_E),
                        tr("One row per chunk"), [this] { exportCsv(); });
    make(file, tr("Export Chart as &PNG…"), QKeySequence(Qt::CTRL | Qt::Key_P),
         tr("Save the latency chart as an image"), [this] { exportChartPng(); });
    m_video_action =
        make(file, tr("Save &Video (MP4)…"), QKeySequence(Qt::CTRL | Qt::Key_M),
             tr("Stream-copy the recording into a progressive MP4"), [this] { saveVideo(); });
    file->addSeparator();
    make(file, tr("&Quit"), QKeySequence::Quit, tr("Quit"), [this] { close(); });

    m_start_action =
        make(session, tr("&Start"), QKeySequence(Qt::Key_F5),
             tr("Start a session with the form's settings"), [this] { startSession(); });
    m_stop_action = make(session, tr("S&top"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
                         tr("Send session.stop"), [this] { stopSession(); });
    session->addSeparator();
    m_pause_action = make(session, tr("&Pause"), QKeySequence(Qt::Key_Space),
                          tr("Pause or resume playback"), [this] {
                              if (m_clock->state() == lbm::playback::PlaybackClock::State::Paused) {
                                  m_clock->resume();
                              } else {
                                  m_clock->pause();
                              }
                          });
    m_pause_action->setCheckable(true);
    m_step_action =
        make(session, tr("Frame S&tep"), QKeySequence(Qt::Key_Period),
             tr("Show the next frame while paused"), [this] { m_clock->stepForward(); });

    m_hud_action = make(view, tr("&HUD Overlay"), QKeySequence(Qt::Key_H),
                        tr("Chunk, frame, prompt, keys and buffer over the video"),
                        [this](bool on) { setHudVisible(on); });
    m_hud_action->setCheckable(true);
    m_hud_action->setChecked(true);
    m_presenter_action =
        make(view, tr("P&resenter Mode"), QKeySequence(Qt::Key_F11),
             tr("Full-screen video with a compact HUD"), [this](bool on) { setPresenterMode(on); });
    m_presenter_action->setCheckable(true);
    view->addSeparator();
    make(view, tr("Chart: &Follow Latest"), QKeySequence(Qt::Key_End),
         tr("Follow the newest chunks"), [this] { m_chart->setFollow(true); });
    make(view, tr("Chart: &Whole Session"), QKeySequence(Qt::Key_Home), tr("Show every chunk"),
         [this] { m_chart->setFollow(false); });
    make(view, tr("Chart: &Percentiles"), QKeySequence(Qt::Key_P), tr("p50 / p95 / p99 lines"),
         [this] { m_chart->setPercentilesVisible(!m_chart->percentilesVisible()); });
    view->addSeparator();

    make(help, tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, tr("List the shortcuts"),
         [this] { showShortcuts(); });
    make(help, tr("&About"), QKeySequence(), tr("About LingBot Live Monitor"),
         [this] { showAbout(); });

    bar->addAction(m_start_action);
    bar->addAction(m_stop_action);
    bar->addSeparator();
    bar->addAction(m_pause_action);
    bar->addAction(m_step_action);
    bar->addSeparator();
    bar->addAction(m_hud_action);
    bar->addAction(m_presenter_action);
    m_view_menu = view;
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
        m_view_menu->addAction(widget->toggleViewAction());
        m_docks.append(widget);
        return widget;
    };

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(340);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    QDockWidget* session_dock =
        dock(tr("Session"), QStringLiteral("SessionDock"), scroll, Qt::LeftDockWidgetArea);

    auto* counters_scroll = new QScrollArea(this);
    counters_scroll->setWidget(m_counters);
    counters_scroll->setWidgetResizable(true);
    counters_scroll->setFrameShape(QFrame::NoFrame);
    counters_scroll->setMinimumWidth(340);
    counters_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    QDockWidget* counters_dock = dock(tr("Live counters"), QStringLiteral("CountersDock"),
                                      counters_scroll, Qt::RightDockWidgetArea);

    auto* camera = new QWidget(this);
    auto* camera_layout = new QVBoxLayout(camera);
    camera_layout->setContentsMargins(8, 6, 8, 6);
    auto* pad_row = new QHBoxLayout();
    pad_row->addWidget(m_key_pad);
    pad_row->addStretch(1);
    camera_layout->addLayout(pad_row);
    auto* speed_row = new QHBoxLayout();
    speed_row->addWidget(new QLabel(tr("Speed:"), camera));
    m_speed = new QSlider(Qt::Horizontal, camera);
    m_speed->setRange(1, 20);
    m_speed->setValue(10);
    m_speed->setToolTip(tr("Camera speed factor, 0.1× to 2×"));
    m_speed_label = new QLabel(camera);
    m_speed_label->setMinimumWidth(40);
    connect(m_speed, &QSlider::valueChanged, this, [this](int value) {
        m_speed_label->setText(QStringLiteral("%1×").arg(value / 10.0, 0, 'f', 1));
        if (!m_keys.none()) {
            const auto keys = m_keys;
            m_keys = {};
            setHeldKeys(keys); // resend at the new speed
        }
    });
    m_speed_label->setText(QStringLiteral("1.0×"));
    speed_row->addWidget(m_speed, 1);
    speed_row->addWidget(m_speed_label);
    camera_layout->addLayout(speed_row);
    m_steer_reason = new QLabel(camera);
    m_steer_reason->setWordWrap(true);
    camera_layout->addWidget(m_steer_reason);
    camera_layout->addStretch(1);
    QDockWidget* camera_dock =
        dock(tr("Camera"), QStringLiteral("CameraDock"), camera, Qt::LeftDockWidgetArea);

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

double MainWindow::speedFactor() const {
    return m_speed->value() / 10.0;
}

void MainWindow::setSpeedFactor(double factor) {
    m_speed->setValue(static_cast<int>(std::lround(std::clamp(factor, 0.1, 2.0) * 10.0)));
}

QString MainWindow::bannerText() const {
    return m_banner->isHidden() ? QString() : m_banner->text();
}

void MainWindow::showBanner(const QString& text, bool error) {
    const QColor color = error ? lateColor(palette()) : nearLimitColor(palette());
    m_banner->setStyleSheet(
        QStringLiteral("QLabel { border: 1px solid %1; border-radius: 4px; "
                       "background: %2; }")
            .arg(color.name(),
                 QColor(color.red(), color.green(), color.blue(), 40).name(QColor::HexArgb)));
    m_banner->setText(text);
    m_banner->show();
}

void MainWindow::hideBanner() {
    m_banner->hide();
}

bool MainWindow::startSession() {
    if (m_session && m_session->running()) {
        return false;
    }
    const QString problem = m_form->validate();
    if (!problem.isEmpty()) {
        showBanner(tr("Cannot start: %1").arg(problem));
        return false;
    }
    LiveSessionSettings settings;
    try {
        settings.workload = m_form->workload();
    } catch (const std::exception& error) {
        showBanner(tr("Cannot start: %1").arg(QString::fromUtf8(error.what())));
        return false;
    }
    settings.use_simulator = m_form->useSimulator();
    settings.simulator_profile = m_form->simulatorProfile();
    settings.url = m_form->serverUrl();
    settings.insecure = !settings.use_simulator && m_form->skipCertificateCheck();
    settings.model = m_form->model();
    settings.target_fps = m_form->targetFps();
    settings.start_buffer_chunks = m_form->startBufferChunks();
    settings.warmup_chunks = m_form->warmupChunks();
    settings.slo_ms = m_form->sloMs();
    settings.steering = m_form->steeringEnabled();

    hideBanner();
    m_document.reset();
    m_chart->clear();
    m_chart->clearComparison();
    m_chart->setPrimaryLabel(QString());
    m_chart->setDeadlineMs(m_form->deadlineMs());
    m_chart->setWarmupChunks(settings.warmup_chunks);
    m_chart->setExpectedChunks(static_cast<int>(settings.workload.numChunks()));
    m_counters->reset(static_cast<int>(settings.workload.numChunks()),
                      settings.workload.numFrames(), m_form->deadlineMs());
    m_prompt_panel->clearHistory();
    m_history.clear();
    m_scrub->hide();
    m_transition_chunks.clear();
    m_scheduled.clear();
    m_sent_velocities.clear();
    m_keys = {};
    m_key_pad->setHeld({});
    for (const auto& update : settings.workload.prompt_updates) {
        m_transition_chunks.insert(QString::fromStdString(update.eventId()),
                                   update.transition_chunks);
    }

    m_session = std::make_unique<LiveSession>(m_clock);
    connect(m_session.get(), &LiveSession::chunkLanded, this, &MainWindow::onChunkLanded);
    connect(m_session.get(), &LiveSession::timelineChanged, this, &MainWindow::onTimeline);
    connect(m_session.get(), &LiveSession::finished, this, &MainWindow::onSessionFinished);
    connect(m_session.get(), &LiveSession::problem, this,
            [this](const QString& text) { showBanner(text, false); });
    connect(m_session.get(), &LiveSession::stateChanged, this, [this] {
        updateActions();
        m_counter_timer.start();
    });
    QString error;
    if (!m_session->start(settings, &error)) {
        showBanner(tr("Cannot start: %1").arg(error));
        m_session.reset();
        updateActions();
        return false;
    }
    m_live_timer.start();
    m_status->setText(tr("Session on %1").arg(m_session->endpointText()));
    m_video->setFocus();
    updateActions();
    return true;
}

void MainWindow::stopSession() {
    if (m_session && m_session->running()) {
        setHeldKeys({});
        m_session->stop();
    }
}

void MainWindow::updateActions() {
    const bool running = m_session && m_session->running();
    const bool has_records = (m_session && !m_session->records().empty()) || m_document.has_value();
    m_start_action->setEnabled(!running);
    m_stop_action->setEnabled(running);
    m_form->setEnabled(!running);
    const bool clock_active = m_clock->state() != lbm::playback::PlaybackClock::State::Idle;
    m_pause_action->setEnabled(clock_active);
    m_pause_action->setChecked(m_clock->state() == lbm::playback::PlaybackClock::State::Paused);
    m_step_action->setEnabled(m_clock->state() == lbm::playback::PlaybackClock::State::Paused);
    m_save_document_action->setEnabled(has_records);
    m_csv_action->setEnabled(has_records);
    m_video_action->setEnabled(m_session && m_session->result().has_value() &&
                               !m_session->recordingPath().isEmpty());
    m_prompt_panel->setSessionActive(running);

    const bool steering = running && m_session->settings().steering;
    m_key_pad->setEnabled(steering);
    m_speed->setEnabled(steering);
    if (!running) {
        m_steer_reason->setText(
            m_form->steeringEnabled()
                ? tr("Start a session, click the video, then hold W A S D / I J K L.")
                : tr("Steering needs Camera: \"%1\" in the session form.")
                      .arg(SessionForm::steerCameraChoice()));
    } else if (!steering) {
        m_steer_reason->setText(tr("Steering is off for this workload: the server says \"%1\".")
                                    .arg(kScriptSteeringRefusal));
    } else {
        m_steer_reason->setText(tr("Click the video, then hold W A S D (move) and I J K L "
                                   "(look). Releasing the keys stops the camera."));
    }
}

void MainWindow::setHeldKeys(const lbm::protocol::CameraKeys& keys) {
    if (keys == m_keys) {
        return;
    }
    m_keys = keys;
    m_key_pad->setHeld(keys);
    if (m_session && m_session->running() && m_session->settings().steering) {
        const auto velocity = lbm::protocol::velocityForKeys(keys, speedFactor());
        m_sent_velocities.push_back(velocity);
        m_session->sendCameraVelocity(velocity);
    }
    m_clock->refresh();
}

void MainWindow::sendPromptNow(const QString& prompt, int transition_chunks) {
    if (!m_session || !m_session->running()) {
        return;
    }
    const QString id = m_session->sendPrompt(prompt, transition_chunks);
    m_transition_chunks.insert(id, transition_chunks);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_video) {
        if (event->type() == QEvent::KeyPress || event->type() == QEvent::KeyRelease) {
            auto* key_event = static_cast<QKeyEvent*>(event);
            const auto letter = cameraLetter(key_event->key());
            if (letter && key_event->modifiers() == Qt::NoModifier) {
                if (!key_event->isAutoRepeat()) {
                    QString letters = m_keys.letters();
                    if (event->type() == QEvent::KeyPress) {
                        letters += *letter;
                    } else {
                        letters.remove(*letter);
                    }
                    setHeldKeys(lbm::protocol::CameraKeys::fromLetters(letters));
                }
                return true;
            }
            if (event->type() == QEvent::KeyPress && m_scrub->isVisible() &&
                (key_event->key() == Qt::Key_Left || key_event->key() == Qt::Key_Right)) {
                m_scrub->setPosition(m_scrub->position() +
                                     (key_event->key() == Qt::Key_Left ? -1 : 1));
                return true;
            }
            if (event->type() == QEvent::KeyPress && key_event->key() == Qt::Key_Escape &&
                m_presenter) {
                setPresenterMode(false);
                return true;
            }
        } else if (event->type() == QEvent::FocusOut) {
            // A key released while another window has focus never reaches us: stop now.
            setHeldKeys({});
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveSettings();
    if (m_session && m_session->running()) {
        m_session->stop();
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::onChunkLanded(const lbm::ChunkRecord& record, double simulated_stall_ms) {
    m_chart->appendChunk(record);
    if (simulated_stall_ms > 0) {
        m_chart->addStallMark(record.index, simulated_stall_ms);
    }
    for (auto it = m_scheduled.begin(); it != m_scheduled.end();) {
        if (record.index >= it->after_chunk) {
            m_prompt_panel->removeScheduled(it->key);
            sendPromptNow(it->prompt, it->transition_chunks);
            it = m_scheduled.erase(it);
        } else {
            ++it;
        }
    }
    m_counter_timer.start();
    updateActions();
}

void MainWindow::onTimeline(const lbm::session::TimelineEvent& event,
                            const lbm::session::InteractionRecord& record, int chunks_received) {
    using lbm::session::TimelineEventType;
    // One event can settle other rows too (supersession, the session's end).
    m_prompt_panel->updateTimeline(m_session->timeline());
    const QString label =
        QStringLiteral("%1 %2: %3")
            .arg(lbm::session::interactionKindName(record.kind),
                 lbm::session::timelineEventTypeName(event.type), record.summary.left(60));
    switch (event.type) {
    case TimelineEventType::Sent:
        m_chart->addEventMark({ChartEventMark::Kind::Sent, chunks_received - 0.5, label});
        break;
    case TimelineEventType::Started:
        m_chart->addEventMark({ChartEventMark::Kind::Started,
                               static_cast<double>(event.chunk_index.value_or(0)), label});
        break;
    case TimelineEventType::Completed:
        m_chart->addEventMark({ChartEventMark::Kind::Completed,
                               static_cast<double>(event.chunk_index.value_or(0)), label});
        break;
    case TimelineEventType::Error:
        m_chart->addEventMark({ChartEventMark::Kind::Failed, chunks_received - 0.5,
                               label + QStringLiteral(" — ") + event.detail});
        showBanner(tr("Interaction %1 failed: %2").arg(event.event_id, event.detail));
        break;
    case TimelineEventType::Queued:
    case TimelineEventType::Active:
    case TimelineEventType::SessionEnded:
        break;
    }
}

void MainWindow::onSessionFinished(const lbm::session::SessionResult& result) {
    setHeldKeys({});
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
    if (m_session) {
        const auto& records = m_session->records();
        const auto& settings = m_session->settings();
        m_counters->showConnection(lbm::session::sessionStateName(m_session->state()),
                                   m_session->requestId());
        m_counters->showFrames(m_session->framesDecoded(), m_session->framesExpected());
        m_counters->showObservedStalls(m_clock->stalls());
        if (!records.empty()) {
            lbm::MetricsOptions options;
            options.fps = settings.target_fps;
            options.warmup_chunks = settings.warmup_chunks;
            options.slo_ms = settings.slo_ms;
            options.playback_buffer_chunks = settings.start_buffer_chunks;
            options.ttfc_s = records.front().arrival_s;
            options.session_wall_s =
                m_session->result() ? m_session->result()->wall_s : records.back().arrival_s;
            try {
                const auto metrics = lbm::computeMetrics(records, options);
                m_counters->showMetrics(metrics);
            } catch (const std::exception&) {
                // Before the start buffer the seed refuses the playback part; the live
                // simulator row below says so.
            }
        }
        const auto* simulator = m_session->simulator();
        if (simulator) {
            const double now_s = m_session->sessionNowS();
            const bool finished = m_session->result().has_value();
            m_counters->showSimulatedPlayback(m_session->simulatedPlayback(),
                                              simulator->bufferedAheadSeconds(now_s),
                                              !finished && simulator->stalledAt(now_s));
        }
        return;
    }
}

QStringList MainWindow::hudLines(const lbm::playback::PlaybackFrame& shown) const {
    QStringList lines;
    const std::optional<lbm::playback::PlaybackFrame> current = shown;
    const qint64 expected_frames = m_session ? m_session->settings().workload.numFrames() : 0;
    if (current) {
        lines << tr("chunk %1 · frame %2 / %3")
                     .arg(current->chunk_index)
                     .arg(current->frame_number)
                     .arg(expected_frames);
    }
    if (m_session) {
        // The active transition: started and not yet completed.
        const auto& interactions = m_session->timeline().interactions();
        for (auto it = interactions.crbegin(); it != interactions.crend(); ++it) {
            if ((it->kind == lbm::session::InteractionKind::Prompt ||
                 it->kind == lbm::session::InteractionKind::ScheduledPrompt) &&
                it->started_chunk) {
                const int k = std::max(1, m_transition_chunks.value(it->event_id, 1));
                const qint64 at = current ? current->chunk_index : *it->started_chunk;
                const qint64 step = std::clamp<qint64>(at - *it->started_chunk + 1, 0, k);
                if (it->completed_chunk && current &&
                    current->chunk_index >= *it->completed_chunk) {
                    lines << tr("prompt: %1").arg(it->summary.left(48));
                } else {
                    lines << tr("prompt → %1  (%2/%3)").arg(it->summary.left(40)).arg(step).arg(k);
                }
                break;
            }
        }
        if (!m_keys.none()) {
            lines << tr("keys: %1 · speed %2×")
                         .arg(m_keys.letters().toUpper())
                         .arg(speedFactor(), 0, 'f', 1);
        }
    }
    lines << tr("buffer %1 s ahead").arg(m_clock->bufferedAheadSeconds(), 0, 'f', 2);
    const auto state = m_clock->state();
    if (state == lbm::playback::PlaybackClock::State::Stalled) {
        lines << tr("STALLED %1 ms").arg(m_clock->stalls().ongoing_s * 1000.0, 0, 'f', 0);
    } else if (state == lbm::playback::PlaybackClock::State::Buffering) {
        lines << tr("buffering…");
    } else if (state == lbm::playback::PlaybackClock::State::Paused) {
        lines << tr("PAUSED");
    }
    return lines;
}

void MainWindow::decorateFrame(QImage& image, const lbm::playback::PlaybackFrame& frame) {
    if (!m_hud_visible) {
        return;
    }
    QStringList lines = hudLines(frame);
    QFont font = QApplication::font();
    font.setPixelSize(std::max(11, image.height() / 30));
    font.setBold(true);
    const QFontMetrics metrics(font);
    if (m_presenter) {
        // Compact: one line when it fits the picture, else two.
        const QString one = lines.join(QStringLiteral("  ·  "));
        if (metrics.horizontalAdvance(one) < image.width() * 9 / 10 || lines.size() < 2) {
            lines = {one};
        } else {
            const auto half = (lines.size() + 1) / 2;
            lines = {lines.mid(0, half).join(QStringLiteral("  ·  ")),
                     lines.mid(half).join(QStringLiteral("  ·  "))};
        }
    }
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.setFont(font);
    int width = 0;
    for (const QString& line : lines) {
        width = std::max(width, metrics.horizontalAdvance(line));
    }
    const int pad = metrics.height() / 2;
    // Bottom-left, above the simulator's barcode band and clear of its caption strip at the
    // top, so neither the picture's own text nor the frame number it encodes is covered.
    const int box_height = static_cast<int>(lines.size()) * metrics.height() + pad;
    const int bottom_reserve = lbm::sim::kBarcodeBandHeight * image.height() / 480 + pad;
    const QRect box(pad, image.height() - bottom_reserve - box_height, width + 2 * pad, box_height);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(0, 0, 0, 150));
    painter.drawRoundedRect(box, 6, 6);
    int y = box.top() + pad / 2 + metrics.ascent();
    for (const QString& line : lines) {
        const bool alarm = line.startsWith(QLatin1String("STALLED"));
        painter.setPen(alarm ? QColor(0xff, 0x6b, 0x6b) : QColor(0xf0, 0xf0, 0xf0));
        painter.drawText(box.left() + pad, y, line);
        y += metrics.height();
    }
}

void MainWindow::setHudVisible(bool visible) {
    m_hud_visible = visible;
    m_hud_action->setChecked(visible);
    m_clock->refresh();
}

void MainWindow::setPresenterMode(bool on) {
    if (m_presenter == on) {
        return;
    }
    m_presenter = on;
    m_presenter_action->setChecked(on);
    static QByteArray saved_state;
    if (on) {
        saved_state = saveState();
        for (QDockWidget* dock : std::as_const(m_docks)) {
            dock->hide();
        }
        menuBar()->hide();
        statusBar()->hide();
        for (QToolBar* bar : findChildren<QToolBar*>()) {
            bar->hide();
        }
        // Shortcuts keep working with the menu bar hidden.
        addActions(
            {m_presenter_action, m_hud_action, m_pause_action, m_step_action, m_stop_action});
        centralWidget()->layout()->setContentsMargins(0, 0, 0, 0);
        showFullScreen();
    } else {
        menuBar()->show();
        statusBar()->show();
        for (QToolBar* bar : findChildren<QToolBar*>()) {
            bar->show();
        }
        restoreState(saved_state);
        centralWidget()->layout()->setContentsMargins(6, 6, 6, 6);
        showNormal();
    }
    m_video->setFocus();
    m_clock->refresh();
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
    try {
        const auto document = lbm::report::readSessionDocument(path);
        if (document.sessions.empty()) {
            showBanner(tr("%1 holds no session.").arg(path));
            return false;
        }
        showDocument(document, path);
        return true;
    } catch (const std::exception& error) {
        showBanner(QString::fromUtf8(error.what()));
        return false;
    }
}

void MainWindow::showDocument(const lbm::report::SessionDocument& document, const QString& path) {
    if (m_session && m_session->running()) {
        showBanner(tr("Stop the session before opening a document."));
        return;
    }
    m_session.reset();
    m_live_timer.stop();
    m_document = document;
    m_document_path = path;
    const auto& session = document.sessions.front();
    const auto& config = document.config;
    const double deadline =
        config.chunk_slo_ms.value_or(lbm::steadyChunkDeadlineMs(config.target_fps));
    const int expected = document.workload.value(QStringLiteral("num_chunks")).toInt();
    m_chart->clear();
    m_chart->clearComparison();
    m_chart->setDeadlineMs(deadline);
    m_chart->setWarmupChunks(config.warmup_chunks);
    m_chart->setExpectedChunks(expected);
    m_chart->setRecords(session.chunks);
    m_chart->setPrimaryLabel(QFileInfo(path).fileName());
    m_chart->setFollow(false);
    m_counters->reset(expected, document.workload.value(QStringLiteral("num_frames")).toInt(),
                      deadline);
    const lbm::MetricsOptions options = lbm::report::metricsOptionsFor(config, session);
    try {
        const auto metrics = lbm::computeMetrics(session.chunks, options);
        m_counters->showMetrics(metrics);
        m_counters->showSimulatedPlayback(metrics.playback, 0.0, false);
        double previous_stall = 0.0;
        lbm::LivePlaybackSimulator simulator(config.target_fps, config.playback_buffer_chunks);
        int underruns = 0;
        for (const auto& record : session.chunks) {
            simulator.addRecord(record);
            if (simulator.started()) {
                const auto result = simulator.result();
                if (result.underrun_count > underruns) {
                    m_chart->addStallMark(record.index,
                                          (result.total_stall_s - previous_stall) * 1000.0);
                }
                underruns = result.underrun_count;
                previous_stall = result.total_stall_s;
            }
        }
    } catch (const std::exception& error) {
        showBanner(QString::fromUtf8(error.what()), false);
    }
    m_counters->showConnection(tr("document"), session.request_id.value_or(QString()));
    m_status->setText(tr("Viewing %1 (%2 chunks, endpoint %3)")
                          .arg(QDir::toNativeSeparators(path))
                          .arg(session.chunks.size())
                          .arg(document.endpoint));
    updateActions();
}

bool MainWindow::compareDocument(const QString& path) {
    try {
        const auto document = lbm::report::readSessionDocument(path);
        if (document.sessions.empty()) {
            showBanner(tr("%1 holds no session.").arg(path));
            return false;
        }
        m_chart->setComparison(document.sessions.front().chunks, QFileInfo(path).fileName());
        return true;
    } catch (const std::exception& error) {
        showBanner(QString::fromUtf8(error.what()));
        return false;
    }
}

std::optional<lbm::report::SessionDocument> MainWindow::currentDocument() const {
    if (m_document) {
        return m_document;
    }
    if (!m_session || m_session->records().empty()) {
        return std::nullopt;
    }
    const auto& settings = m_session->settings();
    lbm::report::SessionDocument document;
    document.timestamp = lbm::report::isoTimestampUtc();
    document.endpoint = settings.url.toString();
    document.model = settings.model;
    document.hostname = QHostInfo::localHostName();
    document.workload = lbm::report::describeWorkload(settings.workload);
    document.config.warmup_chunks = settings.warmup_chunks;
    document.config.chunk_slo_ms = settings.slo_ms;
    document.config.target_fps = settings.target_fps;
    document.config.mux_fps = settings.workload.fps;
    document.config.playback_buffer_chunks = settings.start_buffer_chunks;
    document.config.camera_pattern =
        settings.steering ? QStringLiteral("interactive") : QStringLiteral("forward");
    lbm::report::SessionEntry entry;
    entry.request_id = m_session->requestId();
    entry.chunks = m_session->records();
    entry.ttfc_s = entry.chunks.front().arrival_s;
    entry.wall_s =
        m_session->result() ? m_session->result()->wall_s : entry.chunks.back().arrival_s;
    if (m_session->result() && m_session->result()->video_start_s) {
        entry.video_start_ms = *m_session->result()->video_start_s * 1000.0;
    }
    const lbm::MetricsOptions options = lbm::report::metricsOptionsFor(document.config, entry);
    QString metrics_problem;
    try {
        entry.metrics = lbm::computeMetrics(entry.chunks, options);
        document.metrics = lbm::aggregateMetrics({*entry.metrics}, settings.target_fps);
    } catch (const lbm::MetricError& error) {
        // Too few chunks for the start buffer: the document keeps the rows and says why, so
        // `lingbot-monitor report --playback-buffer-chunks 1` can still recompute it.
        metrics_problem = QString::fromUtf8(error.what());
    }
    const auto stalls = m_clock->stalls();
    if (m_session->result()) {
        entry.monitor_extras = lbm::session::sessionNotesJson(*m_session->result());
    }
    entry.monitor_extras.insert(QStringLiteral("timeline"), m_session->timeline().toJson());
    entry.monitor_extras.insert(QStringLiteral("frames_decoded"), m_session->framesDecoded());
    entry.monitor_extras.insert(
        QStringLiteral("observed_player_stalls"),
        QJsonObject{{QStringLiteral("count"), stalls.count},
                    {QStringLiteral("total_ms"), stalls.total_s * 1000.0},
                    {QStringLiteral("longest_ms"), stalls.longest_s * 1000.0}});
    document.sessions.push_back(entry);
    lbm::report::MonitorSection monitor;
    if (!metrics_problem.isEmpty()) {
        monitor.extras.insert(QStringLiteral("metrics_unavailable"), metrics_problem);
    }
    const auto& result = m_session->result();
    monitor.complete = result && result->ok;
    if (!monitor.complete) {
        monitor.incomplete_reason = result ? result->error : tr("the session is still running");
    }
    if (settings.use_simulator) {
        monitor.extras.insert(QStringLiteral("simulator_profile"), settings.simulator_profile);
    }
    document.monitor = monitor;
    return document;
}

void MainWindow::saveDocumentAs() {
    const auto document = currentDocument();
    if (!document) {
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save session document"), QStringLiteral("session.json"), tr("Session (*.json)"));
    if (path.isEmpty()) {
        return;
    }
    try {
        lbm::report::writeSessionDocument(*document, path);
        m_status->setText(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    } catch (const std::exception& error) {
        showBanner(QString::fromUtf8(error.what()));
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
    try {
        lbm::report::ChunkCsvTable table(document->sessions.front().chunks, m_chart->deadlineMs(),
                                         document->config.warmup_chunks);
        table.write(path);
        m_status->setText(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    } catch (const std::exception& error) {
        showBanner(QString::fromUtf8(error.what()));
    }
}

void MainWindow::exportChartPng() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chart"), QStringLiteral("latency.png"), tr("PNG (*.png)"));
    if (path.isEmpty()) {
        return;
    }
    QString error;
    if (!m_chart->exportPng(path, &error)) {
        showBanner(error);
    }
}

void MainWindow::saveVideo() {
    if (!m_session || m_session->recordingPath().isEmpty()) {
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save video"), QStringLiteral("session.mp4"), tr("MP4 (*.mp4)"));
    if (path.isEmpty()) {
        return;
    }
    const auto result = lbm::media::remuxToMp4(m_session->recordingPath(), path);
    if (!result.ok) {
        showBanner(result.error);
        return;
    }
    m_status->setText(tr("Saved %1 (%2 frames%3)")
                          .arg(QDir::toNativeSeparators(path))
                          .arg(result.packets_written)
                          .arg(result.input_truncated ? tr(", partial recording") : QString()));
}

void MainWindow::prepareScrub() {
    if (m_history.count() == 0 || !m_session || !m_session->result()) {
        return;
    }
    QList<int> chunk_starts;
    QHash<qint64, int> first_frame_of_chunk;
    for (int i = 0; i < m_history.count(); ++i) {
        const qint64 chunk = m_history.chunkOf(i);
        if (!first_frame_of_chunk.contains(chunk)) {
            first_frame_of_chunk.insert(chunk, i);
            chunk_starts << i;
        }
    }
    QList<int> event_frames;
    for (const auto& record : m_session->timeline().interactions()) {
        for (const auto& chunk : {record.started_chunk, record.completed_chunk}) {
            if (chunk && first_frame_of_chunk.contains(*chunk)) {
                event_frames << first_frame_of_chunk.value(*chunk);
            }
        }
    }
    m_scrub->setFrames(m_history.count(), chunk_starts, event_frames);
    m_scrub->setPosition(m_history.count() - 1);
    m_scrub->show();
    showScrubFrame(m_history.count() - 1);
}

void MainWindow::showScrubFrame(int index) {
    const auto frame = m_history.frame(index);
    if (!frame) {
        return;
    }
    QImage image = frame->image.convertToFormat(QImage::Format_RGB32);
    if (m_hud_visible) {
        decorateFrame(image, *frame);
    }
    m_video->videoSink()->setVideoFrame(lbm::playback::videoFrameFromImage(image));
    m_scrub->setLabel(tr("frame %1 · chunk %2 (frame %3 in chunk)")
                          .arg(frame->frame_number)
                          .arg(frame->chunk_index)
                          .arg(frame->index_in_chunk));
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
