// BroadcastServer's routes: what each path under /<token>/ answers (the viewer page, the feed,
// the playlists and the media), and when a request is held instead.
#include "app/broadcast/broadcast_server.h"
#include "app/broadcast/viewer_connection.h"
#include "app/broadcast/viewer_files.h"

#include <QRegularExpression>

namespace lbm::broadcast {
namespace {

const QByteArray kImmutable = "public, max-age=31536000, immutable";
// Playlists change with every part: a cache in front (shared: s-maxage) may keep one for a
// second at most, and a browser's own cache not at all: a player that reloads without
// blocking (hls.js does after a blocking reload it gave up on) must see the newest parts, not
// the playlist it had a moment ago.
const QByteArray kPlaylistCache = "public, max-age=0, s-maxage=1";
// A blocking reload's answer holds the part it was asked for, whenever it is asked again.
const QByteArray kBlockingPlaylistCache = "public, max-age=60";
const QByteArray kPlaylistType = "application/vnd.apple.mpegurl";

HttpResponse notFound(const QString& why) {
    HttpResponse response;
    response.status = 404;
    response.body = why.toUtf8() + '\n';
    return response;
}

HttpResponse unavailable(const QString& why) {
    HttpResponse response;
    response.status = 503;
    response.body = why.toUtf8() + '\n';
    response.addHeader("Retry-After", "1");
    return response;
}

} // namespace

bool BroadcastServer::route(ViewerConnection* connection, const QString& rest,
                            const HttpRequest& request, bool timed_out) {
    noteViewer(connection);
    if (rest.startsWith(QLatin1Char('s')) && rest.contains(QLatin1Char('/'))) {
        return routeSession(connection, rest, request, timed_out);
    }
    if (rest == QStringLiteral("events")) {
        startFeed(connection);
        return true;
    }
    if (rest == QStringLiteral("state.json")) {
        HttpResponse response;
        response.content_type = "application/json";
        response.body = m_feed_state.isEmpty() ? QByteArray("{}") : m_feed_state;
        send(connection, response);
        return true;
    }
    if (rest == QStringLiteral("live.m3u8")) {
        send(connection, multivariantPlaylist());
        return true;
    }
    if (const auto file = viewerFile(rest.isEmpty() ? QStringLiteral("index.html") : rest)) {
        HttpResponse response;
        response.content_type = file->content_type;
        response.body = file->bytes;
        response.cache_control = "no-cache";
        // The page runs only its own scripts (hls.js's worker from a blob) and never sends the
        // token anywhere else.
        response.addHeader("Content-Security-Policy",
                           "default-src 'self'; media-src 'self' blob:; worker-src 'self' blob:; "
                           "img-src 'self' data:; style-src 'self'; connect-src 'self'");
        response.addHeader("Referrer-Policy", "no-referrer");
        send(connection, response);
        return true;
    }
    refuse(connection, 404, QStringLiteral("Not found: %1").arg(rest));
    return true;
}

bool BroadcastServer::routeSession(ViewerConnection* connection, const QString& rest,
                                   const HttpRequest& request, bool timed_out) {
    static const QRegularExpression kSessionPath(QStringLiteral(
        R"(^s(\d+)/(live\.m3u8|start\.json|init\.mp4|seg(\d+)\.m4s|part(\d+)\.(\d+)\.m4s)$)"));
    const QRegularExpressionMatch match = kSessionPath.match(rest);
    if (!match.hasMatch()) {
        refuse(connection, 404, QStringLiteral("Not found: %1").arg(rest));
        return true;
    }
    if (match.captured(1).toLongLong() != m_epoch || !m_segmenter) {
        send(connection,
             notFound(QStringLiteral("That session's broadcast is over; reload the page for the "
                                     "current one.")));
        return true;
    }
    const LlHlsPlaylist& playlist = m_segmenter->playlist();
    const QString object = match.captured(2);
    if (object == QStringLiteral("live.m3u8")) {
        bool has_msn = false;
        const qint64 msn =
            request.query.queryItemValue(QStringLiteral("_HLS_msn")).toLongLong(&has_msn);
        bool has_part = false;
        const qint64 part =
            request.query.queryItemValue(QStringLiteral("_HLS_part")).toLongLong(&has_part);
        if (has_part && !has_msn) {
            refuse(connection, 400, QStringLiteral("_HLS_part needs _HLS_msn (RFC 8216bis)"));
            return true;
        }
        if (!m_segmenter->ready() && !playlist.ended()) {
            if (!timed_out) {
                return false;
            }
            send(connection, unavailable(QStringLiteral("No picture has arrived yet.")));
            return true;
        }
        if (has_msn && playlist.tooFarAhead(msn)) {
            refuse(connection, 400,
                   QStringLiteral("_HLS_msn=%1 is more than two segments past the live edge")
                       .arg(msn));
            return true;
        }
        if (has_msn &&
            !playlist.satisfies(msn, has_part ? std::optional<qint64>(part) : std::nullopt)) {
            if (!timed_out) {
                return false;
            }
            HttpResponse response = mediaPlaylist(false);
            response.cache_control = "no-store"; // not what was asked for: never cache it
            send(connection, response);
            return true;
        }
        send(connection, mediaPlaylist(has_msn));
        return true;
    }
    if (object == QStringLiteral("start.json")) {
        send(connection, startPosition());
        return true;
    }
    if (object == QStringLiteral("init.mp4")) {
        if (!m_segmenter->splitter().hasInit()) {
            if (!timed_out && !playlist.ended()) {
                return false;
            }
            send(connection, unavailable(QStringLiteral("No picture has arrived yet.")));
            return true;
        }
        HttpResponse response = mediaBytes(m_segmenter->initRange());
        response.content_type = "video/mp4";
        send(connection, response);
        return true;
    }
    const bool is_part = !match.captured(4).isEmpty();
    const qint64 msn = (is_part ? match.captured(4) : match.captured(3)).toLongLong();
    const qint64 part_index = is_part ? match.captured(5).toLongLong() : -1;
    const HlsSegment* segment = playlist.segment(msn);
    const HlsPart* part = is_part ? playlist.part(msn, part_index) : nullptr;
    if ((is_part && part) || (!is_part && segment && segment->complete)) {
        send(connection, mediaBytes(is_part ? part->bytes : segment->bytes()));
        return true;
    }
    // Not there yet: the preload hint's part (or a segment about to be) is held until it
    // lands, as LL-HLS players expect; anything further ahead does not exist.
    const qint64 last = playlist.segments().empty() ? -1 : playlist.segments().back().sequence;
    if (!playlist.ended() && msn <= last + 1 && !timed_out) {
        return false;
    }
    send(connection, timed_out ? unavailable(QStringLiteral("Not published yet."))
                               : notFound(QStringLiteral("Not found: %1").arg(rest)));
    return true;
}

HttpResponse BroadcastServer::mediaPlaylist(bool blocking) const {
    HttpResponse response;
    response.content_type = kPlaylistType;
    response.cache_control = blocking ? kBlockingPlaylistCache : kPlaylistCache;
    response.body = m_segmenter->playlist().render();
    return response;
}

HttpResponse BroadcastServer::startPosition() const {
    // Where a player joining now can show a picture: the newest keyframe (the viewer page
    // loads from there and then seeks to the live edge inside what it has buffered).
    double live_edge_s = 0.0;
    for (const HlsSegment& segment : m_segmenter->playlist().segments()) {
        live_edge_s += segment.durationS();
    }
    HttpResponse response;
    response.content_type = "application/json";
    // ended: the session is over and the playlist is video on demand (start at its beginning).
    response.body =
        QStringLiteral(R"({"keyframe_s":%1,"live_edge_s":%2,"ended":%3})")
            .arg(m_segmenter->newestKeyframeS(), 0, 'f', 5)
            .arg(live_edge_s, 0, 'f', 5)
            .arg(m_segmenter->playlist().ended() ? QStringLiteral("true") : QStringLiteral("false"))
            .toUtf8();
    return response;
}

HttpResponse BroadcastServer::multivariantPlaylist() const {
    if (!m_segmenter || (!m_segmenter->ready() && !m_segmenter->playlist().ended())) {
        HttpResponse response = unavailable(QStringLiteral("No session is on the air yet."));
        response.cache_control = "no-store";
        return response;
    }
    const Fmp4FragmentSplitter& splitter = m_segmenter->splitter();
    const double seconds = std::max(1e-3, m_segmenter->playlist().segments().front().durationS());
    const qint64 bandwidth = static_cast<qint64>(
        static_cast<double>(m_segmenter->playlist().segments().front().bytes().size_bytes * 8) /
        seconds);
    QString text = QStringLiteral("#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-STREAM-INF:BANDWIDTH=%1")
                       .arg(std::max<qint64>(bandwidth, 1));
    if (!splitter.codecs().isEmpty()) {
        text += QStringLiteral(",CODECS=\"%1\"").arg(splitter.codecs());
    }
    if (splitter.width() > 0 && splitter.height() > 0) {
        text += QStringLiteral(",RESOLUTION=%1x%2").arg(splitter.width()).arg(splitter.height());
    }
    text += QStringLiteral("\ns%1/live.m3u8\n").arg(m_epoch);
    HttpResponse response;
    response.content_type = kPlaylistType;
    response.cache_control = kPlaylistCache;
    response.body = text.toUtf8();
    return response;
}

HttpResponse BroadcastServer::mediaBytes(const ByteRange& range) const {
    QString error;
    const auto bytes = m_store->read(range, &error);
    if (!bytes) {
        HttpResponse response = notFound(error);
        response.status = 500;
        return response;
    }
    HttpResponse response;
    response.content_type = "video/iso.segment";
    response.cache_control = kImmutable;
    response.body = *bytes;
    return response;
}

void BroadcastServer::startFeed(ViewerConnection* connection) {
    connection->startEventStream();
    QByteArray replay = "retry: 2000\n\n";
    for (const QByteArray& event : m_feed_history) {
        replay += event;
    }
    if (!m_feed_state.isEmpty()) {
        replay += "event: state\ndata: " + m_feed_state + "\n\n";
    }
    if (connection->sendStreamBytes(replay)) {
        m_feeds.emplace_back(connection);
    }
}

} // namespace lbm::broadcast
