#pragma once
// The monitor's main window: the video with its HUD overlay in the middle, the session form,
// counters, prompt transitions, latency chart and camera pad in docks around it. It composes
// small parts and owns no domain logic: the session engine runs and measures sessions, the
// session keeper keeps each one on disk as it goes, the playback feed and clock present
// frames, the recording player plays them back afterwards, the camera steering sends
// velocities, the document viewer opens saved runs, the export controller writes files off
// the GUI thread.

#include "app/engine/session_engine.h"
#include "app/engine/session_keeper.h"
#include "app/playback/playback_clock.h"
#include "app/protocol/camera_se3.h"
#include "app/report/session_document.h"

#include <QHash>
#include <QMainWindow>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;

namespace lbm::ui {

class Banner;
class ElidingLabel;
class CameraSteering;
class CountersPanel;
class DocumentViewer;
class ExportController;
class KeyPad;
class LatencyChart;
class LatencyChartModel;
class PlaybackFeed;
class PresenterMode;
class PromptPanel;
class QualityViews;
class RecordingPlayer;
class SessionExports;
class ScrubBar;
class SessionForm;
class SteeringPanel;
class LiveReadout;
class VideoView;
struct ChunkMark;
struct DockSet;
struct WindowActions;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // Sessions are kept under archive_root (the user's data folder by default).
    explicit MainWindow(QWidget* parent = nullptr,
                        const QString& archive_root = lbm::engine::SessionArchive::defaultRoot());
    ~MainWindow() override;

    // Starts a session from the form; false (and the reason in the banner) when the form
    // or the endpoint refuses.
    bool startSession();
    void stopSession();
    bool openWorkload(const QString& path);
    // A session document, with its recording when one lies beside it (an archived session).
    bool openDocument(const QString& path);
    bool compareDocument(const QString& path);
    void setPresenterMode(bool on);
    void setHudVisible(bool visible);
    // SIGTERM / SIGINT: ends a live session, saves its document marked interrupted, quits.
    void terminate(int signal_number);

    // For tests and automation.
    SessionForm* sessionForm() const { return m_form; }
    LatencyChart* latencyChart() const { return m_chart; }
    CountersPanel* countersPanel() const { return m_counters; }
    PromptPanel* promptPanel() const { return m_prompt_panel; }
    KeyPad* keyPad() const;
    VideoView* videoView() const { return m_video; }
    lbm::playback::PlaybackClock* playbackClock() const { return m_clock; }
    lbm::engine::SessionEngine* sessionEngine() const { return m_engine; }
    lbm::engine::SessionKeeper* sessionKeeper() const { return m_keeper; }
    ScrubBar* scrubBar() const { return m_scrub; }
    RecordingPlayer* recordingPlayer() const { return m_player; }
    CameraSteering* steering() const { return m_steering; }
    SteeringPanel* steeringPanel() const { return m_steering_panel; }
    ExportController* exports() const { return m_exports; }
    QualityViews* qualityViews() const { return m_quality; }
    const QList<QDockWidget*>& docks() const { return m_docks; }
    QString bannerText() const;
    QString statusText() const;
    double speedFactor() const;
    void setSpeedFactor(double factor);
    // Velocities sent by the camera steering, in order (the interaction log of this window).
    const std::vector<lbm::protocol::CameraSe3>& sentVelocities() const;
    // Recomputes the counters, the title and the stall display now instead of at the next tick.
    void refreshCounters();
    // The document File > Save writes: the opened one, or the live/finished session's.
    std::optional<lbm::report::SessionDocument> currentDocument() const;
    SessionExports* sessionExports() const { return m_session_exports.get(); }
    // "<run id> · <endpoint> · <date>": the title exports carry.
    QString reportTitle() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void connectActions();
    void connectEngine();
    void connectQuality();
    // The live session's interactions and quality flags as the recording's scrub bar marks.
    QList<ChunkMark> sessionScrubMarks() const;
    void loadSettings();
    void saveSettings() const;
    // The settings key of the dock layout for the screen the window is on (one per size).
    QString dockStateKey() const;
    void showInteractionFailure(const lbm::session::TimelineEvent& event,
                                const lbm::session::InteractionRecord& record);
    void showBanner(const QString& text, bool error = true);
    void hideBanner();
    void updateActions();
    void updateHud();
    void sendPrompt(const QString& prompt, int transition_chunks, std::optional<qint64> after);
    void onSessionFinished(const lbm::session::SessionResult& result);

    lbm::engine::SessionEngine* m_engine = nullptr;
    lbm::engine::SessionKeeper* m_keeper = nullptr;
    lbm::playback::PlaybackClock* m_clock = nullptr;
    PlaybackFeed* m_feed = nullptr;
    CameraSteering* m_steering = nullptr;
    SteeringPanel* m_steering_panel = nullptr;
    DocumentViewer* m_viewer = nullptr;
    ExportController* m_exports = nullptr;
    RecordingPlayer* m_player = nullptr;
    PresenterMode* m_presenter = nullptr;
    std::unique_ptr<WindowActions> m_actions;
    std::unique_ptr<DockSet> m_dock_set;
    std::unique_ptr<SessionExports> m_session_exports;
    LiveReadout* m_readout = nullptr;
    QualityViews* m_quality = nullptr;

    SessionForm* m_form = nullptr;
    CountersPanel* m_counters = nullptr;
    LatencyChartModel* m_chart_model = nullptr;
    LatencyChart* m_chart = nullptr;
    PromptPanel* m_prompt_panel = nullptr;
    VideoView* m_video = nullptr;
    Banner* m_banner = nullptr;
    ElidingLabel* m_status = nullptr;
    QProgressBar* m_busy = nullptr;
    QList<QDockWidget*> m_docks;
    ScrubBar* m_scrub = nullptr;

    QTimer m_counter_timer; // coalesces counter updates (~25 Hz)
    QTimer m_live_timer;    // the stall clocks: title, banner, in-flight bar, HUD
    bool m_quitting = false;
    // startSession() is waiting for the last session's decoder and analysis to finish.
    bool m_finishing_last = false;
    static constexpr int kLastSessionTailMs = 15000;
    bool m_layout_restored = false; // the user's own dock layout was restored from settings
    // Whether the docks were last placed for a window under kQualityUnderChartHeight; unset
    // when the layout came from settings (the user's own, left alone).
    std::optional<bool> m_fitted_compact;
};

} // namespace lbm::ui
