#pragma once
// One whole session through the session engine, as the window and `bench` run it: every
// chunk recorded to disk and decoded by the engine, every decoded frame's barcode read by a
// frame consumer, then the recording remuxed to MP4. Shared by the tests that check a
// session's stream end to end (scripted server and simulator alike).

#include "app/engine/engine_settings.h"
#include "app/engine/session_engine.h"
#include "app/media/remux.h"
#include "app/session/interaction_timeline.h"
#include "app/session/session_result.h"

#include <QList>

#include <functional>

namespace lbm::engine {

struct DecodedSession {
    session::SessionResult result;
    session::InteractionTimeline timeline;
    // The frame number each decoded frame carries in its barcode (-1 where unreadable), in
    // presentation order.
    QList<qint64> barcodes;
    qint64 frames_decoded = 0;
    // Every chunk's bytes reached the recording.
    bool recorded_every_chunk = true;
    media::RemuxResult remux;
};

// Settings for a session against url (a server on 127.0.0.1): the bundled first frame,
// `chunks` chunks, no pings, short timeouts.
EngineSettings testSettings(const QUrl& url, int chunks);

// Runs settings until the session and its decoding finish or timeout_ms passes; on_chunk
// sees each media chunk after it was recorded, handed to the decoder and measured.
DecodedSession
runDecodedSession(const EngineSettings& settings, int timeout_ms,
                  const std::function<void(SessionEngine&, const ChunkRecord&)>& on_chunk = {});

// The frames the session's media chunks announced.
qint64 announcedFrames(const session::SessionResult& result);

} // namespace lbm::engine
