#include "app/sim/simulator_session.h"

#include "app/sim/chunk_producer.h"
#include "app/sim/ground_truth.h"
#include "app/sim/send_log.h"
#include "resources/bundled_resources.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>
#include <QWebSocket>

#include <algorithm>
#include <cmath>
#include <random>

namespace lbm::sim {
namespace {

constexpr double kHandOffMs = 25.0;

QJsonArray toArray(const QStringList& ids) {
    QJsonArray array;
    for (const QString& id : ids) {
        array.append(id);
    }
    return array;
}

// Three numbers (or four), as the harness's engine reads camera data; anything else is the
// neutral value, which is what it falls back to for a missing one.
std::vector<float> numbers(const PyValue* value, qsizetype count) {
    std::vector<float> result;
    if (value != nullptr && value->type() == PyValue::Type::List &&
        value->items().size() == count) {
        for (const PyValue& item : value->items()) {
            if (!item.isNumber() || !std::isfinite(item.toDouble())) {
                return {};
            }
            result.push_back(static_cast<float>(item.toDouble()));
        }
    }
    return result;
}

} // namespace

SimulatorSession::SimulatorSession(QWebSocket* socket, const SimulatorConfig& config,
                                   const TimingProfile& profile, SendLog* log, int session_id,
                                   QObject* parent)
    : QObject(parent)
    , m_socket(socket)
    , m_config(config)
    , m_profile(profile)
    , m_log(log)
    , m_session_id(session_id) {
    m_clock.start();
    m_socket->setParent(this);
    connect(m_socket, &QWebSocket::textMessageReceived, this, &SimulatorSession::onText);
    connect(m_socket, &QWebSocket::binaryMessageReceived, this, &SimulatorSession::onBinary);
    connect(m_socket, &QWebSocket::disconnected, this, [this]() {
        m_state = State::Closed;
        m_start_timer.stop();
        m_poll_timer.stop();
        m_emit_timer.stop();
        emit finished();
    });
    m_start_timer.setSingleShot(true);
    connect(&m_start_timer, &QTimer::timeout, this,
            [this]() { fail(QStringLiteral("Timeout waiting for session.start")); });
    m_start_timer.start(m_config.start_timeout_ms);
    // The control loop waits at most a second for a message, then checks for a stall; a
    // short (test) stall timeout is still checked twice per timeout.
    m_poll_timer.setInterval(std::min(1000, std::max(1, m_config.stall_timeout_ms / 2)));
    connect(&m_poll_timer, &QTimer::timeout, this, &SimulatorSession::pollControl);
    m_emit_timer.setSingleShot(true);
    m_emit_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_emit_timer, &QTimer::timeout, this, [this]() {
        if (m_phase == Phase::WaitingForEngine) {
            takeOutput(m_next_chunk);
        } else {
            sendChunk(m_next_chunk);
        }
    });
}

SimulatorSession::~SimulatorSession() {
    if (m_producer != nullptr) {
        m_producer->cancel();
    }
    m_thread.quit();
    m_thread.wait();
}

void SimulatorSession::log(QJsonObject entry) {
    if (m_log != nullptr) {
        m_log->record(m_session_id, nowNs(), std::move(entry));
    }
}

void SimulatorSession::sendJson(const QJsonObject& message) {
    if (m_state == State::Closed) {
        return;
    }
    const QString text = QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact));
    m_socket->sendTextMessage(text);
    QJsonObject entry{{QStringLiteral("type"), message.value(QStringLiteral("type"))},
                      {QStringLiteral("characters"), static_cast<double>(text.size())}};
    for (const char* key : {"transport_chunk_index", "generation_chunk_index", "byte_length",
                            "kind", "message", "event_id"}) {
        const QString name = QString::fromLatin1(key);
        if (message.contains(name)) {
            entry.insert(name, message.value(name));
        }
    }
    log(entry);
}

void SimulatorSession::sendBinary(const QByteArray& bytes, const char* what) {
    if (m_state == State::Closed) {
        return;
    }
    m_socket->sendBinaryMessage(bytes);
    log({{QStringLiteral("type"), QString::fromLatin1(what)},
         {QStringLiteral("byte_length"), static_cast<double>(bytes.size())}});
}

