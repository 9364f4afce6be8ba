#pragma once
// One connection to the simulator: the server's session state machine (session.start
// checks, video.start, chunk metadata + binary pairs on the profile's clock, trailer,
// session.done) and its control loop (ping, stop, interactions, stall timeout, faults).
// Rendering and encoding run on the session's own worker thread.

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
