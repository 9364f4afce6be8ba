#pragma once
// Server -> client text messages of WS /v1/realtime/video as typed, validated values. A
// message that is not JSON, not an object, or whose known type has fields of the wrong shape
// is reported with a reason instead of being half-used; an unknown type is passed through so
// a newer server does not break an older client.

#include "metrics/chunk_record.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

namespace lbm::protocol {

struct VideoStart {
    QString request_id; // "video_stream-<hex>"
    QString format;     // "m4s"
    QJsonObject config; // the accepted request, echoed (includes the first frame)
};

using ChunkKind = lbm::ChunkKind;

struct ChunkMetadata {
    QString request_id;
    ChunkKind kind = ChunkKind::Media;
    qint64 transport_chunk_index = 0;
    // >= 0 when present. Absent for the trailer, and also for the media chunk of a one-chunk
    // session, which the real handler sends with generation_chunk_index null (a client numbers
    // such a chunk by its position).
    std::optional<qint64> generation_chunk_index;
    int num_frames = 0;
    qint64 byte_length = 0;
    QStringList started_event_ids;
    QStringList active_event_ids;
    QStringList completed_event_ids;

    // The chunk's identity as every later layer keeps it.
    ChunkIdentity chunk() const {
        return {transport_chunk_index, generation_chunk_index, num_frames, kind};
    }
};

struct InteractionQueued {
    QString request_id;
    QString event_id;
};

struct SessionPong {};

struct SessionDone {
    QString request_id;
    qint64 chunks = 0; // transport payloads, trailer included
    bool stopped = false;
    QJsonObject raw; // for messages that quote the event
};

struct ServerError {
    QString message; // shown verbatim
    QString code;
    QString request_id;
    QString event_id; // set when the error answers one interaction
    QJsonObject raw;
};

struct UnknownServerMessage {
    QString type;
    QJsonObject raw;
};

using ServerMessage = std::variant<VideoStart, ChunkMetadata, InteractionQueued, SessionPong,
                                   SessionDone, ServerError, UnknownServerMessage>;

struct ParsedServerMessage {
    std::optional<ServerMessage> message;
    QString problem; // non-empty exactly when message is empty
};

ParsedServerMessage parseServerMessage(const QByteArray& utf8_json);
ParsedServerMessage parseServerMessage(const QJsonObject& object);

} // namespace lbm::protocol
