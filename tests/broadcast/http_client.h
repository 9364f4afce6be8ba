#pragma once
// A small HTTP/1.1 GET client for the broadcast's tests and benchmark: it keeps the caller's
// event loop running while it waits (the engine and the simulator live there), so a held
// blocking reload does not stall the session it waits on. No test framework inside.

#include <QByteArray>
#include <QHash>
#include <QString>

#include <functional>

namespace lbm::broadcast::test {

struct HttpReply {
    int status = 0;                        // 0: no answer (refused, closed, timed out)
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QByteArray body;
    qint64 elapsed_ms = 0;
};
// GET http://127.0.0.1:port + path, waiting up to timeout_ms while the event loop runs.
HttpReply httpGet(quint16 port, const QString& path, int timeout_ms = 15'000);

// Runs the event loop until done() or timeout_ms; returns done().
bool waitUntil(const std::function<bool()>& done, int timeout_ms);

} // namespace lbm::broadcast::test
