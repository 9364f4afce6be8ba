#pragma once
// The messages a Workload turns into on the wire: session.start (the seed's
// Workload.session_start_payload) and a scheduled prompt update's session.interaction (the
// seed's PromptUpdate.to_payload). Here rather than beside the workload file reader so the
// session client needs only the protocol layer.

#include "metrics/camera_script.h"
#include "metrics/prompt_update.h"
#include "metrics/workload.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace lbm::protocol {

// Workload.session_start_payload(model): extra_params = {flow_shift, camera_action_script}
// updated by the workload's extra_params; negative_prompt only when set.
QJsonObject sessionStartMessage(const lbm::Workload& workload, const QString& model);
// PromptUpdate.to_payload(): the session.interaction event.
QJsonObject promptUpdateMessage(const lbm::PromptUpdate& update);
// camera_action_script as JSON: one array of three string arrays per chunk.
QJsonArray cameraScriptToJson(const lbm::CameraScript& script);

} // namespace lbm::protocol
