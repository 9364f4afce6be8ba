#include "app/sim/simulator_session.h"

#include "app/sim/chunk_producer.h"
#include "app/sim/send_log.h"
#include "resources/bundled_resources.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QUuid>
#include <QWebSocket>

#include <cmath>

namespace lbm::sim {
namespace {

constexpr qsizetype kMaxStartCharacters = 4 * 1024 * 1024;
constexpr qsizetype kMaxControlCharacters = 128 * 1024;

QString typeText(const QJsonValue& type) {
    if (type.isString()) {
        return type.toString();
    }
    if (type.isUndefined() || type.isNull()) {
        return QStringLiteral("None");
    }
    return QString::fromUtf8(QJsonDocument(QJsonArray{type}).toJson(QJsonDocument::Compact))
        .mid(1)
        .chopped(1);
}

std::optional<std::vector<double>> numbers(const QJsonValue& value, qsizetype count) {
    const QJsonArray array = value.toArray();
    if (!value.isArray() || array.size() != count) {
        return std::nullopt;
    }
    std::vector<double> result;
    for (const QJsonValue& item : array) {
        if (!item.isDouble() || !std::isfinite(item.toDouble())) {
            return std::nullopt;
        }
        result.push_back(item.toDouble());
    }
    return result;
}

QJsonArray toArray(const QStringList& ids) {
    QJsonArray array;
    for (const QString& id : ids) {
        array.append(id);
    }
    return array;
}

enum class JsonKind { Invalid, NotObject, Object };

// Python's json.loads accepts top-level scalars, QJsonDocument does not: wrapping the text
// in an array tells "valid JSON but not an object" apart from "not JSON".
JsonKind parseMessage(const QString& text, QJsonObject* object) {
    QJsonParseError parse{};
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &parse);
    if (parse.error == QJsonParseError::NoError) {
        if (document.isObject()) {
            *object = document.object();
            return JsonKind::Object;
        }
        return JsonKind::NotObject;
    }
    const QJsonDocument wrapped =
        QJsonDocument::fromJson(QByteArray("[") + text.toUtf8() + QByteArray("]"), &parse);
    return parse.error == QJsonParseError::NoError && wrapped.array().size() == 1
               ? JsonKind::NotObject
               : JsonKind::Invalid;
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
        m_stall_timer.stop();
        m_emit_timer.stop();
        emit finished();
    });
    m_start_timer.setSingleShot(true);
    connect(&m_start_timer, &QTimer::timeout, this,
            [this]() { fail(QStringLiteral("Timeout waiting for session.start")); });
    m_start_timer.start(m_config.start_timeout_ms);
    m_stall_timer.setSingleShot(true);
    connect(&m_stall_timer, &QTimer::timeout, this,
            [this]() { fail(QStringLiteral("Stall timeout: no generation progress")); });
    m_emit_timer.setSingleShot(true);
    m_emit_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_emit_timer, &QTimer::timeout, this, &SimulatorSession::scheduleEmission);
}

SimulatorSession::~SimulatorSession() {
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
    }
    if (!m_request_id.isEmpty()) {
        error.insert(QStringLiteral("request_id"), m_request_id);
    }
    if (!event_id.isEmpty()) {
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
    m_stall_timer.stop();
    m_emit_timer.stop();
    m_socket->flush();
    m_socket->close();
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
    } else if (m_state != State::Closed) {
        handleControl(text);
    }
}

void SimulatorSession::onBinary(const QByteArray& bytes) {
    Q_UNUSED(bytes);
    if (m_state == State::AwaitingStart) {
        fail(QStringLiteral("session.start must be a JSON object"));
    } else if (m_state != State::Closed) {
        sendError(QStringLiteral("WebSocket messages must be JSON objects"));
    }
}