void SimulatorSession::sendError(const QString& message, const QString& code,
                                 const QString& event_id) {
    QJsonObject error{{QStringLiteral("type"), QStringLiteral("error")},
                      {QStringLiteral("message"), message}};
    if (!code.isEmpty()) {
        error.insert(QStringLiteral("code"), code);
        error.insert(QStringLiteral("request_id"), m_request_id);
        error.insert(QStringLiteral("event_id"), event_id);
    }
    sendJson(error);
}

void SimulatorSession::fail(const QString& message) {
    sendError(message);
    close();
}

void SimulatorSession::close() {
    if (m_state == State::Closed) {
        return;
    }
    m_state = State::Closed;
    m_start_timer.stop();
    m_poll_timer.stop();
    m_emit_timer.stop();
    m_socket->flush();
    // Qt sends the close frame and drops the TCP connection at once; a client still sending
    // (an interaction right after the last chunk) would then get a reset and could lose the
    // trailer and session.done still unread. A real server's transport waits for the
    // client's close frame, so the simulator gives the client a moment to close first.
    QTimer::singleShot(m_config.close_grace_ms, m_socket, [socket = m_socket]() {
        if (socket->state() == QAbstractSocket::ConnectedState) {
            socket->close();
        }
    });
}

void SimulatorSession::finish(bool stopped) {
    sendJson({{QStringLiteral("type"), QStringLiteral("session.done")},
              {QStringLiteral("request_id"), m_request_id},
              {QStringLiteral("chunks"), m_transport_index},
              {QStringLiteral("stopped"), stopped}});
    close();
}

void SimulatorSession::onText(const QString& text) {
    if (m_state == State::AwaitingStart) {
        handleStart(text);
        return;
    }
    if (m_state == State::Closed || !m_control_alive) {
        return;
    }
    if (m_phase == Phase::Muxing) {
        m_deferred.append(text);
        return;
    }
    handleControl(text);
}

void SimulatorSession::onBinary(const QByteArray& bytes) {
    Q_UNUSED(bytes);
    if (m_state == State::AwaitingStart) {
        // receive_text() on a binary message raises KeyError('text'); the handler sends
        // str() of it.
        m_start_timer.stop();
        fail(QStringLiteral("'text'"));
    } else if (m_state != State::Closed && m_control_alive) {
        if (m_phase == Phase::Muxing) {
            m_deferred.append(QString()); // a null entry stands for the binary message
        } else {
            // The same KeyError inside the control loop ends the loop, silently.
            m_control_alive = false;
        }
    }
}

void SimulatorSession::handleStart(const QString& text) {
    m_start_timer.stop();
    const StartOutcome outcome = parseStartRequest(text, m_config);
    if (!outcome.request) {
        fail(outcome.refusal);
        return;
    }
    startStreaming(*outcome.request);
}

void SimulatorSession::startStreaming(const StartRequest& request) {
    m_state = State::Streaming;
    m_request_id = QStringLiteral("video_stream-") + QUuid::createUuid().toString(QUuid::Id128);
    // Written from the Python view so the echo reads as the handler's (5.0 stays 5.0, the
    // fields in the model's order).
    const PyValue start =
        PyValue::dict({{QStringLiteral("type"), PyValue::string(QStringLiteral("video.start"))},
                       {QStringLiteral("request_id"), PyValue::string(m_request_id)},
                       {QStringLiteral("format"), PyValue::string(QStringLiteral("m4s"))},
                       {QStringLiteral("config"), request.config}});
    const QString start_text = start.toJsonText();
    m_socket->sendTextMessage(start_text);
    log({{QStringLiteral("type"), QStringLiteral("video.start")},
         {QStringLiteral("characters"), static_cast<double>(start_text.size())}});
    m_stream_start_ns = nowNs();
    touchProgress();
    m_poll_timer.start();
    if (!request.post_start_error.isEmpty()) {
        fail(request.post_start_error);
        return;
    }

    m_chunk_count = request.chunk_count;
    const auto seed = static_cast<quint64>(request.seed);
    m_engine_ms = m_profile.emissionTimesMs(m_chunk_count, seed);
    if (std::any_of(m_config.faults.cbegin(), m_config.faults.cend(),
                    [](const FaultSpec& fault) { return fault.kind == FaultKind::SlowStart; })) {
        const double late_ms =
            m_config.stall_timeout_ms + std::max(1000, m_config.stall_timeout_ms / 2);
        for (double& due : m_engine_ms) {
            due += late_ms;
        }
    }
    std::mt19937_64 random(seed ^ 0x6A09E667F3BCC909ull);
    std::uniform_real_distribution<double> mux(
        m_config.mux_delay_min_ms, std::max(m_config.mux_delay_min_ms, m_config.mux_delay_max_ms));
    for (int k = 0; k < m_chunk_count; ++k) {
        m_mux_ms.push_back(mux(random));
    }

    QImage first_frame = request.first_frame;
    if (first_frame.isNull()) {
        // http(s) references are accepted without fetching: draw the bundled frame instead.
        first_frame = QImage::fromData(bundledFirstFramePng());
    }
    m_engine = std::make_unique<InteractionEngine>(
        request.prompt, request.camera_script, WorldLook::fromImage(first_frame), m_config.faults);
    if (m_log != nullptr && m_log->isOpen()) {
        m_truth = std::make_unique<GroundTruthRecorder>(seed, m_config.width, m_config.height);
        log(m_truth->worldRecord(realismName(m_config.realism)));
    }
    auto producer =
        std::make_unique<ChunkProducer>(first_frame, m_config.width, m_config.height, request.fps,
                                        m_config.faults, seed, m_config.realism);
    producer->moveToThread(&m_thread);
    m_producer = producer.release(); // owned by the thread from here: deleted on finish
    connect(&m_thread, &QThread::finished, m_producer, &QObject::deleteLater);
    connect(m_producer, &ChunkProducer::produced, this, &SimulatorSession::onProduced);
    connect(m_producer, &ChunkProducer::failed, this, &SimulatorSession::fail);
    m_thread.start();

    planAndProduce(0);
    scheduleNext();
}

