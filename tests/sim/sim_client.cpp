#include "tests/sim/sim_client.h"

#include "resources/bundled_resources.h"

#include <QJsonDocument>
#include <QTest>

namespace lbm::sim::test {

SimClient::SimClient(const QUrl& url) {
    m_clock.start();
    QObject::connect(&m_socket, &QWebSocket::connected, [this]() { m_connected = true; });
    QObject::connect(&m_socket, &QWebSocket::disconnected, [this]() { m_closed = true; });
    QObject::connect(&m_socket, &QWebSocket::textMessageReceived, [this](const QString& text) {
        ReceivedMessage message;
        message.text = text;
        message.json = QJsonDocument::fromJson(text.toUtf8()).object();
        message.arrival_ms = static_cast<double>(m_clock.nsecsElapsed()) / 1e6;
        m_messages.push_back(message);
        if (on_message) {
            on_message(message);
        }
    });
    QObject::connect(&m_socket, &QWebSocket::binaryMessageReceived,
                     [this](const QByteArray& bytes) {
                         ReceivedMessage message;
                         message.binary = true;
                         message.bytes = bytes;
                         message.arrival_ms = static_cast<double>(m_clock.nsecsElapsed()) / 1e6;
                         m_messages.push_back(message);
                         if (on_message) {
                             on_message(message);
                         }
                     });
    m_socket.setMaxAllowedIncomingMessageSize(64 * 1024 * 1024);
    m_socket.open(url);
    waitFor([this]() { return m_connected || m_closed; }, 5000);
}

void SimClient::sendJson(const QJsonObject& message) {
    sendText(QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact)));
}

void SimClient::sendText(const QString& text) {
    m_socket.sendTextMessage(text);
    m_socket.flush();
}

bool SimClient::waitFor(const std::function<bool()>& predicate, int timeout_ms) {
    return QTest::qWaitFor(predicate, timeout_ms);
}

bool SimClient::waitForType(const QString& type, int timeout_ms) {
    return waitFor(
        [this, type]() {
            for (const auto& message : m_messages) {
                if (!message.binary && message.type() == type) {
                    return true;
                }
            }
            return false;
        },
        timeout_ms);
}

std::vector<QJsonObject> SimClient::ofType(const QString& type) const {
    std::vector<QJsonObject> found;
    for (const auto& message : m_messages) {
        if (!message.binary && message.type() == type) {
            found.push_back(message.json);
        }
    }
    return found;
}

QByteArray SimClient::streamBytes() const {
    QByteArray bytes;
    for (const auto& message : m_messages) {
        if (message.binary) {
            bytes += message.bytes;
        }
    }
    return bytes;
}

QJsonObject startMessage(int num_frames) {
    return QJsonObject{
        {QStringLiteral("type"), QStringLiteral("session.start")},
        {QStringLiteral("model"),
         QStringLiteral("robbyant/lingbot-world-v2-14b-causal-fast-diffusers")},
        {QStringLiteral("prompt"), QStringLiteral("A quiet harbour at dawn")},
        {QStringLiteral("image_reference"),
         QJsonObject{{QStringLiteral("image_url"), lbm::bundledFirstFrameDataUrl()}}},
        {QStringLiteral("width"), 832},
        {QStringLiteral("height"), 480},
        {QStringLiteral("num_frames"), num_frames},
        {QStringLiteral("fps"), 16},
        {QStringLiteral("seed"), 42},
        {QStringLiteral("extra_params"), QJsonObject{{QStringLiteral("flow_shift"), 5.0}}},
    };
}

QJsonObject quarterPictureStart(SimulatorConfig& config, int num_frames) {
    config.width = 416;
    config.height = 240;
    QJsonObject start = startMessage(num_frames);
    start.insert(QStringLiteral("width"), config.width);
    start.insert(QStringLiteral("height"), config.height);
    return start;
}

} // namespace lbm::sim::test
