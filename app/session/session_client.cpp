#include "app/session/session_client.h"

#include "app/protocol/client_messages.h"
#include "app/protocol/session_start_message.h"
#include "app/session/session_worker.h"

#include <QJsonArray>

#include <chrono>
#include <future>
#include <memory>

namespace lbm::session {
namespace {

QString describeSe3(const QString& mode, const protocol::CameraSe3& value) {
    const auto& t = value.translation;
    const auto& r = value.rotation;
    return QStringLiteral("%1 t=[%2, %3, %4] r=[%5, %6, %7, %8]")
        .arg(mode)
        .arg(t[0], 0, 'g', 7)
        .arg(t[1], 0, 'g', 7)
        .arg(t[2], 0, 'g', 7)
        .arg(r[0], 0, 'g', 7)
        .arg(r[1], 0, 'g', 7)
        .arg(r[2], 0, 'g', 7)
        .arg(r[3], 0, 'g', 7);
}

} // namespace

SessionClient::SessionClient(SessionHandlers handlers, QObject* parent)
    : QObject(parent)
    , m_handlers(std::move(handlers))
    , m_thread(std::make_unique<QThread>()) {
    qRegisterMetaType<ChunkEvent>();
    qRegisterMetaType<TimelineEvent>();
    qRegisterMetaType<SessionResult>();
    qRegisterMetaType<SessionState>();
    m_thread->setObjectName(QStringLiteral("lbm-session-network"));
}

SessionClient::~SessionClient() {
    if (m_worker) {
        // The worker aborts (closing its socket) before the thread is told to quit, which
        // would otherwise drop the posted call: wait for it, as a blocking call would.
        auto aborted = std::make_shared<std::promise<void>>();
        std::future<void> done = aborted->get_future();
        postToWorker([aborted](SessionWorker& worker) {
            worker.abort(QStringLiteral("The session was closed."));
            aborted->set_value();
        });
        done.wait_for(std::chrono::seconds(10));
    }
    // Cut the call channel here, on this thread: otherwise the worker, deleted on its own
    // thread when it finishes, would unhook itself from this object there, and that hand-over
    // is one ThreadSanitizer cannot see (QThread::wait is not a join to it).
    disconnect(this, &SessionClient::workerCallPosted, nullptr, nullptr);
    m_thread->quit();
    m_thread->wait();
}

void SessionClient::start(const SessionOptions& options) {
    if (m_worker || m_result) {
        return;
    }
    // No parent: a QObject with a parent cannot move threads. The thread's finished signal
    // deletes it on its own thread, after which the QPointer reads null.
    // The real server takes a camera interaction in a scripted session and then fails the
    // whole session at the next chunk boundary, so such an interaction is refused here.
    const QJsonValue script = protocol::sessionStartMessage(options.workload, options.model)
                                  .value(QStringLiteral("extra_params"))
                                  .toObject()
                                  .value(QStringLiteral("camera_action_script"));
    m_scripted_camera = script.isArray();
    auto* worker = new SessionWorker(options);
    worker->moveToThread(m_thread.get());
    connect(m_thread.get(), &QThread::finished, worker, &QObject::deleteLater);
    m_worker = worker;

    // Each report is taken into this client's state first, then handed on: a handler that
    // reads the client (its timeline, its result) sees the report it was called for. A copy
    // of the handler runs, so one that ends with this client destroyed (its owner starting
    // the next session) does not destroy the function it is running in.
    connect(worker, &SessionWorker::stateChanged, this, [this](SessionState state) {
        m_state = state;
        if (const auto handler = m_handlers.state_changed) {
            handler(state);
        }
    });
    connect(worker, &SessionWorker::videoStarted, this,
            [this](const QString& request_id, double t_s) {
                m_request_id = request_id;
                if (const auto handler = m_handlers.video_started) {
                    handler(request_id, t_s);
                }
            });
    connect(worker, &SessionWorker::chunkReceived, this, [this](const ChunkEvent& chunk) {
        if (const auto handler = m_handlers.chunk_received) {
            handler(chunk);
        }
    });
    connect(worker, &SessionWorker::timelineEvent, this, &SessionClient::applyTimeline);
    connect(worker, &SessionWorker::warning, this, [this](const QString& text) {
        if (const auto handler = m_handlers.warning) {
            handler(text);
        }
    });
    connect(worker, &SessionWorker::finished, this, [this](const SessionResult& result) {
        m_result = result;
        m_state = SessionState::Finished;
        if (const auto handler = m_handlers.finished) {
            handler(result);
        }
    });
    // Connected before the thread starts, so the slot object is published to it by the start.
    connect(
        this, &SessionClient::workerCallPosted, worker,
        [this, worker] { drainWorkerCalls(*worker); }, Qt::QueuedConnection);
    m_thread->start();
    postToWorker([](SessionWorker& w) { w.begin(); });
}

void SessionClient::postToWorker(std::function<void(SessionWorker&)> call) {
    {
        std::lock_guard<std::mutex> lock(m_worker_calls_mutex);
        m_worker_calls.push_back(std::move(call));
    }
    emit workerCallPosted();
}

void SessionClient::drainWorkerCalls(SessionWorker& worker) {
    std::deque<std::function<void(SessionWorker&)>> calls;
    {
        std::lock_guard<std::mutex> lock(m_worker_calls_mutex);
        calls.swap(m_worker_calls);
    }
    for (auto& call : calls) {
        call(worker);
    }
}

void SessionClient::applyTimeline(const TimelineEvent& event) {
    m_timeline.apply(event);
    if (const auto handler = m_handlers.timeline_changed) {
        const InteractionRecord* record = m_timeline.find(event.event_id);
        handler(event, record != nullptr ? *record : InteractionRecord{});
    }
}

QString SessionClient::submit(InteractionKind kind, const QString& summary,
                              const QJsonObject& message, const QString& problem,
                              const QString& event_id, std::optional<int> transition_chunks,
                              std::optional<qint64> after_chunk) {
    if (!problem.isEmpty() || !m_worker || m_result) {
        TimelineEvent event;
        event.type = TimelineEventType::Error;
        event.event_id = event_id;
        event.kind = kind;
        event.detail = !problem.isEmpty() ? QStringLiteral("Not sent: %1").arg(problem)
                       : m_result         ? QStringLiteral("Not sent: the session is over.")
                                  : QStringLiteral("Not sent: the session was not started.");
        applyTimeline(event);
        return event_id;
    }
    SessionWorker::PendingInteraction interaction{event_id, kind, summary, message,
                                                  transition_chunks};
    if (after_chunk) {
        postToWorker([interaction, after = *after_chunk](SessionWorker& worker) {
            worker.scheduleInteraction(interaction, after);
        });
        return event_id;
    }
    postToWorker([interaction](SessionWorker& worker) { worker.sendInteraction(interaction); });
    return event_id;
}

QString SessionClient::sendPrompt(const QString& prompt, int transition_chunks) {
    const QString id = m_ids.next();
    return submit(InteractionKind::Prompt,
                  QStringLiteral("'%1' over %2 chunk(s)").arg(prompt).arg(transition_chunks),
                  protocol::promptInteractionMessage(id, prompt, transition_chunks),
                  protocol::promptInteractionProblem(prompt, transition_chunks), id,
                  transition_chunks);
}

QString SessionClient::schedulePrompt(qint64 after_chunk, const QString& prompt,
                                      int transition_chunks) {
    const QString id = m_ids.next();
    return submit(InteractionKind::Prompt,
                  QStringLiteral("'%1' over %2 chunk(s)").arg(prompt).arg(transition_chunks),
                  protocol::promptInteractionMessage(id, prompt, transition_chunks),
                  protocol::promptInteractionProblem(prompt, transition_chunks), id,
                  transition_chunks, after_chunk);
}

QString SessionClient::cameraProblem(const protocol::CameraSe3& value) const {
    if (m_scripted_camera) {
        return QStringLiteral("the session was started with a camera_action_script, and the "
                              "server ends such a session at the next chunk when a camera "
                              "interaction arrives (\"Cannot use mid-generation camera "
                              "interaction together with camera_action_script\"); start "
                              "without a script to steer.");
    }
    return protocol::cameraSe3Problem(value);
}

QString SessionClient::sendCameraVelocity(const protocol::CameraSe3& velocity) {
    const QString id = m_ids.next();
    return submit(
        InteractionKind::CameraVelocity, describeSe3(QStringLiteral("velocity"), velocity),
        protocol::cameraVelocityInteractionMessage(id, velocity), cameraProblem(velocity), id);
}

QString SessionClient::sendCameraTarget(const protocol::CameraSe3& pose,
                                        std::optional<int> transition_chunks) {
    const QString id = m_ids.next();
    QString problem = cameraProblem(pose);
    if (problem.isEmpty() && transition_chunks && *transition_chunks < 0) {
        problem = QStringLiteral("transition_chunks must be non-negative (0 snaps to the target).");
    }
    return submit(InteractionKind::CameraTarget, describeSe3(QStringLiteral("target"), pose),
                  protocol::cameraTargetInteractionMessage(id, pose, transition_chunks), problem,
                  id);
}

void SessionClient::stop() {
    if (m_worker) {
        postToWorker([](SessionWorker& worker) { worker.requestStop(); });
    }
}

void SessionClient::abort(const QString& reason) {
    if (m_worker) {
        postToWorker([reason](SessionWorker& worker) { worker.abort(reason); });
    }
}

} // namespace lbm::session
