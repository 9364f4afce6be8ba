#pragma once
// One LingBot-World session, the engine's detail (engine::SessionEngine runs every session
// the GUI and `bench` start). The facade lives on the caller's thread; a SessionWorker on a
// dedicated QThread owns the socket and stamps arrivals. What the worker reports crosses to
// this thread once, in order, is taken into the client's state (state(), requestId(),
// timeline(), result(): the one copy on this thread) and is then handed to the owner's
// SessionHandlers by a plain call: chunk_received for every media chunk and the trailer,
// timeline_changed for every interaction event, then finished exactly once. A SessionClient
// runs one session; make a new one for the next.

#include "app/protocol/camera_se3.h"
#include "app/protocol/event_id_minter.h"
#include "app/session/chunk_event.h"
#include "app/session/interaction_timeline.h"
#include "app/session/session_options.h"
#include "app/session/session_result.h"
#include "app/session/session_state.h"

#include <QObject>
#include <QPointer>
#include <QThread>

#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace lbm::session {

class SessionWorker;

// What a session reports, called on the client's thread after the client took it in (so
// the client's accessors already read it). Unset handlers are skipped.
struct SessionHandlers {
    std::function<void(SessionState state)> state_changed;
    std::function<void(const QString& request_id, double t_s)> video_started;
    std::function<void(const ChunkEvent& chunk)> chunk_received;
    // With the interaction's record as the timeline keeps it after the event.
    std::function<void(const TimelineEvent& event, const InteractionRecord& record)>
        timeline_changed;
    std::function<void(const QString& text)> warning;
    std::function<void(const SessionResult& result)> finished;
};

class SessionClient : public QObject {
    Q_OBJECT

public:
    explicit SessionClient(SessionHandlers handlers = {}, QObject* parent = nullptr);
    // Aborts a running session and joins the network thread.
    ~SessionClient() override;

    // Connects and sends session.start. Once per client; later calls are ignored.
    void start(const SessionOptions& options);

    // Ad-hoc interactions, allowed at any time: before session.start is sent they wait for
    // it; after the session they are refused on the timeline. Each returns the fresh event
    // id it was sent with (the timeline is keyed by it). A value the server would refuse
    // (empty prompt, negative transition_chunks, non-unit quaternion) becomes an Error on
    // the timeline at once and is not sent.
    QString sendPrompt(const QString& prompt, int transition_chunks = kDefaultTransitionChunks);
    // A prompt transition sent right after the media chunk after_chunk lands (at once when it
    // already has), through the session's one scheduler: the same queue as the workload's
    // prompt_updates, on the network thread, so it leaves within the chunk's own handler.
    QString schedulePrompt(qint64 after_chunk, const QString& prompt,
                           int transition_chunks = kDefaultTransitionChunks);
    QString sendCameraVelocity(const protocol::CameraSe3& velocity);
    QString sendCameraTarget(const protocol::CameraSe3& pose,
                             std::optional<int> transition_chunks = std::nullopt);

    // session.stop: the server answers session.done {stopped: true}.
    void stop();
    // Closes the connection now; finished() reports `reason`.
    void abort(const QString& reason = QStringLiteral("The session was aborted."));

    SessionState state() const { return m_state; }
    bool isFinished() const { return m_result.has_value(); }
    // Set once the session finished (before the finished handler runs).
    const std::optional<SessionResult>& result() const { return m_result; }
    // The caller-thread copy of the timeline, current as of the last timeline_changed.
    const InteractionTimeline& timeline() const { return m_timeline; }
    const QString& requestId() const { return m_request_id; }
    // The thread arrivals are stamped on (benchmarks load it to prove stamps do not move).
    QThread* networkThread() const { return m_thread.get(); }

signals:
    // A call was queued for the worker (postToWorker); drained on the network thread. The
    // client's only signal: what the worker reports reaches the owner through its handlers.
    void workerCallPosted();

private:
    // Runs call on the network thread, in order with the others posted. The calls cross in a
    // mutex-guarded queue, not as functors inside Qt's events: ThreadSanitizer sees the
    // hand-over through the mutex, while Qt's event queue locks in uninstrumented code and
    // every functor invokeMethod read as a race.
    void postToWorker(std::function<void(SessionWorker&)> call);
    void drainWorkerCalls(SessionWorker& worker);
    // transition_chunks: a prompt's K, kept on its record.
    QString submit(InteractionKind kind, const QString& summary, const QJsonObject& message,
                   const QString& problem, const QString& event_id,
                   std::optional<int> transition_chunks = std::nullopt,
                   std::optional<qint64> after_chunk = std::nullopt);
    void applyTimeline(const TimelineEvent& event);
    // Why a camera interaction must not go out (a scripted session, a bad value); empty if ok.
    QString cameraProblem(const protocol::CameraSe3& value) const;

    SessionHandlers m_handlers;
    std::unique_ptr<QThread> m_thread;
    QPointer<SessionWorker> m_worker;
    std::mutex m_worker_calls_mutex;
    std::deque<std::function<void(SessionWorker&)>> m_worker_calls;
    protocol::EventIdMinter m_ids;
    SessionState m_state = SessionState::Idle;
    std::optional<SessionResult> m_result;
    InteractionTimeline m_timeline;
    QString m_request_id;
    bool m_scripted_camera = false; // session.start carries a camera_action_script
};

} // namespace lbm::session
