#pragma once
// One live session as the window runs it: the session client (network thread), the
// in-process simulator when no URL is given, the raw recorder, the decoder thread, the
// presentation clock and the live metrics (records, the incremental playback simulator and
// the event timeline). It feeds each consumer the immutable chunk events in order and
// tells the window what changed; the window only displays.

#include "app/media/recorder.h"
#include "app/playback/playback_clock.h"
#include "app/session/session_client.h"
#include "metrics/playback_simulator.h"
#include "metrics/workload.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTemporaryDir>
#include <QUrl>

#include <memory>
#include <optional>
#include <vector>

namespace lbm::media {
class StreamDecoder;
struct DecoderStats;
} // namespace lbm::media

namespace lbm::ui {

struct LiveSessionSettings {
    bool use_simulator = true;
    QString simulator_profile = QStringLiteral("fast");
    QUrl url;
    QString model;
    lbm::Workload workload;
    double target_fps = 16.0;
    int start_buffer_chunks = 1;
    int warmup_chunks = 6;
    std::optional<double> slo_ms;
    bool steering = false;
    // The session client's keepalive and timeouts (SessionOptions' defaults, the benchmark's):
    // without them a server that goes silent holds the window in "streaming" for 15 minutes.
    double ping_interval_s = 20.0;
    double first_chunk_timeout_s = 900.0;
    double chunk_timeout_s = 300.0;
    double connect_timeout_s = 10.0;
    // wss:// only: accept any certificate (SessionClient warns through problem()).
    bool insecure = false;
};

class LiveSession : public QObject {
    Q_OBJECT
public:
    explicit LiveSession(lbm::playback::PlaybackClock* clock, QObject* parent = nullptr);
    ~LiveSession() override;

    // Starts the simulator (if asked), the recorder and the client. False with the reason.
    bool start(const LiveSessionSettings& settings, QString* error);
    void stop();
    QString sendPrompt(const QString& prompt, int transition_chunks);
    QString sendCameraVelocity(const lbm::protocol::CameraSe3& velocity);

    bool running() const;
    const LiveSessionSettings& settings() const { return m_settings; }
    const std::vector<lbm::ChunkRecord>& records() const { return m_records; }
    const lbm::LivePlaybackSimulator* simulator() const { return m_simulator.get(); }
    // The simulator's result so far; nullopt before its start buffer filled.
    std::optional<lbm::PlaybackResult> simulatedPlayback() const;
    // Seconds on the session clock now (for the simulated playhead).
    double sessionNowS() const;
    const lbm::session::InteractionTimeline& timeline() const;
    QString requestId() const;
    lbm::session::SessionState state() const { return m_state; }
    const std::optional<lbm::session::SessionResult>& result() const { return m_result; }
    qint64 framesDecoded() const { return m_frames_decoded; }
    qint64 framesExpected() const { return m_frames_expected; }
    qint64 mediaBytes() const { return m_media_bytes; }
    QString recordingPath() const { return m_recorder.path(); }
    // The decoder's byte backlog and queue levels; zeros before start().
    lbm::media::DecoderStats decoderStats() const;
    QString endpointText() const;

signals:
    void stateChanged(lbm::session::SessionState state);
    // A media chunk landed; stall_ms > 0 when the simulated viewer ran dry waiting for it.
    void chunkLanded(const lbm::ChunkRecord& record, double simulated_stall_ms);
    void timelineChanged(const lbm::session::TimelineEvent& event,
                         const lbm::session::InteractionRecord& record, int chunks_received);
    void problem(const QString& text);
    void finished(const lbm::session::SessionResult& result);

private:
    void onChunk(const lbm::session::ChunkEvent& chunk);
    void drainFrames();

    QPointer<lbm::playback::PlaybackClock> m_clock;
    LiveSessionSettings m_settings;
    // The in-process simulator, a child of this object, when the session uses it.
    QObject* m_server = nullptr;
    std::unique_ptr<lbm::session::SessionClient> m_client;
    std::unique_ptr<lbm::media::StreamDecoder> m_decoder;
    std::unique_ptr<lbm::LivePlaybackSimulator> m_simulator;
    bool m_simulator_halted = false; // it refused a chunk (out of order); fed no more
    lbm::media::Recorder m_recorder;
    QTemporaryDir m_recording_dir;
    std::vector<lbm::ChunkRecord> m_records;
    lbm::session::SessionState m_state = lbm::session::SessionState::Idle;
    std::optional<lbm::session::SessionResult> m_result;
    qint64 m_frames_decoded = 0;
    qint64 m_frames_expected = 0;
    qint64 m_media_bytes = 0;
    qint64 m_started_ms = 0;
};

} // namespace lbm::ui