int SimulatorSession::framesInChunk(int generation_chunk_index) const {
    return generation_chunk_index == 0 || m_config.independent_chunks ? 9 : 12;
}

double SimulatorSession::msSinceStart() const {
    return static_cast<double>(nowNs() - m_stream_start_ns) / 1e6;
}

void SimulatorSession::planAndProduce(int generation_chunk_index) {
    const int frames = framesInChunk(generation_chunk_index);
    ChunkPlan plan = m_engine->planChunk(generation_chunk_index, frames, m_frames_planned);
    if (!plan.failure.isEmpty()) {
        // The failed boundary takes the chunk just generated with it.
        fail(plan.failure);
        return;
    }
    m_frames_planned += frames;
    if (m_truth) {
        for (QJsonObject& record : m_truth->frameRecords(plan)) {
            log(std::move(record));
        }
    }
    m_plans[generation_chunk_index] = plan;
    m_producer->enqueue(plan, generation_chunk_index == m_chunk_count - 1);
}

void SimulatorSession::onProduced(int generation_chunk_index, const QByteArray& media,
                                  const QByteArray& trailer) {
    m_ready[generation_chunk_index] = ReadyChunk{media, trailer};
    if (m_phase == Phase::Muxing && generation_chunk_index == m_next_chunk) {
        m_production_lag_ms += std::max(0.0, msSinceStart() - m_muxed_at_ms);
        scheduleNext();
    }
}

void SimulatorSession::scheduleNext() {
    if (m_state != State::Streaming || m_next_chunk >= m_chunk_count) {
        return;
    }
    // An engine that is ahead hands its next output over only once the muxer has freed the
    // event loop and it has taken a step of its own (kHandOffMs); so an interaction that
    // arrives right after a chunk still makes the boundary after the next one.
    const double due_ms =
        m_phase == Phase::WaitingForEngine
            ? std::max(m_engine_ms[static_cast<size_t>(m_next_chunk)] + m_production_lag_ms,
                       m_next_chunk == 0 ? 0.0 : m_sent_at_ms + kHandOffMs)
            : m_muxed_at_ms;
    m_emit_timer.start(static_cast<int>(std::ceil(std::max(0.0, due_ms - msSinceStart()))));
}

