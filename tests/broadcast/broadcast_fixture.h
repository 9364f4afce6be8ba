#pragma once
// Shared by the broadcast tests: simulator sessions through the real engine (the built-in
// simulator serves on 127.0.0.1), the payloads such a session delivered, a small HTTP/1.1
// client that keeps the test's event loop running while it waits, and the playlist checks
// written from RFC 8216bis.

#include "app/broadcast/broadcaster.h"
#include "app/broadcast/hls_segmenter.h"
#include "app/engine/engine_settings.h"
#include "app/engine/session_engine.h"
#include "tests/broadcast/http_client.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <utility>
#include <vector>

namespace lbm::broadcast::test {

// The built-in simulator with the bundled first frame, `chunks` chunks, no pings.
engine::EngineSettings simulatorSettings(int chunks,
                                         const QString& profile = QStringLiteral("fast"));

struct RecordedPayload {
    PayloadInfo info;
    QByteArray bytes;
};
// Every payload (chunks and the trailer) of one 6-chunk simulator session, recorded once per
// test process through the engine's payloadLanded signal.
const std::vector<RecordedPayload>& simulatorPayloads();
// Every payload of one simulator session run with these settings (not decoded).
std::vector<RecordedPayload> recordPayloads(engine::EngineSettings settings, int timeout_ms);
// The frames those payloads' metadata announced.
qint64 announcedFrames(const std::vector<RecordedPayload>& payloads);

// Problems RFC 8216bis would find in a media playlist (empty when none); ended: it must
// carry EXT-X-ENDLIST and no parts.
QStringList playlistProblems(const QByteArray& playlist, bool ended);

// A broadcast of the engine's sessions on 127.0.0.1 (any free port), each session recorded in
// a temporary folder as the window does.
struct LiveBroadcast {
    explicit LiveBroadcast(const BroadcastSettings& settings = {});
    // Starts a session; the engine's recording goes to dir/stream.m4s.
    void start(engine::EngineSettings settings);
    bool waitForFinished(int timeout_ms) { return engine.waitForFinished(timeout_ms); }
    quint16 port() const { return static_cast<quint16>(broadcaster.viewerUrl().port()); }
    // "/TOKEN/" + rest.
    QString path(const QString& rest) const;
    QByteArray recording() const;

    QTemporaryDir dir;
    engine::SessionEngine engine;
    Broadcaster broadcaster;
};

} // namespace lbm::broadcast::test
