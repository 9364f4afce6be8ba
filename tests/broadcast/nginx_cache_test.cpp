// Scale past one machine by design: every broadcast object is a cacheable file, so a standard
// HTTP cache in front (here Debian's nginx as a reverse proxy cache, configured as
// docs/broadcast.md shows) serves many viewers from one origin request. Segments are cached;
// playlists never outlive their one-second s-maxage (the shared caches' max-age); blocking reloads
// pass through.
#include "tests/broadcast/broadcast_fixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>

#include <catch2/catch.hpp>

using namespace lbm::broadcast;
using namespace lbm::broadcast::test;

namespace {

quint16 freePort() {
    QTcpServer probe;
    REQUIRE(probe.listen(QHostAddress::LocalHost, 0));
    return probe.serverPort();
}

// The proxy configuration docs/broadcast.md recommends, in a scratch prefix.
QByteArray nginxConfig(const QString& prefix, quint16 port, quint16 origin) {
    return QStringLiteral(R"(daemon off;
master_process off;
pid %1/nginx.pid;
error_log %1/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path %1/client; proxy_temp_path %1/proxy; fastcgi_temp_path %1/fastcgi;
  uwsgi_temp_path %1/uwsgi; scgi_temp_path %1/scgi;
  proxy_cache_path %1/cache levels=1:2 keys_zone=lbm:10m max_size=1g inactive=1h use_temp_path=off;
  server {
    listen 127.0.0.1:%2;
    location / {
      proxy_pass http://127.0.0.1:%3;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_cache lbm;
      proxy_cache_key $scheme$proxy_host$request_uri;
      proxy_cache_lock on;
      proxy_cache_lock_timeout 15s;
      proxy_read_timeout 30s;
      add_header X-Cache-Status $upstream_cache_status always;
    }
    location ~ /events$ {
      proxy_pass http://127.0.0.1:%3;
      proxy_http_version 1.1;
      proxy_buffering off;
      proxy_read_timeout 1h;
    }
  }
}
)")
        .arg(prefix)
        .arg(port)
        .arg(origin)
        .toUtf8();
}

} // namespace

TEST_CASE("nginx in front caches segments and keeps playlists no older than their max-age",
          "[broadcast][paced]") {
    const QString nginx = QStandardPaths::findExecutable(
        QStringLiteral("nginx"), {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin")});
    INFO("nginx not found: apt-get install nginx (scripts/quickstart.sh does)");
    REQUIRE_FALSE(nginx.isEmpty());

    LiveBroadcast live;
    const quint16 proxy_port = freePort();
    QFile config(live.dir.filePath(QStringLiteral("nginx.conf")));
    REQUIRE(config.open(QIODevice::WriteOnly));
    config.write(nginxConfig(live.dir.path(), proxy_port, live.port()));
    config.close();
    QProcess proxy;
    proxy.setProcessChannelMode(QProcess::MergedChannels);
    proxy.start(nginx, {QStringLiteral("-e"), QStringLiteral("stderr"), QStringLiteral("-p"),
                        live.dir.path(), QStringLiteral("-c"), config.fileName()});
    REQUIRE(proxy.waitForStarted(10'000));
    struct Stop {
        QProcess& process;
        ~Stop() {
            process.terminate();
            if (!process.waitForFinished(5000)) {
                process.kill();
                process.waitForFinished(5000);
            }
        }
    } stop{proxy};
    const auto viaProxy = [&](const QString& rest) { return httpGet(proxy_port, live.path(rest)); };
    REQUIRE(waitUntil([&] { return viaProxy(QString()).status == 200; }, 10'000));

    live.start(simulatorSettings(12, QStringLiteral("fixed:0.3:0.3")));
    REQUIRE(waitUntil(
        [&] { return viaProxy(QStringLiteral("s1/live.m3u8")).body.count("#EXTINF:") >= 2; },
        30'000));

    // A segment: fetched from the origin once, then served by the cache.
    const HttpReply first = viaProxy(QStringLiteral("s1/seg0.m4s"));
    const HttpReply second = viaProxy(QStringLiteral("s1/seg0.m4s"));
    CHECK(first.status == 200);
    CHECK(first.headers.value("x-cache-status") == "MISS");
    CHECK(second.headers.value("x-cache-status") == "HIT");
    CHECK(second.body == first.body);

    // The playlist: cached, but not past its s-maxage of one second (polled, not slept).
    QElapsedTimer since_fetch;
    HttpReply playlist = viaProxy(QStringLiteral("s1/live.m3u8"));
    since_fetch.start();
    const QByteArray fetched_status = playlist.headers.value("x-cache-status");
    CHECK((fetched_status == "MISS" || fetched_status == "EXPIRED" || fetched_status == "HIT"));
    qint64 fresh_again_ms = -1;
    QByteArrayList seen; // the cache statuses, for the failure message
    waitUntil(
        [&] {
            const HttpReply again = viaProxy(QStringLiteral("s1/live.m3u8"));
            seen << again.headers.value("x-cache-status") + ' ' + QByteArray::number(again.status);

            if (again.headers.value("x-cache-status") != "HIT") {
                fresh_again_ms = since_fetch.elapsed();
                return true;
            }
            return false;
        },
        5000);
    INFO(seen.join(", ").toStdString());
    REQUIRE(fresh_again_ms >= 0);
    // s-maxage=1 on nginx's whole-second clock (an entry made at 12.9 s on its clock's 12 is
    // fresh through 13 s, so up to two seconds), plus the origin's answer and a poll.
    CHECK(fresh_again_ms <= 2000 + 300);

    // A blocking reload passes through and is answered when its part lands.
    const QRegularExpressionMatch hint =
        QRegularExpression(
            QStringLiteral("PRELOAD-HINT:TYPE=PART,URI=\"part(\\d+)\\.(\\d+)\\.m4s\""))
            .match(QString::fromUtf8(viaProxy(QStringLiteral("s1/live.m3u8")).body));
    if (hint.hasMatch()) {
        const HttpReply blocked = viaProxy(QStringLiteral("s1/live.m3u8?_HLS_msn=%1&_HLS_part=%2")
                                               .arg(hint.captured(1), hint.captured(2)));
        CHECK(blocked.status == 200);
        CHECK(blocked.body.contains(
            QStringLiteral("part%1.%2.m4s\"").arg(hint.captured(1), hint.captured(2)).toUtf8()));
    }

    REQUIRE(live.waitForFinished(60'000));
    REQUIRE(live.engine.result()->ok);
    HttpReply final_playlist;
    REQUIRE(waitUntil(
        [&] {
            final_playlist = viaProxy(QStringLiteral("s1/live.m3u8"));
            return final_playlist.body.contains("#EXT-X-ENDLIST");
        },
        10'000));
    CHECK(playlistProblems(final_playlist.body, true).isEmpty());
    CHECK(final_playlist.body.count("#EXTINF:") == 12);
    INFO(QString::fromUtf8(proxy.readAll()).toStdString());
    CHECK(proxy.state() == QProcess::Running);
}
