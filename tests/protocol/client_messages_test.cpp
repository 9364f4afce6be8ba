#include "app/protocol/client_messages.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <catch2/catch.hpp>

using namespace lbm::protocol;

namespace {

QJsonObject roundTrip(const QJsonObject& message) {
    return QJsonDocument::fromJson(toWireText(message).toUtf8()).object();
}

} // namespace

TEST_CASE("control messages have the protocol's shape", "[protocol][messages]") {
    REQUIRE(toWireText(sessionPingMessage()) == QStringLiteral("{\"type\":\"session.ping\"}"));
    REQUIRE(toWireText(sessionStopMessage()) == QStringLiteral("{\"type\":\"session.stop\"}"));
}

TEST_CASE("a prompt interaction carries id, prompt and transition_chunks", "[protocol][messages]") {
    const QJsonObject message =
        roundTrip(promptInteractionMessage(QStringLiteral("ui-1-ab"), QStringLiteral("Snow"), 3));
    REQUIRE(message.value(QStringLiteral("type")).toString() ==
            QStringLiteral("session.interaction"));
    const QJsonObject interaction = message.value(QStringLiteral("interaction")).toObject();
    REQUIRE(interaction.value(QStringLiteral("event_id")).toString() == QStringLiteral("ui-1-ab"));
    REQUIRE(interaction.value(QStringLiteral("transition_chunks")).toInt() == 3);
    REQUIRE(interaction.value(QStringLiteral("event")).toObject() ==
            QJsonObject{{QStringLiteral("prompt"), QStringLiteral("Snow")}});
}

TEST_CASE("camera interactions put the SE3 value under multi_modal_data.camera",
          "[protocol][messages]") {
    CameraSe3 value;
    value.translation = {0.05, 0.0, -0.05};
    value.rotation = {0.0, 0.0523360, 0.0, 0.9986295};
    SECTION("velocity has no transition_chunks") {
        const QJsonObject interaction =
            roundTrip(cameraVelocityInteractionMessage(QStringLiteral("v1"), value))
                .value(QStringLiteral("interaction"))
                .toObject();
        REQUIRE_FALSE(interaction.contains(QStringLiteral("transition_chunks")));
        const QJsonObject camera = interaction.value(QStringLiteral("event"))
                                       .toObject()
                                       .value(QStringLiteral("multi_modal_data"))
                                       .toObject()
                                       .value(QStringLiteral("camera"))
                                       .toObject();
        REQUIRE(camera.value(QStringLiteral("mode")).toString() == QStringLiteral("velocity"));
        const QJsonObject data = camera.value(QStringLiteral("data")).toObject();
        REQUIRE(data.value(QStringLiteral("translation")).toArray() ==
                QJsonArray{0.05, 0.0, -0.05});
        REQUIRE(data.value(QStringLiteral("rotation")).toArray() ==
                QJsonArray{0.0, 0.0523360, 0.0, 0.9986295});
    }
    SECTION("target carries transition_chunks only when given") {
        const QJsonObject with =
            roundTrip(cameraTargetInteractionMessage(QStringLiteral("t1"), value, 0))
                .value(QStringLiteral("interaction"))
                .toObject();
        REQUIRE(with.value(QStringLiteral("transition_chunks")).toInt(-1) == 0);
        REQUIRE(with.value(QStringLiteral("event"))
                    .toObject()
                    .value(QStringLiteral("multi_modal_data"))
                    .toObject()
                    .value(QStringLiteral("camera"))
                    .toObject()
                    .value(QStringLiteral("mode"))
                    .toString() == QStringLiteral("target"));
        const QJsonObject without =
            roundTrip(cameraTargetInteractionMessage(QStringLiteral("t2"), value))
                .value(QStringLiteral("interaction"))
                .toObject();
        REQUIRE_FALSE(without.contains(QStringLiteral("transition_chunks")));
    }
}

TEST_CASE("client-side checks explain what is wrong", "[protocol][messages]") {
    REQUIRE(promptInteractionProblem(QStringLiteral("A snowy street"), 3).isEmpty());
    REQUIRE(promptInteractionProblem(QStringLiteral("   "), 3).contains(QStringLiteral("empty")));
    REQUIRE(
        promptInteractionProblem(QStringLiteral("x"), -1).contains(QStringLiteral("non-negative")));
    REQUIRE(promptInteractionProblem(QString(200 * 1024, QLatin1Char('x')), 3)
                .contains(QStringLiteral("too long")));
    REQUIRE(cameraSe3Problem(CameraSe3::identity()).isEmpty());
    CameraSe3 bad;
    bad.rotation = {0.0, 0.0, 0.0, 2.0};
    REQUIRE(cameraSe3Problem(bad).contains(QStringLiteral("unit quaternion")));
}
