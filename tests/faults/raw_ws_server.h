#pragma once
// A WebSocket server on 127.0.0.1 written on a bare QTcpServer, for faults a conforming
// server library cannot produce: a binary frame cut short by the connection closing, a text
// frame of any size, metadata that lies about the bytes after it. It completes the opening
// handshake, waits for the client's first frame (session.start) and then writes each step's
// raw bytes after that step's delay.

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>

#include <vector>

class RawWsServer : public QObject {
    Q_OBJECT

public:
    struct Step {
        int delay_ms = 0; // after the previous step (or session.start)
        QByteArray bytes; // written to the TCP stream as they are
    };

    // close_at_end: once the last step is written the TCP connection is closed without a
    // WebSocket close frame, as a crashing server or a cut cable would.
    RawWsServer(std::vector<Step> steps, bool close_at_end);
    ~RawWsServer() override;

    QUrl url() const;
    bool clientSentStart() const { return m_started; }

    // Unmasked server frames (RFC 6455 5.2) with the 16- and 64-bit length forms.
    static QByteArray textFrame(const QByteArray& utf8);
    static QByteArray binaryFrame(const QByteArray& payload);
    static QByteArray jsonFrame(const QJsonObject& object);

private:
    void onNewConnection();
    void onReadyRead();
    void runStep(std::size_t index);

    std::vector<Step> m_steps;
    bool m_close_at_end;
    QTcpServer m_server;
    QPointer<QTcpSocket> m_socket;
    QByteArray m_request;
    bool m_upgraded = false;
    bool m_started = false;
};