void SimulatorSession::takeOutput(int k) {
    const auto& faults = m_config.faults;
    if (hasFault(faults, FaultKind::Stall, k)) {
        m_state = State::Stalled; // nothing more is generated; the stall check decides
        return;
    }
    if (hasFault(faults, FaultKind::Error, k)) {
        fail(QStringLiteral("Generation failed at chunk %1: RuntimeError: CUDA error: an illegal "
                            "memory access was encountered (simulated fault)")
                 .arg(k));
        return;
    }
    if (hasFault(faults, FaultKind::Disconnect, k)) {
        m_state = State::Closed;
        m_socket->abort();
        return;
    }
    touchProgress();
    // The engine resolves the next boundary as it hands this chunk over; after the last
    // chunk it has finished and forgets the request.
    if (k == m_chunk_count - 1) {
        m_engine_finished = true;
    } else {
        planAndProduce(k + 1);
        if (m_state != State::Streaming) {
            return;
        }
    }
    m_phase = Phase::Muxing;
    m_muxed_at_ms = msSinceStart() + m_mux_ms[static_cast<size_t>(k)];
    scheduleNext();
}

void SimulatorSession::sendChunk(int k) {
    if (m_ready.count(k) == 0) {
        return; // still encoding: onProduced reschedules
    }
    const auto& faults = m_config.faults;
    if (hasFault(faults, FaultKind::Garbage, k)) {
        m_socket->sendTextMessage(QStringLiteral("{\"type\": \"video.chunk_metadata\", garbage"));
        log({{QStringLiteral("type"), QStringLiteral("garbage")}});
    }
    if (hasFault(faults, FaultKind::OrphanBinary, k)) {
        sendBinary(QByteArray(64, '\0'), "orphan-binary");
    }
    const ReadyChunk ready = m_ready[k];
    m_ready.erase(k);
    const ChunkPlan plan = m_plans[k];
    m_plans.erase(k);
    if (m_production_lag_ms > 0.0) {
        // How late this process's own drawing and encoding has made the pace so far: a chunk
        // that comes later than its profile says, by no more than this, came late from the
        // machine running the simulator, not from the server it models.
        log({{QStringLiteral("type"), QStringLiteral("production_lag")},
             {QStringLiteral("generation_chunk_index"), k},
             {QStringLiteral("lag_ms"), m_production_lag_ms}});
    }
    sendMetadata(QStringLiteral("media"), k, static_cast<int>(plan.frames.size()),
                 ready.media.size(), &plan);
    QByteArray payload = ready.media;
    if (hasFault(faults, FaultKind::Truncate, k)) {
        payload.truncate(payload.size() / 2);
    }
    sendBinary(payload, "binary");
    ++m_transport_index;
    touchProgress();
    m_sent_at_ms = msSinceStart();
    m_phase = Phase::WaitingForEngine;
    ++m_next_chunk;
    // The event loop is free again: what arrived while muxing is read now, in order.
    const QStringList deferred = std::exchange(m_deferred, {});
    for (const QString& text : deferred) {
        if (m_state == State::Closed || !m_control_alive) {
            break;
        }
        if (text.isNull()) {
            m_control_alive = false;
        } else {
            handleControl(text);
        }
    }
    if (m_state != State::Streaming) {
        return;
    }
    if (k == m_chunk_count - 1) {
        sendMetadata(QStringLiteral("trailer"), std::nullopt, 0, ready.trailer.size(), nullptr);
        sendBinary(ready.trailer, "binary");
        ++m_transport_index;
        finish(false);
        return;
    }
    scheduleNext();
}

void SimulatorSession::sendMetadata(const QString& kind, std::optional<int> generation_chunk_index,
                                    int num_frames, qint64 byte_length, const ChunkPlan* plan) {
    // A one-chunk session's chunk carries no stream metadata upstream, so no index either.
    const bool indexed = generation_chunk_index && m_chunk_count > 1;
    QJsonObject metadata{
        {QStringLiteral("type"), QStringLiteral("video.chunk_metadata")},
        {QStringLiteral("request_id"), m_request_id},
        {QStringLiteral("kind"), kind},
        {QStringLiteral("transport_chunk_index"), m_transport_index},
        {QStringLiteral("generation_chunk_index"),
         indexed ? QJsonValue(*generation_chunk_index) : QJsonValue()},
        {QStringLiteral("num_frames"), num_frames},
        {QStringLiteral("byte_length"), static_cast<double>(byte_length)},
        {QStringLiteral("started_event_ids"),
         plan ? toArray(plan->started_event_ids) : QJsonArray()},
        {QStringLiteral("active_event_ids"), plan ? toArray(plan->active_event_ids) : QJsonArray()},
        {QStringLiteral("completed_event_ids"),
         plan ? toArray(plan->completed_event_ids) : QJsonArray()}};
    sendJson(metadata);
}

