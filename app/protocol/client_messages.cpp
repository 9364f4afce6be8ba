#include "app/protocol/client_messages.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace lbm::protocol {
namespace {

QJsonObject interactionEnvelope(const QString& event_id, const QJsonObject& event,
                                std::optional<int> transition_chunks) {
    QJsonObject interaction{{QStringLiteral("event_id"), event_id},
                            {QStringLiteral("event"), event}};
    if (transition_chunks) {
        interaction.insert(QStringLiteral("transition_chunks"), *transition_chunks);
    }
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("session.interaction")},
                       {QStringLiteral("interaction"), interaction}};
}

QJsonObject cameraEvent(const QString& mode, const CameraSe3& value) {
    QJsonArray translation;
    for (const double component : value.translation) {
        translation.append(component);
    }
    QJsonArray rotation;
    for (const double component : value.rotation) {
        rotation.append(component);
    }
    const QJsonObject data{{QStringLiteral("translation"), translation},
                           {QStringLiteral("rotation"), rotation}};
    const QJsonObject camera{{QStringLiteral("mode"), mode}, {QStringLiteral("data"), data}};
    return QJsonObject{
        {QStringLiteral("multi_modal_data"), QJsonObject{{QStringLiteral("camera"), camera}}}};
}

} // namespace

QJsonObject sessionPingMessage() {
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("session.ping")}};
}

QJsonObject sessionStopMessage() {
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("session.stop")}};
}

QJsonObject promptInteractionMessage(const QString& event_id, const QString& prompt,
                                     int transition_chunks) {
    return interactionEnvelope(event_id, QJsonObject{{QStringLiteral("prompt"), prompt}},
                               transition_chunks);
}

QJsonObject cameraVelocityInteractionMessage(const QString& event_id, const CameraSe3& velocity) {
    return interactionEnvelope(event_id, cameraEvent(QStringLiteral("velocity"), velocity),
                               std::nullopt);
}

QJsonObject cameraTargetInteractionMessage(const QString& event_id, const CameraSe3& pose,
                                           std::optional<int> transition_chunks) {
    return interactionEnvelope(event_id, cameraEvent(QStringLiteral("target"), pose),
                               transition_chunks);
}

QString promptInteractionProblem(const QString& prompt, int transition_chunks) {
    if (prompt.trimmed().isEmpty()) {
        return QStringLiteral("The prompt is empty; type the text the scene should change to.");
    }
    if (transition_chunks < 0) {
        return QStringLiteral("transition_chunks must be non-negative (0 is a hard switch, N "
                              "blends over N chunks).");
    }
    const QString probe = toWireText(
        promptInteractionMessage(QStringLiteral("ui-000000-00000000"), prompt, transition_chunks));
    if (probe.toUtf8().size() > kMaxControlMessageBytes) {
        return QStringLiteral("The prompt is too long: the message would be %1 bytes and the "
                              "server accepts at most %2.")
            .arg(probe.toUtf8().size())
            .arg(kMaxControlMessageBytes);
    }
    return {};
}

QString cameraSe3Problem(const CameraSe3& value) {
    double norm_squared = 0.0;
    for (const double component : value.rotation) {
        if (!std::isfinite(component)) {
            return QStringLiteral("The camera rotation holds a value that is not a number.");
        }
        norm_squared += component * component;
    }
    for (const double component : value.translation) {
        if (!std::isfinite(component)) {
            return QStringLiteral("The camera translation holds a value that is not a number.");
        }
    }
    if (std::abs(std::sqrt(norm_squared) - 1.0) > 1e-6) {
        return QStringLiteral("The camera rotation must be a unit quaternion [qx, qy, qz, qw] "
                              "(its length is %1).")
            .arg(std::sqrt(norm_squared));
    }
    return {};
}

QString toWireText(const QJsonObject& message) {
    return QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact));
}

} // namespace lbm::protocol
