#pragma once
// Python's repr() of a parsed JSON value ({'stopped': True, 'chunks': 3}), because the
// benchmark's messages embed server events that way ("The session was stopped before it
// finished: {...}") and people grep logs of either program with the same patterns.

#include <QJsonValue>
#include <QString>

namespace lbm::protocol {

// Keys appear in QJsonObject's (sorted) order, since Qt's JSON object does not keep the
// server's order.
QString pythonRepr(const QJsonValue& value);
// Python's repr of a str ('x', or "it's").
QString pythonStringRepr(const QString& text);

} // namespace lbm::protocol
