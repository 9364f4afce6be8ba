// The broadcast's HTTP server on 127.0.0.1 against a live simulator session: the token on
// every request, cache headers for a CDN, blocking playlist reloads and preload-hinted parts,
// and viewers that misbehave, none of which may change anything in the session.
#include "tests/broadcast/broadcast_fixture.h"

#include <QRegularExpression>
#include <QTcpSocket>

#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace lbm::broadcast;
using namespace lbm::broadcast::test;

namespace {

qint64 payloadBytes(const lbm::engine::SessionEngine& engine) {
    return engine.result() ? engine.result()->media_bytes + engine.result()->trailer_bytes : -1;
}

} // namespace

TEST_CASE("requests without the token, or with a wrong one, get a 404 and nothing else",
          "[broadcast]") {
    LiveBroadcast live;
    live.start(simulatorSettings(6));
    const QString token = QString::fromLatin1(live.broadcaster.token());
    CHECK(token.size() == 32); // 128 bits in hex
    const QString wrong = QString(token).replace(
        0, 1, token[0] == QLatin1Char('a') ? QStringLiteral("b") : QStringLiteral("a"));
    int refused = 0;
    for (const QString& path :
         {QStringLiteral("/"), QStringLiteral("/live.m3u8"), QStringLiteral("/events"),
          QStringLiteral("/s1/seg0.m4s"), QStringLiteral("/%1/").arg(wrong),
          QStringLiteral("/%1/s1/init.mp4").arg(wrong),
          QStringLiteral("/%1/").arg(token.left(31))}) {
        const HttpReply reply = httpGet(live.port(), path);
        INFO(path.toStdString());
        CHECK(reply.status == 404);
        CHECK_FALSE(reply.body.contains(token.toLatin1()));
        CHECK(reply.body.contains("ask the presenter"));
        ++refused;
    }
    REQUIRE(live.waitForFinished(60'000));
    CHECK(live.engine.result()->ok);
    CHECK(live.recording().size() == payloadBytes(live.engine));
    REQUIRE(waitUntil([&] { return live.broadcaster.stats().refused_requests >= refused; }, 5000));
}

TEST_CASE("playlists are cacheable for a second, media for good, the page always revalidated",
          "[broadcast]") {
    LiveBroadcast live;
    live.start(simulatorSettings(6));
    REQUIRE(live.waitForFinished(60'000));
    REQUIRE(live.engine.result()->ok);
    const QByteArray stream = live.recording();

    const HttpReply page = httpGet(live.port(), live.path(QString()));
    CHECK(page.status == 200);
    CHECK(page.headers.value("content-type").startsWith("text/html"));
    CHECK(page.headers.value("cache-control") == "no-cache");
    CHECK(page.headers.value("content-security-policy").contains("default-src 'self'"));
    CHECK(page.headers.value("referrer-policy") == "no-referrer");
    CHECK(page.body.contains("hls.min.js"));
    const HttpReply hls_js = httpGet(live.port(), live.path(QStringLiteral("hls.min.js")));
    CHECK(hls_js.status == 200);
    CHECK(hls_js.body.size() > 100'000);
    CHECK(httpGet(live.port(), live.path(QStringLiteral("hls.js-LICENSE.txt")))
              .body.contains("Apache License"));

    // Waits until the server has seen the session's end (it runs on its own thread).
    HttpReply media;
    REQUIRE(waitUntil(
        [&] {
            media = httpGet(live.port(), live.path(QStringLiteral("s1/live.m3u8")));
            return media.body.contains("#EXT-X-ENDLIST");
        },
        5000));
    CHECK(media.headers.value("content-type") == "application/vnd.apple.mpegurl");
    CHECK(media.headers.value("cache-control") == "public, max-age=0, s-maxage=1");
    INFO(media.body.toStdString());
    CHECK(playlistProblems(media.body, true).isEmpty());
    CHECK(media.body.count("#EXTINF:") == 6);

    const HttpReply multivariant = httpGet(live.port(), live.path(QStringLiteral("live.m3u8")));
    CHECK(multivariant.status == 200);
    CHECK(multivariant.headers.value("cache-control") == "public, max-age=0, s-maxage=1");
    CHECK(multivariant.body.contains("RESOLUTION=832x480"));
    CHECK(multivariant.body.contains("CODECS=\"avc1."));
    CHECK(multivariant.body.contains("s1/live.m3u8"));

    const HttpReply init = httpGet(live.port(), live.path(QStringLiteral("s1/init.mp4")));
    CHECK(init.status == 200);
    CHECK(init.headers.value("cache-control") == "public, max-age=31536000, immutable");
    CHECK(stream.startsWith(init.body));
    CHECK(init.body.contains("moov"));
    // Every segment is the recording's bytes, in order, after the init segment.
    QByteArray rebuilt = init.body;
    for (int i = 0; i < 6; ++i) {
        const HttpReply segment =
            httpGet(live.port(), live.path(QStringLiteral("s1/seg%1.m4s").arg(i)));
        INFO("segment " << i);
        CHECK(segment.status == 200);
        CHECK(segment.headers.value("cache-control") == "public, max-age=31536000, immutable");
        CHECK(segment.body.mid(4, 4) == "moof");
        rebuilt += segment.body;
    }
    CHECK(stream.startsWith(rebuilt));
    CHECK(httpGet(live.port(), live.path(QStringLiteral("s1/part2.1.m4s"))).status == 200);
    CHECK(httpGet(live.port(), live.path(QStringLiteral("s1/seg40.m4s"))).status == 404);
    CHECK(httpGet(live.port(), live.path(QStringLiteral("s2/seg0.m4s"))).status == 404);
    CHECK(httpGet(live.port(), live.path(QStringLiteral("nothing.txt"))).status == 404);
    const HttpReply start = httpGet(live.port(), live.path(QStringLiteral("s1/start.json")));
    CHECK(start.body.startsWith("{\"keyframe_s\":0.00000,"));
    CHECK(start.body.contains("\"ended\":true")); // the viewer page plays it from the start
}

TEST_CASE("a blocking reload and a preload-hinted part are held until they exist",
          "[broadcast][paced]") {
    LiveBroadcast live;
    // About 0.4 s between chunks: slow enough to ask for a part before it exists.
    live.start(simulatorSettings(12, QStringLiteral("fixed:0.3:0.4")));
    HttpReply playlist;
    REQUIRE(waitUntil(
        [&] {
            playlist = httpGet(live.port(), live.path(QStringLiteral("s1/live.m3u8")), 2000);
            return playlist.body.contains("#EXTINF:");
        },
        30'000));
    INFO(playlist.body.toStdString());
    CHECK(playlistProblems(playlist.body, false).isEmpty());
    const QRegularExpressionMatch hint =
        QRegularExpression(
            QStringLiteral("PRELOAD-HINT:TYPE=PART,URI=\"part(\\d+)\\.(\\d+)\\.m4s\""))
            .match(QString::fromUtf8(playlist.body));
    REQUIRE(hint.hasMatch());
    const qint64 msn = hint.captured(1).toLongLong();
    const qint64 part = hint.captured(2).toLongLong();
    // Further ahead than the next segment plus two: refused at once.
    CHECK(httpGet(live.port(), live.path(QStringLiteral("s1/live.m3u8?_HLS_msn=%1").arg(msn + 3)))
              .status == 400);
    CHECK(httpGet(live.port(), live.path(QStringLiteral("s1/live.m3u8?_HLS_part=1"))).status ==
          400);
    const int chunks_before = live.engine.liveMetrics().chunkCount();

    const HttpReply blocked = httpGet(
        live.port(),
        live.path(QStringLiteral("s1/live.m3u8?_HLS_msn=%1&_HLS_part=%2").arg(msn).arg(part)));
    CHECK(blocked.status == 200);
    CHECK(blocked.headers.value("cache-control") == "public, max-age=60");
    const QString part_uri = QStringLiteral("part%1.%2.m4s").arg(msn).arg(part);
    CHECK(QString::fromUtf8(blocked.body).contains(part_uri + QLatin1Char('"')));
    CHECK_FALSE(
        QString::fromUtf8(playlist.body).contains(QStringLiteral("URI=\"%1\",").arg(part_uri)));
    // It was answered because a chunk landed, not before.
    CHECK(live.engine.liveMetrics().chunkCount() > chunks_before);

    // The next hinted part itself: held, then its bytes.
    const QRegularExpressionMatch next_hint =
        QRegularExpression(QStringLiteral("PRELOAD-HINT:TYPE=PART,URI=\"(part\\d+\\.\\d+\\.m4s)\""))
            .match(QString::fromUtf8(blocked.body));
    REQUIRE(next_hint.hasMatch());
    const int chunks_at_hint = live.engine.liveMetrics().chunkCount();
    const HttpReply hinted =
        httpGet(live.port(), live.path(QStringLiteral("s1/") + next_hint.captured(1)));
    CHECK(hinted.status == 200);
    CHECK(hinted.body.mid(4, 4) == "moof");
    CHECK(live.engine.liveMetrics().chunkCount() > chunks_at_hint);

    REQUIRE(live.waitForFinished(60'000));
    CHECK(live.engine.result()->ok);
}

TEST_CASE("slow and hostile viewers are dropped and change nothing in the session", "[broadcast]") {
    BroadcastSettings settings;
    // A few segments: the simulated world's 0.75 s segments are 250-300 KB (about 3 Mb/s, as
    // real 832x480 video), so a viewer reading normally stays under it and the silent one,
    // asking for 200 segments, goes over at once.
    settings.limits.max_pending_bytes = 1024 * 1024;
    settings.limits.stalled_write_timeout_ms = 1000;
    settings.limits.head_timeout_ms = 1000;
    settings.max_connections_per_address = 4;
    LiveBroadcast live(settings);
    live.start(simulatorSettings(10, QStringLiteral("fixed:0.2:0.25")));
    REQUIRE(waitUntil(
        [&] {
            return httpGet(live.port(), live.path(QStringLiteral("s1/live.m3u8")), 2000)
                .body.contains("#EXTINF:");
        },
        30'000));

    // A viewer that asks for a lot and reads nothing (a tiny receive buffer, never read).
    const int silent = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(silent >= 0);
    const int small = 4096;
    ::setsockopt(silent, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(live.port());
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(silent, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    QByteArray requests;
    for (int i = 0; i < 200; ++i) {
        requests += "GET " + live.path(QStringLiteral("s1/seg0.m4s")).toUtf8() +
                    " HTTP/1.1\r\nHost: x\r\n\r\n";
    }
    REQUIRE(::write(silent, requests.constData(), static_cast<size_t>(requests.size())) ==
            requests.size());

    // One whose request head never ends (slowloris), one that leaves mid-segment.
    QTcpSocket trickle;
    trickle.connectToHost(QStringLiteral("127.0.0.1"), live.port());
    REQUIRE(trickle.waitForConnected(5000));
    trickle.write("GET /" + live.broadcaster.token() + "/ HTTP/1.1\r\nHost: x\r\n");
    QTcpSocket leaver;
    leaver.connectToHost(QStringLiteral("127.0.0.1"), live.port());
    REQUIRE(leaver.waitForConnected(5000));
    leaver.write("GET " + live.path(QStringLiteral("s1/seg1.m4s")).toUtf8() +
                 " HTTP/1.1\r\nHost: x\r\n\r\n");
    REQUIRE(waitUntil([&] { return leaver.bytesAvailable() > 0; }, 5000));
    leaver.read(100);
    leaver.abort();

    REQUIRE(waitUntil([&] { return live.broadcaster.stats().dropped_viewers >= 2; }, 10'000));
    CHECK(waitUntil([&] { return trickle.state() == QAbstractSocket::UnconnectedState; }, 5000));
    ::close(silent);

    // Over the per-address limit: 503 at once, the others still served.
    std::vector<std::unique_ptr<QTcpSocket>> held;
    for (int i = 0; i < 4; ++i) {
        held.push_back(std::make_unique<QTcpSocket>());
        held.back()->connectToHost(QStringLiteral("127.0.0.1"), live.port());
        REQUIRE(held.back()->waitForConnected(5000));
    }
    REQUIRE(waitUntil([&] { return live.broadcaster.stats().connections >= 4; }, 5000));
    const HttpReply over = httpGet(live.port(), live.path(QStringLiteral("s1/live.m3u8")));
    CHECK(over.status == 503);
    CHECK(over.body.contains("Too many connections"));
    held.clear();

    REQUIRE(live.waitForFinished(60'000));
    const auto& result = *live.engine.result();
    CHECK(result.ok);
    CHECK(result.records.size() == 10);
    CHECK(live.recording().size() == payloadBytes(live.engine));
    CHECK(live.engine.recordingError().isEmpty());
    // A well-behaved viewer still gets the whole session.
    HttpReply final_playlist;
    REQUIRE(waitUntil(
        [&] {
            final_playlist = httpGet(live.port(), live.path(QStringLiteral("s1/live.m3u8")));
            return final_playlist.body.contains("#EXT-X-ENDLIST");
        },
        5000));
    CHECK(final_playlist.body.count("#EXTINF:") == 10);
}
