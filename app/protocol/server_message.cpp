#include "app/protocol/server_message.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <limits>

namespace lbm::protocol {
namespace {

// A field problem is thrown inside this file only and becomes ParsedServerMessage::problem.
struct FieldProblem {
    QString text;
};

QString describe(const QJsonValue& value) {
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return QString::number(value.toDouble(), 'g', 17);
    case QJsonValue::String:
        return QLatin1Char('"') + value.toString().left(80) + QLatin1Char('"');
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        return QStringLiteral("nothing");
    }
    return {};
}

[[noreturn]] void fail(const QString& type, const QString& field, const QString& expected,
                       const QJsonValue& got) {
    throw FieldProblem{
        QStringLiteral("%1: %2 must be %3 (got %4)").arg(type, field, expected, describe(got))};
}

std::optional<qint64> integerValue(const QJsonValue& value) {
    if (!value.isDouble()) {
        return std::nullopt;
    }
    const double d = value.toDouble();
    // Beyond 2^53 a double no longer says which integer was meant.
    if (!std::isfinite(d) || d != std::floor(d) || std::abs(d) > 9007199254740992.0) {
        return std::nullopt;
    }
    return static_cast<qint64>(d);
}

qint64 requiredNonNegative(const QJsonObject& object, const QString& type, const QString& field) {
    const QJsonValue value = object.value(field);
    const auto integer = integerValue(value);
    if (!integer || *integer < 0) {
        fail(type, field, QStringLiteral("a non-negative integer"), value);
    }
    return *integer;
}

QString optionalString(const QJsonObject& object, const QString& type, const QString& field) {
    const QJsonValue value = object.value(field);
    if (value.isUndefined() || value.isNull()) {
        return {};
    }
    if (!value.isString()) {
        fail(type, field, QStringLiteral("a string"), value);
    }
    return value.toString();
}

QStringList idList(const QJsonObject& object, const QString& type, const QString& field) {
    const QJsonValue value = object.value(field);
    if (value.isUndefined() || value.isNull()) {
        return {};
    }
    if (!value.isArray()) {
        fail(type, field, QStringLiteral("a list of event ids"), value);
    }
    QStringList ids;
    for (const QJsonValue& item : value.toArray()) {
        if (!item.isString()) {
            fail(type, field, QStringLiteral("a list of strings"), item);
        }
        ids.append(item.toString());
    }
    return ids;
}

ChunkMetadata parseChunkMetadata(const QJsonObject& object) {
    const QString type = QStringLiteral("video.chunk_metadata");
    ChunkMetadata metadata;
    metadata.request_id = optionalString(object, type, QStringLiteral("request_id"));
    const QJsonValue kind = object.value(QStringLiteral("kind"));
    if (kind == QJsonValue(QStringLiteral("media"))) {
        metadata.kind = ChunkKind::Media;
    } else if (kind == QJsonValue(QStringLiteral("trailer"))) {
        metadata.kind = ChunkKind::Trailer;
    } else {
        fail(type, QStringLiteral("kind"), QStringLiteral("\"media\" or \"trailer\""), kind);
    }
    metadata.transport_chunk_index =
        requiredNonNegative(object, type, QStringLiteral("transport_chunk_index"));
    const QJsonValue generation = object.value(QStringLiteral("generation_chunk_index"));
    if (metadata.kind == ChunkKind::Media) {
        // vLLM-Omni attaches no stream metadata to a one-chunk session's chunk, so its index
        // is null there; any value it does send must be an index.
        if (!generation.isNull() && !generation.isUndefined()) {
            metadata.generation_chunk_index =
                requiredNonNegative(object, type, QStringLiteral("generation_chunk_index"));
        }
    } else if (!generation.isNull() && !generation.isUndefined()) {
        // A trailer carries no generated frames; an index here would be a server bug that a
        // client must not count as a chunk.
        fail(type, QStringLiteral("generation_chunk_index of a trailer"), QStringLiteral("null"),
             generation);
    }
    const qint64 frames = requiredNonNegative(object, type, QStringLiteral("num_frames"));
    if (frames > std::numeric_limits<int>::max()) {
        fail(type, QStringLiteral("num_frames"), QStringLiteral("a plausible frame count"),
             object.value(QStringLiteral("num_frames")));
    }
    metadata.num_frames = static_cast<int>(frames);
    metadata.byte_length = requiredNonNegative(object, type, QStringLiteral("byte_length"));
    metadata.started_event_ids = idList(object, type, QStringLiteral("started_event_ids"));
    metadata.active_event_ids = idList(object, type, QStringLiteral("active_event_ids"));
    metadata.completed_event_ids = idList(object, type, QStringLiteral("completed_event_ids"));
    return metadata;
}

ServerMessage parseKnown(const QString& type, const QJsonObject& object) {
    if (type == QStringLiteral("video.chunk_metadata")) {
        return parseChunkMetadata(object);
    }
    if (type == QStringLiteral("video.start")) {
        VideoStart start;
        start.request_id = optionalString(object, type, QStringLiteral("request_id"));
        start.format = optionalString(object, type, QStringLiteral("format"));
        const QJsonValue config = object.value(QStringLiteral("config"));
        if (!config.isUndefined() && !config.isNull() && !config.isObject()) {
            fail(type, QStringLiteral("config"), QStringLiteral("an object"), config);
        }
        start.config = config.toObject();
        return start;
    }
    if (type == QStringLiteral("session.interaction.queued")) {
        InteractionQueued queued;
        queued.request_id = optionalString(object, type, QStringLiteral("request_id"));
        queued.event_id = optionalString(object, type, QStringLiteral("event_id"));
        if (queued.event_id.isEmpty()) {
            fail(type, QStringLiteral("event_id"), QStringLiteral("a non-empty string"),
                 object.value(QStringLiteral("event_id")));
        }
        return queued;
    }
    if (type == QStringLiteral("session.pong")) {
        return SessionPong{};
    }
    if (type == QStringLiteral("session.done")) {
        SessionDone done;
        done.request_id = optionalString(object, type, QStringLiteral("request_id"));
        const QJsonValue chunks = object.value(QStringLiteral("chunks"));
        if (!chunks.isUndefined() && !chunks.isNull()) {
            done.chunks = requiredNonNegative(object, type, QStringLiteral("chunks"));
        }
        const QJsonValue stopped = object.value(QStringLiteral("stopped"));
        if (!stopped.isUndefined() && !stopped.isNull() && !stopped.isBool()) {
            fail(type, QStringLiteral("stopped"), QStringLiteral("true or false"), stopped);
        }
        done.stopped = stopped.toBool(false);
        done.raw = object;
        return done;
    }
    if (type == QStringLiteral("error")) {
        ServerError error;
        // The message is quoted verbatim; a non-string one is still shown, as JSON.
        const QJsonValue message = object.value(QStringLiteral("message"));
        error.message =
            message.isString()
                ? message.toString()
                : QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
        const QJsonValue code = object.value(QStringLiteral("code"));
        error.code = code.isString()   ? code.toString()
                     : code.isDouble() ? QString::number(code.toDouble(), 'g', 17)
                                       : QString();
        error.request_id = optionalString(object, type, QStringLiteral("request_id"));
        error.event_id = optionalString(object, type, QStringLiteral("event_id"));
        error.raw = object;
        return error;
    }
    return UnknownServerMessage{type, object};
}

} // namespace

ParsedServerMessage parseServerMessage(const QJsonObject& object) {
    const QJsonValue type = object.value(QStringLiteral("type"));
    if (!type.isString()) {
        return {std::nullopt,
                QStringLiteral("The server sent a JSON object without a string \"type\" (got %1).")
                    .arg(describe(type))};
    }
    try {
        return {parseKnown(type.toString(), object), {}};
    } catch (const FieldProblem& problem) {
        return {std::nullopt, QStringLiteral("The server sent a malformed %1").arg(problem.text)};
    }
}

ParsedServerMessage parseServerMessage(const QByteArray& utf8_json) {
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(utf8_json, &error);
    if (error.error != QJsonParseError::NoError) {
        return {std::nullopt,
                QStringLiteral("The server sent a text frame that is not valid JSON (%1 at offset "
                               "%2): %3")
                    .arg(error.errorString())
                    .arg(error.offset)
                    .arg(QString::fromUtf8(utf8_json.left(80)))};
    }
    if (!document.isObject()) {
        return {std::nullopt,
                QStringLiteral("The server sent a JSON text frame that is not an object: %1")
                    .arg(QString::fromUtf8(utf8_json.left(80)))};
    }
    return parseServerMessage(document.object());
}

} // namespace lbm::protocol
