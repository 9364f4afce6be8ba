#pragma once
// The viewer page's feed, read from the session engine: the same numbers the window shows
// (chunk latencies against the deadline, the simulated underruns, the late count, the
// percentiles, prompt and camera interactions, the session's state in the window's words),
// as small JSON events. Built on the engine's thread from its public accessors.

#include "app/broadcast/feed_event.h"
#include "app/session/interaction_timeline.h"
#include "metrics/chunk_record.h"

namespace lbm::engine {
class SessionEngine;
}

namespace lbm::broadcast {

// A new session: its playlist path (s<epoch>/live.m3u8), the chunks it will have, the deadline.
FeedEvent sessionFeedEvent(const engine::SessionEngine& engine, qint64 epoch);
// One media chunk landed (stall_ms: the simulated viewer's stall it ended).
FeedEvent chunkFeedEvent(const engine::SessionEngine& engine, const ChunkRecord& record,
                         double stall_ms);
// An interaction changed (sent, queued, started, completed, failed, ...).
FeedEvent interactionFeedEvent(const session::InteractionRecord& record, double t_s);
// The state line and the counters, now.
FeedEvent stateFeedEvent(const engine::SessionEngine& engine, int viewers);
// "streaming chunk 5/16", "STALLED · waiting for chunk 6 — 2.4 s (deadline 0.75 s)",
// "finished: 16 chunks": the window's words for the engine's state now.
QString sessionStateText(const engine::SessionEngine& engine);

} // namespace lbm::broadcast
