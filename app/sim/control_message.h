#pragma once
// One text message of the handler's control loop (after video.start), read and checked as
// vLLM-Omni's handler does it, with its texts. The session then applies what is left
// (event-id conflicts and the engine's acceptance need its state):
//
//   control message too large | Invalid JSON message | WebSocket messages must be JSON
//   objects | Unknown message type: X | session.interaction requires an interaction object |
//   session.interaction event_id must be a non-empty string | session.interaction requires
//   event object | session.interaction transition_chunks must be an integer |
//   session.interaction transition_chunks must be >= 0 | session.interaction negative_prompt
//   is not supported in this release, and per handler version:
//   snapshot: session.interaction requires a non-empty event.prompt
//   newest:   session.interaction requires a non-empty event.prompt and/or non-empty
//             event.multi_modal_data | session.interaction event.prompt must be a non-empty
//             string when provided | session.interaction event.multi_modal_data must be a
//             non-empty object when provided | session.interaction multi_modal_data['k'] must
//             be an object
//
// None of these errors carries a request_id, a code or an event_id. An omitted event_id
// becomes a fresh uuid4().hex.

#include "app/sim/py_value.h"
#include "app/sim/simulator_config.h"

#include <QString>

#include <optional>

namespace lbm::sim {

struct ControlMessage {
    enum class Kind { Error, Ping, Stop, Interaction };
    Kind kind = Kind::Error;
    QString error; // Kind::Error

    // Kind::Interaction, as the handler hands it to the engine.
    QString event_id;
    std::optional<QString> prompt;           // a non-blank prompt
    std::optional<qint64> transition_chunks; // >= 0
    std::optional<PyValue> multi_modal_data; // a non-empty dict of dicts (newest path)
};

ControlMessage readControlMessage(const QString& text, HandlerVersion handler);

} // namespace lbm::sim
