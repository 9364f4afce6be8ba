#pragma once
// Builders for every client -> server message except session.start (whose payload comes from
// a Workload, app/report/workload_json.h): ping, stop and the three interaction kinds, plus
// the size limits the server enforces on what a client sends.

#include "app/protocol/camera_se3.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace lbm::protocol {

// The server refuses a larger session.start ("session.start message too large"); the limit
// is in characters of the JSON text.
inline constexpr qsizetype kMaxSessionStartChars = 4 * 1024 * 1024;
// The server refuses larger control messages ("control message too large").
inline constexpr qsizetype kMaxControlMessageBytes = 128 * 1024;

QJsonObject sessionPingMessage();
QJsonObject sessionStopMessage();

// {"type":"session.interaction","interaction":{"event_id":ID,"event":{"prompt":P},
//  "transition_chunks":K}}
QJsonObject promptInteractionMessage(const QString& event_id, const QString& prompt,
                                     int transition_chunks);
// camera mode "velocity": applied once per latent frame until replaced.
QJsonObject cameraVelocityInteractionMessage(const QString& event_id, const CameraSe3& velocity);
// camera mode "target": a pose relative to the start pose, reached over transition_chunks
// (omitted: the server's default of 1; 0 snaps).
QJsonObject cameraTargetInteractionMessage(const QString& event_id, const CameraSe3& pose,
                                           std::optional<int> transition_chunks = std::nullopt);

// What a client checks before sending a prompt transition; empty when it is acceptable,
// otherwise the reason in words a user can act on.
QString promptInteractionProblem(const QString& prompt, int transition_chunks);
// Non-empty when the quaternion is not (close to) unit length or a value is not finite.
QString cameraSe3Problem(const CameraSe3& value);

// Compact JSON text as sent on the wire (UTF-8, not ASCII-escaped, like the reference client).
QString toWireText(const QJsonObject& message);

} // namespace lbm::protocol
