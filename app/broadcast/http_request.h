#pragma once
// One HTTP/1.1 request head as the broadcast's server reads it: method, path, query and the
// headers it looks at. Parsed strictly and bounded (the caller caps the head's size): anything
// else is a 400 with the reason, never a guess.

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QUrlQuery>

#include <optional>

namespace lbm::broadcast {

struct HttpRequest {
    QByteArray method;
    QString path; // percent-decoded, without the query
    QUrlQuery query;
    QHash<QByteArray, QByteArray> headers; // names in lower case
    bool keep_alive = true;
    bool head_only() const { return method == "HEAD"; }
};

// The request head (up to and including the blank line). nullopt with *error on a malformed
// head; *status_code is then the status to answer with (400, 501, 505).
std::optional<HttpRequest> parseHttpRequestHead(const QByteArray& head, QString* error,
                                                int* status_code);

} // namespace lbm::broadcast
