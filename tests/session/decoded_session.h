#pragma once
// One whole session through the same path the window uses: every chunk recorded to disk and
// pushed into the incremental decoder, then the recording remuxed to MP4. Shared by the tests
// that check a session's stream end to end (scripted server and simulator alike).

#include "app/media/remux.h"
#include "app/session/interaction_timeline.h"
#include "app/session/session_client.h"
#include "app/session/session_options.h"
#include "app/session/session_result.h"

#include <QList>

#include <functional>

namespace lbm::session {

struct DecodedSession {
    SessionResult result;
    InteractionTimeline timeline;
    // The frame number each decoded frame carries in its barcode (-1 where unreadable), in
    // presentation order.
    QList<qint64> barcodes;
    qint64 frames_decoded = 0;
    // Every chunk's bytes reached the recording.
    bool recorded_every_chunk = true;
    media::RemuxResult remux;
};

// Runs `options` (whose url names a server on 127.0.0.1) until the session finishes or
// `timeout_ms` passes; `on_chunk` sees each chunk after it was recorded and decoded.
DecodedSession
runDecodedSession(const SessionOptions& options, int timeout_ms,
                  const std::function<void(SessionClient&, const ChunkEvent&)>& on_chunk = {});

// The frames the session's media chunks announced.
qint64 announcedFrames(const SessionResult& result);

} // namespace lbm::session
