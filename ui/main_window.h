#pragma once
// The monitor's main window: the video with its HUD in the middle, the session form,
// counters, latency chart, prompt transitions and camera pad in docks around it. It starts
// and stops live sessions, steers the camera from the keyboard while the video has focus,
// opens and compares saved session documents, and exports what a session produced.

#include "app/playback/playback_clock.h"
#include "app/protocol/camera_keys.h"
#include "app/report/session_document.h"
#include "ui/frame_history.h"
#include "ui/live_session.h"

#include <QHash>
#include <QMainWindow>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QDockWidget;
class QMenu;
class QLabel;
class QSlider;
class QToolButton;
class QVideoWidget;

namespace lbm::ui {

class CountersPanel;
class KeyPad;
class LatencyChart;
class PromptPanel;
class ScrubBar;
class SessionForm;

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
    KeyPad* keyPad() const { return m_key_pad; }
    QVideoWidget* videoWidget() const { return m_video; }
    lbm::playback::PlaybackClock* playbackClock() const { return m_clock; }
    LiveSession* liveSession() const { return m_session.get(); }
    ScrubBar* scrubBar() const { return m_scrub; }
    const FrameHistory& frameHistory() const { return m_history; }
    QString bannerText() const;
    double speedFactor() const;
    void setSpeedFactor(double factor);
    // Velocities sent by the camera steering, in order (the interaction log of this window).
    const std::vector<lbm::protocol::CameraSe3>& sentVelocities() const {
        return m_sent_velocities;
    }
    // Recomputes the counters now instead of at the next coalescing tick.
    void refreshCounters();
    // The document File > Save writes: the opened one, or the live/finished session's.
    std::optional<lbm::report::SessionDocument> currentDocument() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildActions();
    void buildDocks();
    void loadSettings();
    void saveSettings() const;
    void showBanner(const QString& text, bool error = true);
    void hideBanner();
    void updateActions();
    void setHeldKeys(const lbm::protocol::CameraKeys& keys);
    void sendPromptNow(const QString& prompt, int transition_chunks);
    void onChunkLanded(const lbm::ChunkRecord& record, double simulated_stall_ms);
    void onTimeline(const lbm::session::TimelineEvent& event,
                    const lbm::session::InteractionRecord& record, int chunks_received);
    void onSessionFinished(const lbm::session::SessionResult& result);
    void decorateFrame(QImage& image, const lbm::playback::PlaybackFrame& frame);
    QStringList hudLines(const lbm::playback::PlaybackFrame& shown) const;
    void showDocument(const lbm::report::SessionDocument& document, const QString& path);
    void saveDocumentAs();
    void exportCsv();
    void exportChartPng();
    void saveVideo();
    void showShortcuts();
    void prepareScrub();
    void showScrubFrame(int index);
    void showAbout();

    SessionForm* m_form = nullptr;
    CountersPanel* m_counters = nullptr;
    LatencyChart* m_chart = nullptr;
    PromptPanel* m_prompt_panel = nullptr;
    KeyPad* m_key_pad = nullptr;
    QVideoWidget* m_video = nullptr;
    QLabel* m_banner = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_steer_reason = nullptr;
    QLabel* m_speed_label = nullptr;
    QSlider* m_speed = nullptr;
    QList<QDockWidget*> m_docks;
    ScrubBar* m_scrub = nullptr;
    FrameHistory m_history;
    QMenu* m_view_menu = nullptr;

    QAction* m_start_action = nullptr;
    QAction* m_stop_action = nullptr;
    QAction* m_pause_action = nullptr;
    QAction* m_step_action = nullptr;
    QAction* m_hud_action = nullptr;
    QAction* m_presenter_action = nullptr;
    QAction* m_save_document_action = nullptr;
    QAction* m_csv_action = nullptr;
    QAction* m_video_action = nullptr;

    lbm::playback::PlaybackClock* m_clock = nullptr;
    std::unique_ptr<LiveSession> m_session;
    QTimer m_counter_timer; // coalesces counter updates (~25 Hz)
    QTimer m_live_timer;    // buffered-ahead, observed stalls and the HUD while stalled
    bool m_hud_visible = true;
    bool m_presenter = false;
    lbm::protocol::CameraKeys m_keys;
    std::vector<lbm::protocol::CameraSe3> m_sent_velocities;
    QHash<QString, int> m_transition_chunks; // event id -> K, for the HUD's progress
    struct ScheduledPrompt {
        QString key;
        QString prompt;
        int transition_chunks;
        qint64 after_chunk;
    };
    std::vector<ScheduledPrompt> m_scheduled;
    int m_scheduled_counter = 0;
    // A document opened for viewing (no live session).
    std::optional<lbm::report::SessionDocument> m_document;
    QString m_document_path;
};

} // namespace lbm::ui