void SimulatorSession::pollControl() {
    if ((m_state != State::Streaming && m_state != State::Stalled) || !m_control_alive ||
        m_phase == Phase::Muxing) {
        return;
    }
    if (static_cast<double>(nowNs() - m_last_progress_ns) / 1e6 > m_config.stall_timeout_ms) {
        // The handler aborts the request; its main loop then ends the session as stopped.
        sendError(QStringLiteral("Stall timeout: no generation progress"));
        m_control_alive = false;
        finish(true);
    }
}

void SimulatorSession::handleControl(const QString& text) {
    m_poll_timer.start(); // the loop's wait starts over after every message
    const ControlMessage message = readControlMessage(text, m_config.handler);
    switch (message.kind) {
    case ControlMessage::Kind::Error:
        sendError(message.error);
        break;
    case ControlMessage::Kind::Ping:
        touchProgress();
        sendJson({{QStringLiteral("type"), QStringLiteral("session.pong")}});
        break;
    case ControlMessage::Kind::Stop:
        // The loop aborts the request and ends; the session ends as stopped once the chunk
        // being muxed (if any) is out.
        m_control_alive = false;
        m_stop_requested = true;
        if (m_phase == Phase::WaitingForEngine) {
            finish(true);
        }
        break;
    case ControlMessage::Kind::Interaction:
        handleInteraction(message);
        break;
    }
}

void SimulatorSession::handleInteraction(const ControlMessage& message) {
    const QString& id = message.event_id;
    if (m_used_event_ids.contains(id)) {
        sendError(QStringLiteral("event_id_conflict"), QStringLiteral("event_id_conflict"), id);
        return;
    }
    m_used_event_ids.insert(id);
    if (!submitToEngine(message)) {
        m_used_event_ids.remove(id);
        sendError(QStringLiteral("Failed to apply interaction"),
                  QStringLiteral("interaction_failed"), id);
        return;
    }
    sendJson({{QStringLiteral("type"), QStringLiteral("session.interaction.queued")},
              {QStringLiteral("request_id"), m_request_id},
              {QStringLiteral("event_id"), id}});
}

bool SimulatorSession::submitToEngine(const ControlMessage& message) {
    if (!m_engine || m_engine_finished) {
        return false; // "No active request for interaction"
    }
    // The engine queues the prompt before it looks at the other modalities, so a prompt
    // sent with a refused camera still takes effect.
    if (message.prompt) {
        m_engine->queuePrompt(message.event_id, *message.prompt,
                              message.transition_chunks.value_or(lbm::kDefaultTransitionChunks));
    }
    if (!message.multi_modal_data) {
        return true;
    }
    for (const auto& [modality, payload] : message.multi_modal_data->entries()) {
        Q_UNUSED(payload);
        if (modality != QStringLiteral("camera")) {
            return false; // "interaction modality ... is not supported by pipeline ..."
        }
    }
    const PyValue* camera = message.multi_modal_data->get(QStringLiteral("camera"));
    if (camera == nullptr) {
        return true;
    }
    const PyValue* mode = camera->get(QStringLiteral("mode"));
    const QString mode_text = mode == nullptr                      ? QStringLiteral("target")
                              : mode->type() == PyValue::Type::Str ? mode->toStr()
                                                                   : QString();
    const PyValue* data = camera->get(QStringLiteral("data"));
    if ((mode_text != QStringLiteral("target") && mode_text != QStringLiteral("velocity")) ||
        data == nullptr || data->type() != PyValue::Type::Dict) {
        return false;
    }
    const auto translation = numbers(data->get(QStringLiteral("translation")), 3);
    const auto rotation = numbers(data->get(QStringLiteral("rotation")), 4);
    QQuaternion quaternion;
    if (!rotation.empty()) {
        quaternion = QQuaternion(rotation[3], rotation[0], rotation[1], rotation[2]);
        quaternion = qFuzzyIsNull(quaternion.length()) ? QQuaternion() : quaternion.normalized();
    }
    m_engine->queueCamera(
        message.event_id,
        mode_text == QStringLiteral("velocity") ? InteractionEngine::CameraMode::Velocity
                                                : InteractionEngine::CameraMode::Target,
        translation.empty() ? QVector3D()
                            : QVector3D(translation[0], translation[1], translation[2]),
        quaternion, message.transition_chunks.value_or(1));
    return true;
}

} // namespace lbm::sim
