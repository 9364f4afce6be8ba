#pragma once
// One connection to the simulator, answering as vLLM-Omni's realtime-video handler does
// (measured against the real one: docs/upstream-conformance.md). session.start is checked
// by app/sim/start_request.h, control messages by app/sim/control_message.h, interaction
// bookkeeping is app/sim/interaction_engine.h; this class keeps the handler's clock:
//
//   - Chunk k's output is ready at the profile's time E_k. The handler takes it when it is
//     also done with chunk k-1 (T_k = max(E_k, S_k-1 + 25 ms), the engine needing a step of
//     its own after the muxer frees the loop); at that moment the engine resolves the
//     boundary before chunk k+1, so an interaction that arrives after chunk k was sent
//     starts in chunk k+2. Muxing takes 0.1-0.3 s (SimulatorConfig::mux_delay_*), chunk k
//     goes out at S_k = T_k + mux, and control messages that arrive while it muxes are read
//     only after it is sent (the real handler muxes on its event loop).
//   - Once the last chunk's output is taken the engine has finished: an interaction then
//     gets "Failed to apply interaction" (code interaction_failed); one that arrived after
//     the last boundary is queued and never applied; after session.done nothing answers.
//   - A binary control message silently ends the control loop: no more pongs, replies,
//     stop or stall checks, while generation goes on. A binary first message is refused
//     with the handler's text "'text'".
//   - Stall (checked when the control loop polls, about once a second) and session.stop
//     end with session.done {stopped: true} and no trailer; the stall sends its error first.
//   - A one-chunk session's media chunk has generation_chunk_index null.
//
// Rendering and encoding run on the session's own worker thread. The connection is closed
// after session.done or a refusal, once the client has had close_grace_ms to close it (as
// uvicorn's websockets transport closes it; the harness's wsproto transport leaves it open).

#include "app/sim/control_message.h"
#include "app/sim/interaction_engine.h"
#include "app/sim/simulator_config.h"
#include "app/sim/start_request.h"
#include "app/sim/timing_profile.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <QThread>
#include <QTimer>

#include <map>
#include <memory>

class QWebSocket;

namespace lbm::sim {

class ChunkProducer;
class GroundTruthRecorder;
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
    enum class Phase { WaitingForEngine, Muxing };
    struct ReadyChunk {
        QByteArray media;
        QByteArray trailer;
    };

    void onText(const QString& text);
    void onBinary(const QByteArray& bytes);
    void handleStart(const QString& text);
    void startStreaming(const StartRequest& request);
    // The control loop: one message, in arrival order.
    void handleControl(const QString& text);
    void handleInteraction(const ControlMessage& message);
    // The engine's acceptance (submit_interaction_async); false = it raised.
    bool submitToEngine(const ControlMessage& message);
    void pollControl();
    void touchProgress() { m_last_progress_ns = nowNs(); }

    void planAndProduce(int generation_chunk_index);
    void onProduced(int generation_chunk_index, const QByteArray& media, const QByteArray& trailer);
    void scheduleNext();
    void takeOutput(int generation_chunk_index);
    void sendChunk(int generation_chunk_index);
    void endAfterChunk(int generation_chunk_index);
    double msSinceStart() const;

    void sendMetadata(const QString& kind, std::optional<int> generation_chunk_index,
                      int num_frames, qint64 byte_length, const ChunkPlan* plan);
    void sendJson(const QJsonObject& message);
    void sendBinary(const QByteArray& bytes, const char* what);
    // request_id and event_id only where the handler adds them (interaction errors).
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
    Phase m_phase = Phase::WaitingForEngine;
    QElapsedTimer m_clock; // started when the connection was accepted
    qint64 m_stream_start_ns = 0;
    qint64 m_last_progress_ns = 0;
    QTimer m_start_timer;
    QTimer m_poll_timer;
    QTimer m_emit_timer;

    QString m_request_id;
    int m_chunk_count = 0;
    std::vector<double> m_engine_ms; // E_k after video.start
    std::vector<double> m_mux_ms;
    std::unique_ptr<InteractionEngine> m_engine;
    bool m_engine_finished = false; // the last chunk's output was taken
    bool m_control_alive = true;    // false after stop, stall or a binary control message
    bool m_stop_requested = false;
    QStringList m_deferred; // control messages that arrived while a chunk was muxing
    std::map<int, ChunkPlan> m_plans;
    std::map<int, ReadyChunk> m_ready;
    int m_next_chunk = 0;
    double m_muxed_at_ms = 0; // when the chunk being muxed is due out
    double m_sent_at_ms = 0;  // when the last chunk went out
    // How long this process's own drawing and encoding has held the modeled engine back: a
    // chunk whose pictures were still being made when its muxing was due out went out late,
    // and every later engine step waits as long (scheduleNext). A slow or loaded machine so
    // makes a slower server, never one whose engine races ahead of pictures it has not drawn:
    // that sent the next chunk 25 ms after a late one (kHandOffMs) and read the messages that
    // came in the gap a chunk late, which a real server with the same pace does not.
    double m_production_lag_ms = 0;
    qint64 m_frames_planned = 0;
    int m_transport_index = 0;
    QSet<QString> m_used_event_ids;

    std::unique_ptr<GroundTruthRecorder> m_truth; // only while a send log is open
    QThread m_thread;
    ChunkProducer* m_producer = nullptr; // lives on m_thread, deleted when it finishes
};

} // namespace lbm::sim
