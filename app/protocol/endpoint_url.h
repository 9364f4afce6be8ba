#pragma once
// Where the realtime video endpoint lives and how a user's server address becomes its URL:
// the one place the path and the benchmark's --base-url rule are written down, for `bench`,
// the window's form and the built-in simulator alike.

#include <QString>
#include <QUrl>

namespace lbm::protocol {

// WS /v1/realtime/video on the server's HTTP port.
inline const QString kRealtimeVideoPath = QStringLiteral("/v1/realtime/video");

// The benchmark's --base-url rule: trailing slashes dropped, http:// becomes ws:// and
// https:// wss://, and the path appended unless the address already ends with it.
QString realtimeVideoUrl(const QString& base_url);
// ws://HOST:PORT/v1/realtime/video (the benchmark's --host/--port).
QString realtimeVideoUrl(const QString& host, int port);

// realtimeVideoUrl(base_url) as a QUrl, or an invalid QUrl with *problem saying what is
// wrong and how to write it (not ws(s)/http(s), no host).
QUrl parseRealtimeVideoUrl(const QString& base_url, QString* problem = nullptr);

} // namespace lbm::protocol
