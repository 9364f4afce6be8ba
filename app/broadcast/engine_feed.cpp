#include "app/broadcast/engine_feed.h"

#include "app/engine/session_engine.h"
#include "app/session/session_notes.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace lbm::broadcast {
namespace {

FeedEvent makeEvent(const char* name, const QJsonObject& object, FeedEvent::Keep keep) {
    return FeedEvent{name, QJsonDocument(object).toJson(QJsonDocument::Compact), keep};
}

QString chunks(qint64 count) {
    return count == 1 ? QStringLiteral("1 chunk") : QStringLiteral("%1 chunks").arg(count);
}

QString seconds(double value) {
    return QStringLiteral("%1 s").arg(value, 0, 'f', value < 10.0 ? 2 : 1);
}

QJsonValue optionalMs(std::optional<double> value) {
    return value ? QJsonValue(*value) : QJsonValue();
}

} // namespace

QString sessionStateText(const engine::SessionEngine& engine) {
    using session::SessionState;
    const LiveSessionMetrics& live = engine.liveMetrics();
    const qint64 received = live.chunkCount();
    switch (engine.state()) {
    case SessionState::Idle:
        return QStringLiteral("waiting for a session");
    case SessionState::Connecting:
        return QStringLiteral("connecting…");
    case SessionState::Stopping:
        return QStringLiteral("stopping…");
    case SessionState::Finished: {
        const auto& result = engine.result();
        if (result && result->ok) {
            return QStringLiteral("finished: %1").arg(chunks(received));
        }
        if (result && result->stop_requested) {
            return QStringLiteral("stopped after %1").arg(chunks(received));
        }
        return QStringLiteral("FAILED after %1: %2")
            .arg(chunks(received), result ? session::failureForPeople(*result) : QString());
    }
    case SessionState::Streaming:
        break;
    }
    const auto waited = engine.secondsSinceLastChunk();
    const qint64 awaited = live.empty() ? 0 : live.records().back().index + 1;
    const double deadline_s = live.deadlineMs() / 1000.0;
    if (waited && awaited > 0 && *waited > deadline_s) {
        return QStringLiteral("STALLED · waiting for chunk %1 — %2 (deadline %3)")
            .arg(awaited)
            .arg(seconds(*waited), seconds(deadline_s));
    }
    return QStringLiteral("streaming chunk %1/%2")
        .arg(received)
        .arg(engine.settings().session.workload.numChunks());
}

FeedEvent sessionFeedEvent(const engine::SessionEngine& engine, qint64 epoch) {
    QJsonObject object;
    object[QStringLiteral("session")] = epoch;
    object[QStringLiteral("playlist")] = QStringLiteral("s%1/live.m3u8").arg(epoch);
    object[QStringLiteral("chunks_expected")] = engine.settings().session.workload.numChunks();
    object[QStringLiteral("deadline_ms")] = engine.liveMetrics().deadlineMs();
    object[QStringLiteral("target_fps")] = engine.settings().metrics.fps;
    object[QStringLiteral("mux_fps")] = engine.settings().session.workload.fps;
    object[QStringLiteral("warmup_chunks")] = engine.settings().metrics.warmup_chunks;
    object[QStringLiteral("endpoint")] = engine.endpointText();
    return makeEvent("session", object, FeedEvent::Keep::History);
}

FeedEvent chunkFeedEvent(const engine::SessionEngine& engine, const ChunkRecord& record,
                         double stall_ms) {
    QJsonObject object;
    object[QStringLiteral("i")] = static_cast<qint64>(record.index);
    object[QStringLiteral("arrival_s")] = record.arrival_s;
    object[QStringLiteral("inter_arrival_ms")] = record.interArrivalMs();
    object[QStringLiteral("late")] =
        record.index > 0 && record.interArrivalMs() > engine.liveMetrics().deadlineMs();
    object[QStringLiteral("frames")] = record.num_frames;
    object[QStringLiteral("bytes")] = static_cast<qint64>(record.byte_length);
    object[QStringLiteral("stall_ms")] = stall_ms;
    return makeEvent("chunk", object, FeedEvent::Keep::History);
}

FeedEvent interactionFeedEvent(const session::InteractionRecord& record, double t_s) {
    QJsonObject object;
    object[QStringLiteral("id")] = record.event_id;
    object[QStringLiteral("kind")] =
        record.isPrompt() ? QStringLiteral("prompt") : QStringLiteral("camera");
    object[QStringLiteral("summary")] = record.summary;
    object[QStringLiteral("state")] = session::interactionStateName(record.state());
    object[QStringLiteral("t_s")] = t_s;
    if (record.started_chunk) {
        object[QStringLiteral("started_chunk")] = *record.started_chunk;
    }
    if (record.completed_chunk) {
        object[QStringLiteral("completed_chunk")] = *record.completed_chunk;
    }
    object[QStringLiteral("progress")] = record.describeProgress();
    return makeEvent("interaction", object, FeedEvent::Keep::History);
}

FeedEvent stateFeedEvent(const engine::SessionEngine& engine, int viewers) {
    const LiveSessionMetrics& live = engine.liveMetrics();
    QJsonObject object;
    object[QStringLiteral("state")] = session::sessionStateName(engine.state());
    object[QStringLiteral("text")] = sessionStateText(engine);
    object[QStringLiteral("stalled")] =
        sessionStateText(engine).startsWith(QStringLiteral("STALLED"));
    object[QStringLiteral("chunks")] = live.chunkCount();
    object[QStringLiteral("chunks_expected")] = engine.settings().session.workload.numChunks();
    object[QStringLiteral("deadline_ms")] = live.deadlineMs();
    object[QStringLiteral("late")] = live.lateChunkCount();
    const auto playback = live.simulatedPlayback();
    const auto provisional = live.provisionalUnderrun(engine.sessionNowS());
    object[QStringLiteral("underruns")] =
        (playback ? playback->underrun_count : 0) + (provisional ? 1 : 0);
    object[QStringLiteral("underrun_in_progress")] = provisional.has_value();
    object[QStringLiteral("stall_ms")] = playback ? playback->totalStallMs() : 0.0;
    object[QStringLiteral("p50_ms")] = optionalMs(live.intervalPercentileMs(0.50));
    object[QStringLiteral("p95_ms")] = optionalMs(live.intervalPercentileMs(0.95));
    object[QStringLiteral("p99_ms")] = optionalMs(live.intervalPercentileMs(0.99));
    object[QStringLiteral("ttfc_ms")] =
        live.empty() ? QJsonValue() : QJsonValue(live.records().front().arrival_s * 1000.0);
    object[QStringLiteral("frames")] = static_cast<qint64>(live.totalFrames());
    object[QStringLiteral("session_s")] = engine.sessionNowS();
    const auto since = engine.secondsSinceLastChunk();
    object[QStringLiteral("since_last_chunk_s")] = since ? QJsonValue(*since) : QJsonValue();
    object[QStringLiteral("viewers")] = viewers;
    return makeEvent("state", object, FeedEvent::Keep::LatestState);
}

} // namespace lbm::broadcast
