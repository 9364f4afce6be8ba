#include "app/broadcast/http_request.h"

#include <QUrl>

namespace lbm::broadcast {

std::optional<HttpRequest> parseHttpRequestHead(const QByteArray& head, QString* error,
                                                int* status_code) {
    *status_code = 400;
    const QList<QByteArray> lines = head.split('\n');
    if (lines.isEmpty()) {
        *error = QStringLiteral("empty request");
        return std::nullopt;
    }
    const QList<QByteArray> request_line = lines.front().trimmed().split(' ');
    if (request_line.size() != 3) {
        *error = QStringLiteral("the request line is not 'METHOD TARGET HTTP/1.x'");
        return std::nullopt;
    }
    HttpRequest request;
    request.method = request_line[0];
    const QByteArray& target = request_line[1];
    const QByteArray& version = request_line[2];
    if (version != "HTTP/1.1" && version != "HTTP/1.0") {
        *status_code = 505;
        *error = QStringLiteral("only HTTP/1.0 and HTTP/1.1 are spoken here");
        return std::nullopt;
    }
    request.keep_alive = version == "HTTP/1.1";
    if (!target.startsWith('/')) {
        *error = QStringLiteral("the request target must be an absolute path");
        return std::nullopt;
    }
    const qsizetype question = target.indexOf('?');
    const QByteArray raw_path = question < 0 ? target : target.left(question);
    request.path = QUrl::fromPercentEncoding(raw_path);
    if (question >= 0) {
        request.query = QUrlQuery(QString::fromLatin1(target.mid(question + 1)));
    }
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed();
        if (line.isEmpty()) {
            break;
        }
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0) {
            *error = QStringLiteral("a header line without a name");
            return std::nullopt;
        }
        request.headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
    }
    const QByteArray connection = request.headers.value("connection").toLower();
    if (connection == "close") {
        request.keep_alive = false;
    } else if (connection == "keep-alive") {
        request.keep_alive = true;
    }
    if (request.headers.contains("transfer-encoding") ||
        request.headers.value("content-length", "0").toLongLong() != 0) {
        *error = QStringLiteral("the broadcast is read-only: requests carry no body");
        return std::nullopt;
    }
    return request;
}

} // namespace lbm::broadcast