void SimulatorSession::handleStart(const QString& text) {
    m_start_timer.stop();
    if (text.size() > kMaxStartCharacters) {
        fail(QStringLiteral("session.start message too large"));
        return;
    }
    QJsonObject message;
    const JsonKind kind = parseMessage(text, &message);
    if (kind == JsonKind::Invalid) {
        fail(QStringLiteral("Invalid JSON in session.start"));
        return;
    }
    if (kind == JsonKind::NotObject) {
        fail(QStringLiteral("session.start must be a JSON object"));
        return;
    }
    const QJsonValue type = message.value(QStringLiteral("type"));
    if (type.toString() != QStringLiteral("session.start")) {
        fail(QStringLiteral("Expected session.start, got: ") + typeText(type));
        return;
    }
    QString error;
    const auto request = StartRequest::fromJson(message, m_config, &error);
    if (!request) {
        fail(error);
        return;
    }
    startStreaming(*request);
}

void SimulatorSession::startStreaming(const StartRequest& request) {
    m_state = State::Streaming;
    m_request_id = QStringLiteral("video_stream-") + QUuid::createUuid().toString(QUuid::Id128);
    m_chunk_count = request.chunk_count;
    m_has_script = request.camera_script.has_value();
    m_schedule_ms = m_profile.emissionTimesMs(m_chunk_count, static_cast<quint64>(request.seed));
    for (const FaultSpec& fault : m_config.faults) {
        if (fault.kind == FaultKind::SlowStart) {
            m_slow_start_ms =
                m_config.stall_timeout_ms + std::max(1000, m_config.stall_timeout_ms / 2);
        }
    }
    m_engine = std::make_unique<InteractionEngine>(request.prompt, request.camera_script);
    QImage first_frame = request.first_frame;
    if (first_frame.isNull()) {
        // http(s) references are accepted without fetching: draw the bundled frame instead.
        first_frame = QImage::fromData(bundledFirstFramePng());
    }
    auto producer = std::make_unique<ChunkProducer>(first_frame, m_config.width, m_config.height,
                                                    request.fps, m_config.faults);
    producer->moveToThread(&m_thread);
    m_producer = producer.release(); // owned by the thread from here: deleted on finish
    connect(&m_thread, &QThread::finished, m_producer, &QObject::deleteLater);
    connect(m_producer, &ChunkProducer::produced, this, &SimulatorSession::onProduced);
    connect(m_producer, &ChunkProducer::failed, this, &SimulatorSession::fail);
    m_thread.start();

    sendJson({{QStringLiteral("type"), QStringLiteral("video.start")},
              {QStringLiteral("request_id"), m_request_id},
              {QStringLiteral("format"), QStringLiteral("m4s")},
              {QStringLiteral("config"), request.config}});
    m_stream_start_ns = nowNs();
    m_stall_timer.start(m_config.stall_timeout_ms);
    planAndProduce(0);
}

int SimulatorSession::framesInChunk(int generation_chunk_index) const {
    return generation_chunk_index == 0 || m_config.independent_chunks ? 9 : 12;
}

void SimulatorSession::planAndProduce(int generation_chunk_index) {
    const int frames = framesInChunk(generation_chunk_index);
    ChunkPlan plan = m_engine->planChunk(generation_chunk_index, frames, m_frames_planned);
    m_frames_planned += frames;
    m_plans[generation_chunk_index] = plan;
    const bool last = generation_chunk_index == m_chunk_count - 1;
    m_producer->enqueue(plan, last);
}

void SimulatorSession::onProduced(int generation_chunk_index, const QByteArray& media,
                                  const QByteArray& trailer) {
    m_ready[generation_chunk_index] = ReadyChunk{media, trailer};
    scheduleEmission();
}

void SimulatorSession::scheduleEmission() {
    if (m_state != State::Streaming || m_ready.count(m_next_emit) == 0) {
        return;
    }
    const double due_ms =
        m_schedule_ms[static_cast<size_t>(m_next_emit)] + m_slow_start_ms * (m_next_emit == 0);
    const double elapsed_ms = static_cast<double>(nowNs() - m_stream_start_ns) / 1e6;
    if (elapsed_ms + 0.25 < due_ms) {
        m_emit_timer.start(static_cast<int>(std::ceil(due_ms - elapsed_ms)));
        return;
    }
    emitChunk(m_next_emit);
}

