#include "app/sim/control_message.h"

#include "app/protocol/python_repr.h"

#include <QUuid>

#include <cmath>
#include <limits>

namespace lbm::sim {
namespace {

constexpr qsizetype kMaxControlCharacters = 128 * 1024;

ControlMessage error(const QString& text) {
    ControlMessage message;
    message.kind = ControlMessage::Kind::Error;
    message.error = text;
    return message;
}

bool nonBlank(const PyValue* value) {
    return value != nullptr && value->type() == PyValue::Type::Str &&
           !value->toStr().trimmed().isEmpty();
}

// The snapshot handler's event check: a prompt is required.
std::optional<QString> snapshotEvent(const PyValue& event, ControlMessage& out) {
    if (!nonBlank(event.get(QStringLiteral("prompt")))) {
        return QStringLiteral("session.interaction requires a non-empty event.prompt");
    }
    out.prompt = event.get(QStringLiteral("prompt"))->toStr();
    return std::nullopt;
}

// The newest handler's: a prompt and/or multi_modal_data, each well formed when given.
std::optional<QString> newestEvent(const PyValue& event, ControlMessage& out) {
    const PyValue* prompt = event.get(QStringLiteral("prompt"));
    const PyValue* data = event.get(QStringLiteral("multi_modal_data"));
    const bool has_prompt = nonBlank(prompt);
    const bool has_data =
        data != nullptr && data->type() == PyValue::Type::Dict && !data->entries().isEmpty();
    if (!has_prompt && !has_data) {
        return QStringLiteral("session.interaction requires a non-empty event.prompt and/or "
                              "non-empty event.multi_modal_data");
    }
    if (prompt != nullptr && !prompt->isNone() && !has_prompt) {
        return QStringLiteral(
            "session.interaction event.prompt must be a non-empty string when provided");
    }
    if (data != nullptr && !data->isNone() && !has_data) {
        return QStringLiteral(
            "session.interaction event.multi_modal_data must be a non-empty object when provided");
    }
    if (has_data) {
        for (const auto& [modality, payload] : data->entries()) {
            if (payload.type() != PyValue::Type::Dict) {
                return QStringLiteral("session.interaction multi_modal_data[%1] must be an object")
                    .arg(protocol::pythonStringRepr(modality));
            }
        }
        out.multi_modal_data = *data;
    }
    if (has_prompt) {
        out.prompt = prompt->toStr();
    }
    return std::nullopt;
}

ControlMessage readInteraction(const PyValue& message, HandlerVersion handler) {
    const PyValue* interaction = message.get(QStringLiteral("interaction"));
    if (interaction == nullptr || interaction->type() != PyValue::Type::Dict) {
        return error(QStringLiteral("session.interaction requires an interaction object"));
    }
    ControlMessage out;
    out.kind = ControlMessage::Kind::Interaction;
    const PyValue* id = interaction->get(QStringLiteral("event_id"));
    if (id == nullptr || id->isNone()) {
        out.event_id = QUuid::createUuid().toString(QUuid::Id128);
    } else if (id->type() != PyValue::Type::Str || id->toStr().isEmpty()) {
        return error(QStringLiteral("session.interaction event_id must be a non-empty string"));
    } else {
        out.event_id = id->toStr();
    }
    const PyValue* event = interaction->get(QStringLiteral("event"));
    if (event == nullptr || event->type() != PyValue::Type::Dict) {
        return error(QStringLiteral("session.interaction requires event object"));
    }
    const PyValue* data = event->get(QStringLiteral("multi_modal_data"));
    const bool newest = handler == HandlerVersion::Newest ||
                        (handler == HandlerVersion::Combined && data != nullptr && !data->isNone());
    if (const auto problem = newest ? newestEvent(*event, out) : snapshotEvent(*event, out)) {
        return error(*problem);
    }
    const PyValue* negative = event->get(QStringLiteral("negative_prompt"));
    if (negative != nullptr && !negative->isNone()) {
        return error(
            QStringLiteral("session.interaction negative_prompt is not supported in this release"));
    }
    const PyValue* k = interaction->get(QStringLiteral("transition_chunks"));
    if (k != nullptr && !k->isNone()) {
        const double value = k->toDouble();
        if (!k->isNumber() || (k->type() == PyValue::Type::Float &&
                               (!std::isfinite(value) || value != std::floor(value)))) {
            return error(
                QStringLiteral("session.interaction transition_chunks must be an integer"));
        }
        if (value < 0) {
            return error(QStringLiteral("session.interaction transition_chunks must be >= 0"));
        }
        // Python ints are unbounded; a longer transition than this never ends in a session.
        out.transition_chunks = static_cast<qint64>(
            std::min(value, static_cast<double>(std::numeric_limits<int>::max())));
    }
    return out;
}

} // namespace

ControlMessage readControlMessage(const QString& text, HandlerVersion handler) {
    if (text.size() > kMaxControlCharacters) {
        return error(QStringLiteral("control message too large"));
    }
    const auto message = PyValue::parse(text);
    if (!message) {
        return error(QStringLiteral("Invalid JSON message"));
    }
    if (message->type() != PyValue::Type::Dict) {
        return error(QStringLiteral("WebSocket messages must be JSON objects"));
    }
    const PyValue* type = message->get(QStringLiteral("type"));
    const QString type_text = type != nullptr ? type->str() : QStringLiteral("None");
    const bool is_str = type != nullptr && type->type() == PyValue::Type::Str;
    if (is_str && type->toStr() == QStringLiteral("session.stop")) {
        ControlMessage stop;
        stop.kind = ControlMessage::Kind::Stop;
        return stop;
    }
    if (is_str && type->toStr() == QStringLiteral("session.ping")) {
        ControlMessage ping;
        ping.kind = ControlMessage::Kind::Ping;
        return ping;
    }
    if (is_str && type->toStr() == QStringLiteral("session.interaction")) {
        return readInteraction(*message, handler);
    }
    return error(QStringLiteral("Unknown message type: ") + type_text);
}

} // namespace lbm::sim
