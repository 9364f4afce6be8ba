#pragma once
// The seed's dictionaries as Qt JSON, both ways: ChunkRecord.to_dict() rows, the latency
// summary, PlaybackResult.to_dict(), compute_metrics() and aggregate_metrics() results.
// toJson writes exactly the keys the seed writes (absent stays absent; the multi-session
// aggregate writes null where the seed has None) and keeps the seed's int/float split
// ("count": 34.0 is a float, "chunks_received": 35 an integer). fromJson reads the same
// forms and throws ReportError naming the field ("sessions[0].metrics.video_rtf is
// missing") when one is missing or has the wrong type; unknown keys are ignored.

#include "metrics/chunk_record.h"
#include "metrics/latency_summary.h"
#include "metrics/playback_result.h"
#include "metrics/session_metrics.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>
#include <vector>

namespace lbm::report {

// {index, arrival_s, inter_arrival_ms, byte_length, num_frames}.
QJsonObject toJson(const lbm::ChunkRecord& record);
QJsonArray toJson(const std::vector<lbm::ChunkRecord>& records);
// The nine summary keys; {} for nullopt (the seed's empty summary).
QJsonObject toJson(const lbm::LatencySummary& summary);
QJsonObject toJson(const std::optional<lbm::LatencySummary>& summary);
// PlaybackResult.to_dict(): underrun_count, total_stall_ms, playback_span_s, stall_ratio,
// first_underrun_chunk (null when none). SessionMetrics adds buffer_chunks.
QJsonObject toJson(const lbm::PlaybackResult& playback);
// compute_metrics(): optional keys (ttfc_ms, steady_*, slo_*) only when set.
QJsonObject toJson(const lbm::SessionMetrics& metrics);
// aggregate_metrics(): one session = that session's metrics plus "sessions": 1; several =
// the pooled keys with ttfc_ms_* and steady_interval_ms_* written as null when absent.
QJsonObject toJson(const lbm::AggregateMetrics& metrics);

// `where` names the value in error messages, e.g. "sessions[0].chunks[3]".
// A row's interval is inter_arrival_ms / 1000 (the row carries no seconds form).
lbm::ChunkRecord chunkRecordFromJson(const QJsonValue& value, const QString& where);
std::vector<lbm::ChunkRecord> chunkRecordsFromJson(const QJsonValue& value, const QString& where);
// {} reads as nullopt.
std::optional<lbm::LatencySummary> latencySummaryFromJson(const QJsonValue& value,
                                                          const QString& where);
// total_stall_s = total_stall_ms / 1000; stall_ratio is derived, so it is not read back.
lbm::PlaybackResult playbackResultFromJson(const QJsonValue& value, const QString& where);
lbm::SessionMetrics sessionMetricsFromJson(const QJsonValue& value, const QString& where);
// "sessions": 1 (or absent with per-session keys present) reads as single_session.
lbm::AggregateMetrics aggregateMetricsFromJson(const QJsonValue& value, const QString& where);

} // namespace lbm::report
