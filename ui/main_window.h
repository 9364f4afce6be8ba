#pragma once
// The monitor's main window: the video with its HUD overlay in the middle, the session form,
// counters, latency chart, prompt transitions and camera pad in docks around it. It composes
// small parts and owns no domain logic: the session engine runs sessions and measures them,
// the playback feed and clock present frames, the camera steering sends velocities, the
// document viewer opens saved runs, the export controller writes files off the GUI thread.

#include "app/engine/session_engine.h"
#include "app/playback/playback_clock.h"
#include "app/protocol/camera_se3.h"
#include "app/report/session_document.h"

#include <QByteArray>
#include <QHash>
#include <QMainWindow>
#include <QTemporaryDir>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

class QDockWidget;
class QLabel;
class QProgressBar;

namespace lbm::ui {

class CameraSteering;
class CountersPanel;
class DocumentViewer;
class ExportController;
class KeyPad;
class LatencyChart;
class LatencyChartModel;
class PlaybackFeed;
class PromptPanel;
class RecordingFrames;
class ScrubBar;
class SessionForm;
class SteeringPanel;
class VideoView;
struct WindowActions;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts a session from the form; false (and the reason in the banner) when the form
    // or the endpoint refuses.
    bool startSession();
    void stopSession();
    bool openWorkload(const QString& path);
    bool openDocument(const QString& path);
    bool compareDocument(const QString& path);
    void setPresenterMode(bool on);
    void setHudVisible(bool visible);

    // For tests and automation.
    SessionForm* sessionForm() const { return m_form; }
    LatencyChart* latencyChart() const { return m_chart; }
    CountersPanel* countersPanel() const { return m_counters; }
    PromptPanel* promptPanel() const { return m_prompt_panel; }
    KeyPad* keyPad() const;
    VideoView* videoView() const { return m_video; }
    lbm::playback::PlaybackClock* playbackClock() const { return m_clock; }
    lbm::engine::SessionEngine* sessionEngine() const { return m_engine; }
    ScrubBar* scrubBar() const { return m_scrub; }
    CameraSteering* steering() const { return m_steering; }
    ExportController* exports() const { return m_exports; }
    QString bannerText() const;
    double speedFactor() const;
    void setSpeedFactor(double factor);
    // Velocities sent by the camera steering, in order (the interaction log of this window).
    const std::vector<lbm::protocol::CameraSe3>& sentVelocities() const;
    // Recomputes the counters now instead of at the next coalescing tick.
    void refreshCounters();
    // The document File > Save writes: the opened one, or the live/finished session's.
    std::optional<lbm::report::SessionDocument> currentDocument() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void connectActions();
    void connectEngine();
    void buildDocks();
    void loadSettings();
    void saveSettings() const;
    void showBanner(const QString& text, bool error = true);
    void hideBanner();
    void updateActions();
    void updateHud();
    void sendPrompt(const QString& prompt, int transition_chunks, std::optional<qint64> after);
    void onChunkLanded(const lbm::ChunkRecord& record, double simulated_stall_ms);
    void onTimeline(const lbm::session::TimelineEvent& event,
                    const lbm::session::InteractionRecord& record);
    void onSessionFinished(const lbm::session::SessionResult& result);
    void saveDocumentAs();
    void exportCsv();
    void exportChartPng();
    void saveVideo();
    void showShortcuts();
    void showAbout();
    void prepareScrub();
    void showScrubFrame(const lbm::playback::PlaybackFrame& frame);

    lbm::engine::SessionEngine* m_engine = nullptr;
    lbm::playback::PlaybackClock* m_clock = nullptr;
    PlaybackFeed* m_feed = nullptr;
    CameraSteering* m_steering = nullptr;
    SteeringPanel* m_steering_panel = nullptr;
    DocumentViewer* m_viewer = nullptr;
    ExportController* m_exports = nullptr;
    RecordingFrames* m_recording = nullptr;
    std::unique_ptr<WindowActions> m_actions;

    SessionForm* m_form = nullptr;
    CountersPanel* m_counters = nullptr;
    LatencyChartModel* m_chart_model = nullptr;
    LatencyChart* m_chart = nullptr;
    PromptPanel* m_prompt_panel = nullptr;
    VideoView* m_video = nullptr;
    QLabel* m_banner = nullptr;
    QLabel* m_status = nullptr;
    QProgressBar* m_busy = nullptr;
    QList<QDockWidget*> m_docks;
    ScrubBar* m_scrub = nullptr;

    QTimer m_counter_timer; // coalesces counter updates (~25 Hz)
    QTimer m_live_timer;    // simulated buffer and stall clocks, the HUD while stalled
    bool m_presenter = false;
    QByteArray m_state_before_presenter;
    QHash<QString, int> m_transition_chunks; // prompt event id -> K, for the HUD's progress
    std::unique_ptr<QTemporaryDir> m_recording_dir;
};

} // namespace lbm::ui
