#pragma once
// One connection to the simulator: the server's session state machine (session.start
// checks, video.start, chunk metadata + binary pairs on the profile's clock, trailer,
// session.done) and its control loop (ping, stop, interactions, stall timeout, faults).
// Rendering and encoding run on the session's own worker thread.
//
// Chunk k is planned (its interactions resolved) when chunk k-1 is sent, i.e. at the
// boundary where a real server starts generating it, then rendered and encoded ahead and
// sent at its scheduled time (profile times from video.start), so encode time does not
// show in the intervals unless it exceeds them.
//
// Control-loop errors keep the session. Beside protocol.md's verbatim texts ("control
// message too large", "Invalid JSON message", "WebSocket messages must be JSON objects",
// "Unknown message type: X", "Cannot use mid-generation camera interaction together with
// camera_action_script") the interaction checks send, with code "invalid_interaction" and
// the event_id when known:
//   Invalid interaction: 'interaction' must be an object.
//   Invalid interaction: event_id must be a non-empty string.
//   Invalid interaction: transition_chunks must be a non-negative integer.
//   Invalid interaction: 'event' must be an object.
//   Invalid interaction: prompt must be a non-empty string.
//   Invalid interaction: camera mode must be 'velocity' or 'target'.
//   Invalid interaction: camera data needs translation [x, y, z] and a non-zero rotation
//     quaternion [qx, qy, qz, qw].
//   Invalid interaction: event must carry a prompt or multi_modal_data.camera.
// and a reused id gets code "event_id_conflict": "event_id 'X' was already used in this
// session; every interaction needs a fresh id." Only admitted interactions use up an id.
// A binary frame before session.start is "session.start must be a JSON object"; after it,
// "WebSocket messages must be JSON objects".

#include "app/sim/interaction_engine.h"
#include "app/sim/simulator_config.h"
#include "app/sim/start_request.h"
#include "app/sim/timing_profile.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QSet>
#include <QThread>
#include <QTimer>

#include <map>
#include <memory>

class QWebSocket;

namespace lbm::sim {

class ChunkProducer;
class SendLog;

class SimulatorSession : public QObject {
    Q_OBJECT
public:
    // Takes ownership of socket (re-parented to the session).
    SimulatorSession(QWebSocket* socket, const SimulatorConfig& config,
                     const TimingProfile& profile, SendLog* log, int session_id,
                     QObject* parent = nullptr);
    ~SimulatorSession() override;

signals:
    void finished();

private:
    enum class State { AwaitingStart, Streaming, Stalled, Closed };
    struct ReadyChunk {
        QByteArray media;
        QByteArray trailer;
    };

    void onText(const QString& text);
    void onBinary(const QByteArray& bytes);
    void handleStart(const QString& text);
    void handleControl(const QString& text);
    void handleInteraction(const QJsonObject& message);
    void startStreaming(const StartRequest& request);
    void planAndProduce(int generation_chunk_index);
    void onProduced(int generation_chunk_index, const QByteArray& media, const QByteArray& trailer);
    void scheduleEmission();
    void emitChunk(int generation_chunk_index);
    void sendMetadata(const QString& kind, std::optional<int> generation_chunk_index,
                      int num_frames, qint64 byte_length, const ChunkPlan* plan);
    void sendJson(const QJsonObject& message);
    void sendBinary(const QByteArray& bytes, const char* what);
    void sendError(const QString& message, const QString& code = {}, const QString& event_id = {});
    void fail(const QString& message); // error, close, no session.done
    void finish(bool stopped);
    void close();
    int framesInChunk(int generation_chunk_index) const;
    qint64 nowNs() const { return m_clock.nsecsElapsed(); }
    void log(QJsonObject entry);

    QWebSocket* m_socket;
    SimulatorConfig m_config;
    TimingProfile m_profile;
    SendLog* m_log;
    int m_session_id;
    State m_state = State::AwaitingStart;
    QElapsedTimer m_clock; // started when the connection was accepted
    qint64 m_stream_start_ns = 0;
    QTimer m_start_timer;
    QTimer m_stall_timer;
    QTimer m_emit_timer;

    QString m_request_id;
    int m_chunk_count = 0;
    bool m_has_script = false;
    std::vector<double> m_schedule_ms;
    double m_slow_start_ms = 0;
    std::unique_ptr<InteractionEngine> m_engine;
    std::map<int, ChunkPlan> m_plans;
    std::map<int, ReadyChunk> m_ready;
    int m_next_emit = 0;
    qint64 m_frames_planned = 0;
    int m_transport_index = 0;
    QSet<QString> m_used_event_ids;

    QThread m_thread;
    ChunkProducer* m_producer = nullptr; // lives on m_thread, deleted when it finishes
};

} // namespace lbm::sim