void SimulatorSession::sendMetadata(const QString& kind, std::optional<int> generation_chunk_index,
                                    int num_frames, qint64 byte_length, const ChunkPlan* plan) {
    QJsonObject metadata{
        {QStringLiteral("type"), QStringLiteral("video.chunk_metadata")},
        {QStringLiteral("request_id"), m_request_id},
        {QStringLiteral("kind"), kind},
        {QStringLiteral("transport_chunk_index"), m_transport_index},
        {QStringLiteral("generation_chunk_index"),
         generation_chunk_index ? QJsonValue(*generation_chunk_index) : QJsonValue()},
        {QStringLiteral("num_frames"), num_frames},
        {QStringLiteral("byte_length"), static_cast<double>(byte_length)},
        {QStringLiteral("started_event_ids"),
         plan ? toArray(plan->started_event_ids) : QJsonArray()},
        {QStringLiteral("active_event_ids"), plan ? toArray(plan->active_event_ids) : QJsonArray()},
        {QStringLiteral("completed_event_ids"),
         plan ? toArray(plan->completed_event_ids) : QJsonArray()}};
    sendJson(metadata);
}

void SimulatorSession::emitChunk(int k) {
    const auto& faults = m_config.faults;
    if (hasFault(faults, FaultKind::Stall, k)) {
        m_state = State::Stalled; // nothing more is generated; the stall clock decides
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
    // The boundary: interactions processed until now shape the next chunk.
    const bool last = k == m_chunk_count - 1;
    if (!last) {
        planAndProduce(k + 1);
    }
    sendMetadata(QStringLiteral("media"), k, static_cast<int>(plan.frames.size()),
                 ready.media.size(), &plan);
    QByteArray payload = ready.media;
    if (hasFault(faults, FaultKind::Truncate, k)) {
        payload.truncate(payload.size() / 2);
    }
    sendBinary(payload, "binary");
    ++m_transport_index;
    ++m_next_emit;
    m_stall_timer.start(m_config.stall_timeout_ms);
    if (last) {
        sendMetadata(QStringLiteral("trailer"), std::nullopt, 0, ready.trailer.size(), nullptr);
        sendBinary(ready.trailer, "binary");
        ++m_transport_index;
        finish(false);
        return;
    }
    scheduleEmission();
}

void SimulatorSession::handleControl(const QString& text) {
    if (text.size() > kMaxControlCharacters) {
        sendError(QStringLiteral("control message too large"));
        return;
    }
    QJsonObject message;
    const JsonKind kind = parseMessage(text, &message);
    if (kind == JsonKind::Invalid) {
        sendError(QStringLiteral("Invalid JSON message"));
        return;
    }
    if (kind == JsonKind::NotObject) {
        sendError(QStringLiteral("WebSocket messages must be JSON objects"));
        return;
    }
    const QJsonValue type = message.value(QStringLiteral("type"));
    if (type.toString() == QStringLiteral("session.ping")) {
        if (m_stall_timer.isActive()) {
            m_stall_timer.start(m_config.stall_timeout_ms);
        }
        sendJson({{QStringLiteral("type"), QStringLiteral("session.pong")},
                  {QStringLiteral("request_id"), m_request_id}});
    } else if (type.toString() == QStringLiteral("session.stop")) {
        finish(true);
    } else if (type.toString() == QStringLiteral("session.interaction")) {
        handleInteraction(message);
    } else {
        sendError(QStringLiteral("Unknown message type: ") + typeText(type));
    }
}

void SimulatorSession::handleInteraction(const QJsonObject& message) {
    const QString invalid = QStringLiteral("Invalid interaction: ");
    const QString code = QStringLiteral("invalid_interaction");
    const QJsonValue interaction_value = message.value(QStringLiteral("interaction"));
    if (!interaction_value.isObject()) {
        sendError(invalid + QStringLiteral("'interaction' must be an object."), code);
        return;
    }
    const QJsonObject interaction = interaction_value.toObject();
    QString event_id;
    const QJsonValue id_value = interaction.value(QStringLiteral("event_id"));
    if (id_value.isUndefined() || id_value.isNull()) {
        event_id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    } else if (!id_value.isString() || id_value.toString().isEmpty()) {
        sendError(invalid + QStringLiteral("event_id must be a non-empty string."), code);
        return;
    } else {
        event_id = id_value.toString();
    }
    if (m_used_event_ids.contains(event_id)) {
        sendError(QStringLiteral("event_id '%1' was already used in this session; every "
                                 "interaction needs a fresh id.")
                      .arg(event_id),
                  QStringLiteral("event_id_conflict"), event_id);
        return;
    }
    const QJsonValue k_value = interaction.value(QStringLiteral("transition_chunks"));
    std::optional<int> transition_chunks;
    if (!k_value.isUndefined() && !k_value.isNull()) {
        const double k = k_value.toDouble(-1);
        if (!k_value.isDouble() || k < 0 || std::floor(k) != k || k > 1000) {
            sendError(invalid + QStringLiteral("transition_chunks must be a non-negative integer."),
                      code, event_id);
            return;
        }
        transition_chunks = static_cast<int>(k);
    }
    const QJsonValue event_value = interaction.value(QStringLiteral("event"));
    if (!event_value.isObject()) {
        sendError(invalid + QStringLiteral("'event' must be an object."), code, event_id);
        return;
    }
    const QJsonObject event = event_value.toObject();
    const QJsonValue camera_value =
        event.value(QStringLiteral("multi_modal_data")).toObject().value(QStringLiteral("camera"));
    if (event.contains(QStringLiteral("prompt"))) {
        const QJsonValue prompt = event.value(QStringLiteral("prompt"));
        if (!prompt.isString() || prompt.toString().trimmed().isEmpty()) {
            sendError(invalid + QStringLiteral("prompt must be a non-empty string."), code,
                      event_id);
            return;
        }
        m_engine->queuePrompt(event_id, prompt.toString(),
                              transition_chunks.value_or(lbm::kDefaultTransitionChunks));
    } else if (camera_value.isObject()) {
        if (m_has_script) {
            sendError(QStringLiteral("Cannot use mid-generation camera interaction together with "
                                     "camera_action_script"),
                      code, event_id);
            return;
        }
        const QJsonObject camera = camera_value.toObject();
        const QString mode = camera.value(QStringLiteral("mode")).toString();
        if (mode != QStringLiteral("velocity") && mode != QStringLiteral("target")) {
            sendError(invalid + QStringLiteral("camera mode must be 'velocity' or 'target'."), code,
                      event_id);
            return;
        }
        const QJsonObject data = camera.value(QStringLiteral("data")).toObject();
        const auto translation = numbers(data.value(QStringLiteral("translation")), 3);
        const auto rotation = numbers(data.value(QStringLiteral("rotation")), 4);
        const QQuaternion quaternion = rotation ? QQuaternion(static_cast<float>((*rotation)[3]),
                                                              static_cast<float>((*rotation)[0]),
                                                              static_cast<float>((*rotation)[1]),
                                                              static_cast<float>((*rotation)[2]))
                                                : QQuaternion();
        if (!translation || !rotation || qFuzzyIsNull(quaternion.length())) {
            sendError(invalid + QStringLiteral("camera data needs translation [x, y, z] and a "
                                               "non-zero rotation quaternion [qx, qy, qz, qw]."),
                      code, event_id);
            return;
        }
        m_engine->queueCamera(
            event_id,
            mode == QStringLiteral("velocity") ? InteractionEngine::CameraMode::Velocity
                                               : InteractionEngine::CameraMode::Target,
            QVector3D(static_cast<float>((*translation)[0]), static_cast<float>((*translation)[1]),
                      static_cast<float>((*translation)[2])),
            quaternion.normalized(), transition_chunks.value_or(1));
    } else {
        sendError(invalid + QStringLiteral("event must carry a prompt or "
                                           "multi_modal_data.camera."),
                  code, event_id);
        return;
    }
    m_used_event_ids.insert(event_id);
    sendJson({{QStringLiteral("type"), QStringLiteral("session.interaction.queued")},
              {QStringLiteral("request_id"), m_request_id},
              {QStringLiteral("event_id"), event_id}});
}

} // namespace lbm::sim
