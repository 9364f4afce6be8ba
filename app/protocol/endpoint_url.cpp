#include "app/protocol/endpoint_url.h"

namespace lbm::protocol {

QString realtimeVideoUrl(const QString& base_url) {
    QString base = base_url.trimmed();
    while (base.endsWith(QLatin1Char('/'))) {
        base.chop(1);
    }
    if (base.startsWith(QStringLiteral("http://"))) {
        base = QStringLiteral("ws://") + base.mid(7);
    } else if (base.startsWith(QStringLiteral("https://"))) {
        base = QStringLiteral("wss://") + base.mid(8);
    }
    return base.endsWith(kRealtimeVideoPath) ? base : base + kRealtimeVideoPath;
}

QString realtimeVideoUrl(const QString& host, int port) {
    return QStringLiteral("ws://%1:%2%3").arg(host).arg(port).arg(kRealtimeVideoPath);
}

QUrl parseRealtimeVideoUrl(const QString& base_url, QString* problem) {
    const auto refuse = [problem](const QString& why) {
        if (problem) {
            *problem = why;
        }
        return QUrl();
    };
    if (base_url.trimmed().isEmpty()) {
        return refuse(QStringLiteral("Enter the server as http://HOST:PORT (or ws://, https://, "
                                     "wss://)."));
    }
    const QUrl url(realtimeVideoUrl(base_url), QUrl::StrictMode);
    const QString scheme = url.scheme();
    if (!url.isValid() || url.host().isEmpty() ||
        (scheme != QLatin1String("ws") && scheme != QLatin1String("wss"))) {
        return refuse(QStringLiteral("Enter the server as http://HOST:PORT (or ws://, https://, "
                                     "wss://)."));
    }
    return url;
}

} // namespace lbm::protocol
