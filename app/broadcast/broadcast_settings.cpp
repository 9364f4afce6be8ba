#include "app/broadcast/broadcast_settings.h"

namespace lbm::broadcast {

std::optional<std::pair<QHostAddress, quint16>> parseListenAddress(const QString& text,
                                                                   QString* error) {
    QString host = QStringLiteral("127.0.0.1");
    QString port_text = text.trimmed();
    const qsizetype colon = port_text.lastIndexOf(QLatin1Char(':'));
    if (colon >= 0) {
        host = port_text.left(colon);
        port_text = port_text.mid(colon + 1);
        if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']'))) {
            host = host.mid(1, host.size() - 2);
        }
    }
    bool ok = false;
    const uint port = port_text.toUInt(&ok);
    if (!ok || port > 65535) {
        *error = QStringLiteral("'%1' is not [ADDR:]PORT: the port must be a number from 0 to "
                                "65535 (0 picks a free one), e.g. 8080 or 0.0.0.0:8080")
                     .arg(text);
        return std::nullopt;
    }
    QHostAddress address;
    if (host == QStringLiteral("localhost")) {
        address = QHostAddress::LocalHost;
    } else if (!address.setAddress(host)) {
        *error = QStringLiteral("'%1' is not an IP address to listen on: give one of this "
                                "machine's addresses (0.0.0.0 for all), e.g. 0.0.0.0:%2")
                     .arg(host)
                     .arg(port);
        return std::nullopt;
    }
    return std::make_pair(address, static_cast<quint16>(port));
}

} // namespace lbm::broadcast
