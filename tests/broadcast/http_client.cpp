#include "tests/broadcast/http_client.h"

#include <QElapsedTimer>
#include <QTcpSocket>
#include <QtCore/qtestsupport_core.h> // QTest::qWaitFor

namespace lbm::broadcast::test {

bool waitUntil(const std::function<bool()>& done, int timeout_ms) {
    // Qt's own wait sleeps 10 ms between checks; processEvents() in a loop of ours returned at
    // once when nothing was pending and spun a core for the whole wait.
    return QTest::qWaitFor(done, timeout_ms);
}

HttpReply httpGet(quint16 port, const QString& path, int timeout_ms) {
    HttpReply reply;
    QElapsedTimer clock;
    clock.start();
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!waitUntil([&] { return socket.state() == QAbstractSocket::ConnectedState; }, timeout_ms)) {
        return reply;
    }
    socket.write("GET " + path.toUtf8() + " HTTP/1.1\r\nHost: 127.0.0.1:" +
                 QByteArray::number(port) + "\r\nConnection: close\r\n\r\n");
    QByteArray received;
    qint64 body_start = -1;
    qint64 length = -1;
    const auto complete = [&] {
        received += socket.readAll();
        if (body_start < 0) {
            const qsizetype end = received.indexOf("\r\n\r\n");
            if (end < 0) {
                return false;
            }
            body_start = end + 4;
            const QList<QByteArray> lines = received.left(end).split('\n');
            reply.status = lines.front().split(' ').value(1).toInt();
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines[i].indexOf(':');
                reply.headers.insert(lines[i].left(colon).trimmed().toLower(),
                                     lines[i].mid(colon + 1).trimmed());
            }
            length = reply.headers.value("content-length", "-1").toLongLong();
        }
        return length >= 0 && received.size() - body_start >= length;
    };
    const bool done =
        waitUntil([&] { return complete() || socket.state() == QAbstractSocket::UnconnectedState; },
                  timeout_ms);
    complete();
    if (!done || body_start < 0) {
        reply.status = 0;
        return reply;
    }
    reply.body = received.mid(body_start, length >= 0 ? length : -1);
    reply.elapsed_ms = clock.elapsed();
    return reply;
}

} // namespace lbm::broadcast::test
