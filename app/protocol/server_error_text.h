#pragma once
// What a server error's text tells a client, for vLLM-Omni's realtime-video handler (texts
// measured on the real one: docs/upstream-conformance.md). Most of its errors carry no code,
// no request_id and no event_id, so the text decides whether the session is over and which
// message it answers; and for the texts we know, what the user can do about it (the same
// table as README's "Server errors and what to do").

#include <QString>

namespace lbm::protocol {

// Errors of the control loop, which keep the session going: the answers to a malformed
// control message ("Invalid JSON message", "Unknown message type: X", ...), the interaction
// refusals ("session.interaction ...", "event_id_conflict", "Failed to apply interaction").
bool isControlLoopError(const QString& message);
// The subset that answers a session.interaction (in the order the interactions were sent).
bool isInteractionRefusal(const QString& message);
// One sentence on what to do about a known refusal, empty when the text is not known.
QString serverErrorAdvice(const QString& message);

} // namespace lbm::protocol
