#pragma once
// A plain QWebSocket client for driving the simulator in tests: records every message
// with its arrival time, and waits on conditions with a deadline.

#include "app/sim/simulator_config.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QString>
#include <QUrl>
#include <QWebSocket>

#include <functional>
#include <vector>

namespace lbm::sim::test {

struct ReceivedMessage {
    bool binary = false;
    QString text;
    QJsonObject json; // for text frames that parse as objects
    QByteArray bytes;
    double arrival_ms = 0; // since the client connected
    QString type() const { return json.value(QStringLiteral("type")).toString(); }
};

class SimClient {
public:
    explicit SimClient(const QUrl& url);

    bool connected() const { return m_connected; }
    bool closed() const { return m_closed; }
    void sendJson(const QJsonObject& message);
    void sendText(const QString& text);
    // Waits until predicate holds or timeout_ms passes; returns the predicate's value.
    bool waitFor(const std::function<bool()>& predicate, int timeout_ms = 10000);
    bool waitForType(const QString& type, int timeout_ms = 10000);
    bool waitForClose(int timeout_ms = 10000) {
        return waitFor([this]() { return m_closed; }, timeout_ms);
    }

    const std::vector<ReceivedMessage>& messages() const { return m_messages; }
    std::vector<QJsonObject> ofType(const QString& type) const;
    // The media+trailer byte stream, in order.
    QByteArray streamBytes() const;
    QWebSocket& socket() { return m_socket; }
    // Invoked for every message as it arrives (e.g. to reply mid-stream).
    std::function<void(const ReceivedMessage&)> on_message;

private:
    QWebSocket m_socket;
    QElapsedTimer m_clock;
    bool m_connected = false;
    bool m_closed = false;
    std::vector<ReceivedMessage> m_messages;
};

// A valid session.start for num_frames with the bundled first frame.
QJsonObject startMessage(int num_frames);

// startMessage at a quarter of the picture (416x240), which `config` is set to serve (a
// deploy's fixed geometry): for cases whose subject is the protocol or the pace, not the
// pixels. A chunk then costs a quarter to render and encode, so the server keeps its schedule
// on a loaded machine (832x480 took 150-195 ms a chunk there, over the fast profile's 120 ms
// to the first chunk).
QJsonObject quarterPictureStart(SimulatorConfig& config, int num_frames);

} // namespace lbm::sim::test
