#include "app/report/metrics_json.h"

#include "app/report/json_fields.h"
#include "app/report/report_error.h"

#include <limits>

namespace lbm::report {
namespace {

QString key(const char* name) {
    return QString::fromLatin1(name);
}

QJsonValue optionalJson(const std::optional<double>& value) {
    return value.has_value() ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

int narrowInt(std::int64_t value, const QString& path) {
    if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
        throw ReportError(
            QStringLiteral("The field \"%1\" is out of range: %2.").arg(path).arg(value));
    }
    return static_cast<int>(value);
}

int intField(const JsonFields& fields, const char* name) {
    return narrowInt(fields.integer(key(name)), fields.path(key(name)));
}

} // namespace

QJsonObject toJson(const lbm::ChunkRecord& record) {
    return QJsonObject{
        {key("index"), static_cast<qint64>(record.index)},
        {key("arrival_s"), record.arrival_s},
        {key("inter_arrival_ms"), record.interArrivalMs()},
        {key("byte_length"), static_cast<qint64>(record.byte_length)},
        {key("num_frames"), record.num_frames},
    };
}

QJsonArray toJson(const std::vector<lbm::ChunkRecord>& records) {
    QJsonArray rows;
    for (const lbm::ChunkRecord& record : records) {
        rows.append(toJson(record));
    }
    return rows;
}

QJsonObject toJson(const lbm::LatencySummary& summary) {
    return QJsonObject{
        {key("count"), summary.count},         {key("mean_ms"), summary.mean_ms},
        {key("median_ms"), summary.median_ms}, {key("std_ms"), summary.std_ms},
        {key("min_ms"), summary.min_ms},       {key("p90_ms"), summary.p90_ms},
        {key("p95_ms"), summary.p95_ms},       {key("p99_ms"), summary.p99_ms},
        {key("max_ms"), summary.max_ms},
    };
}

QJsonObject toJson(const std::optional<lbm::LatencySummary>& summary) {
    return summary.has_value() ? toJson(*summary) : QJsonObject();
}

QJsonObject toJson(const lbm::PlaybackResult& playback) {
    return QJsonObject{
        {key("underrun_count"), playback.underrun_count},
        {key("total_stall_ms"), playback.totalStallMs()},
        {key("playback_span_s"), playback.playback_span_s},
        {key("stall_ratio"), playback.stallRatio()},
        {key("first_underrun_chunk"),
         playback.first_underrun_chunk.has_value()
             ? QJsonValue(static_cast<qint64>(*playback.first_underrun_chunk))
             : QJsonValue(QJsonValue::Null)},
    };
}

QJsonObject toJson(const lbm::SessionMetrics& metrics) {
    QJsonObject playback = toJson(metrics.playback);
    playback.insert(key("buffer_chunks"), metrics.playback_buffer_chunks);
    QJsonObject object{
        {key("chunks_received"), metrics.chunks_received},
        {key("warmup_chunks"), metrics.warmup_chunks},
        {key("steady_chunks"), metrics.steady_chunks},
        {key("steady_state_reached"), metrics.steady_state_reached},
        {key("total_frames"), static_cast<qint64>(metrics.total_frames)},
        {key("total_bytes"), static_cast<qint64>(metrics.total_bytes)},
        {key("video_seconds"), metrics.video_seconds},
        {key("wall_seconds"), metrics.wall_seconds},
        {key("video_rtf"), metrics.video_rtf},
        {key("video_rtfx"), metrics.video_rtfx},
        {key("frames_per_second"), metrics.frames_per_second},
        {key("chunk_deadline_ms"), metrics.chunk_deadline_ms},
        {key("interval_all"), toJson(metrics.interval_all)},
        {key("interval_steady"), toJson(metrics.interval_steady)},
        {key("playback"), playback},
    };
    if (metrics.ttfc_ms.has_value()) {
        object.insert(key("ttfc_ms"), *metrics.ttfc_ms);
    }
    if (metrics.steady_video_rtf.has_value()) {
        object.insert(key("steady_video_rtf"), *metrics.steady_video_rtf);
    }
    if (metrics.steady_video_rtfx.has_value()) {
        object.insert(key("steady_video_rtfx"), *metrics.steady_video_rtfx);
    }
    if (metrics.slo_attainment.has_value()) {
        object.insert(key("slo_attainment"), *metrics.slo_attainment);
    }
    if (metrics.slo_violations.has_value()) {
        object.insert(key("slo_violations"), *metrics.slo_violations);
    }
    return object;
}

QJsonObject toJson(const lbm::AggregateMetrics& metrics) {
    if (metrics.single_session.has_value()) {
        QJsonObject object = toJson(*metrics.single_session);
        object.insert(key("sessions"), 1);
        return object;
    }
    return QJsonObject{
        {key("sessions"), metrics.sessions},
        {key("chunks_received"), metrics.chunks_received},
        {key("total_frames"), static_cast<qint64>(metrics.total_frames)},
        {key("video_seconds"), metrics.video_seconds},
        {key("wall_seconds"), metrics.wall_seconds},
        {key("video_rtf_mean"), metrics.video_rtf_mean},
        {key("video_rtf_best"), metrics.video_rtf_best},
        {key("video_rtf_worst"), metrics.video_rtf_worst},
        {key("ttfc_ms_mean"), optionalJson(metrics.ttfc_ms_mean)},
        {key("ttfc_ms_max"), optionalJson(metrics.ttfc_ms_max)},
        {key("steady_interval_ms_mean"), optionalJson(metrics.steady_interval_ms_mean)},
        {key("steady_interval_ms_spread"), optionalJson(metrics.steady_interval_ms_spread)},
        {key("underrun_count"), metrics.underrun_count},
        {key("chunk_deadline_ms"), metrics.chunk_deadline_ms},
    };
}

lbm::ChunkRecord chunkRecordFromJson(const QJsonValue& value, const QString& where) {
    const JsonFields fields(value, where);
    lbm::ChunkRecord record;
    record.index = fields.integer(key("index"));
    record.arrival_s = fields.number(key("arrival_s"));
    record.inter_arrival_s = fields.number(key("inter_arrival_ms")) / 1000.0;
    record.byte_length = fields.integer(key("byte_length"));
    record.num_frames = intField(fields, "num_frames");
    return record;
}

std::vector<lbm::ChunkRecord> chunkRecordsFromJson(const QJsonValue& value, const QString& where) {
    if (!value.isArray()) {
        throw ReportError(wrongTypeMessage(where, QStringLiteral("a list of chunk rows"), value));
    }
    const QJsonArray rows = value.toArray();
    std::vector<lbm::ChunkRecord> records;
    records.reserve(static_cast<std::size_t>(rows.size()));
    for (qsizetype i = 0; i < rows.size(); ++i) {
        records.push_back(chunkRecordFromJson(rows.at(i), where + QStringLiteral("[%1]").arg(i)));
    }
    return records;
}

std::optional<lbm::LatencySummary> latencySummaryFromJson(const QJsonValue& value,
                                                          const QString& where) {
    const JsonFields fields(value, where);
    if (fields.object().isEmpty()) {
        return std::nullopt;
    }
    lbm::LatencySummary summary;
    summary.count = fields.number(key("count"));
    summary.mean_ms = fields.number(key("mean_ms"));
    summary.median_ms = fields.number(key("median_ms"));
    summary.std_ms = fields.number(key("std_ms"));
    summary.min_ms = fields.number(key("min_ms"));
    summary.p90_ms = fields.number(key("p90_ms"));
    summary.p95_ms = fields.number(key("p95_ms"));
    summary.p99_ms = fields.number(key("p99_ms"));
    summary.max_ms = fields.number(key("max_ms"));
    return summary;
}

lbm::PlaybackResult playbackResultFromJson(const QJsonValue& value, const QString& where) {
    const JsonFields fields(value, where);
    lbm::PlaybackResult playback;
    playback.underrun_count = intField(fields, "underrun_count");
    playback.total_stall_s = fields.number(key("total_stall_ms")) / 1000.0;
    playback.playback_span_s = fields.number(key("playback_span_s"));
    // Required (the seed always writes it), null when there was no underrun.
    fields.value(key("first_underrun_chunk"));
    playback.first_underrun_chunk = fields.optionalInteger(key("first_underrun_chunk"));
    return playback;
}

lbm::SessionMetrics sessionMetricsFromJson(const QJsonValue& value, const QString& where) {
    const JsonFields fields(value, where);
    lbm::SessionMetrics metrics;
    metrics.chunks_received = intField(fields, "chunks_received");
    metrics.warmup_chunks = intField(fields, "warmup_chunks");
    metrics.steady_chunks = intField(fields, "steady_chunks");
    metrics.steady_state_reached = fields.boolean(key("steady_state_reached"));
    metrics.total_frames = fields.integer(key("total_frames"));
    metrics.total_bytes = fields.integer(key("total_bytes"));
    metrics.video_seconds = fields.number(key("video_seconds"));
    metrics.wall_seconds = fields.number(key("wall_seconds"));
    metrics.video_rtf = fields.number(key("video_rtf"));
    metrics.video_rtfx = fields.number(key("video_rtfx"));
    metrics.frames_per_second = fields.number(key("frames_per_second"));
    metrics.chunk_deadline_ms = fields.number(key("chunk_deadline_ms"));
    metrics.interval_all =
        latencySummaryFromJson(fields.value(key("interval_all")), fields.path(key("interval_all")));
    metrics.interval_steady = latencySummaryFromJson(fields.value(key("interval_steady")),
                                                     fields.path(key("interval_steady")));
    metrics.ttfc_ms = fields.optionalNumber(key("ttfc_ms"));
    metrics.steady_video_rtf = fields.optionalNumber(key("steady_video_rtf"));
    metrics.steady_video_rtfx = fields.optionalNumber(key("steady_video_rtfx"));
    metrics.slo_attainment = fields.optionalNumber(key("slo_attainment"));
    if (const auto violations = fields.optionalInteger(key("slo_violations"))) {
        metrics.slo_violations = narrowInt(*violations, fields.path(key("slo_violations")));
    }
    const QJsonValue playback = fields.value(key("playback"));
    metrics.playback = playbackResultFromJson(playback, fields.path(key("playback")));
    const JsonFields playback_fields(playback, fields.path(key("playback")));
    metrics.playback_buffer_chunks = intField(playback_fields, "buffer_chunks");
    return metrics;
}

lbm::AggregateMetrics aggregateMetricsFromJson(const QJsonValue& value, const QString& where) {
    const JsonFields fields(value, where);
    lbm::AggregateMetrics metrics;
    const std::optional<std::int64_t> sessions = fields.optionalInteger(key("sessions"));
    const bool single = sessions.value_or(1) == 1 && fields.has(key("interval_all"));
    if (single || sessions == 1) {
        metrics.sessions = 1;
        metrics.single_session = sessionMetricsFromJson(value, where);
        return metrics;
    }
    metrics.sessions = intField(fields, "sessions");
    metrics.chunks_received = intField(fields, "chunks_received");
    metrics.total_frames = fields.integer(key("total_frames"));
    metrics.video_seconds = fields.number(key("video_seconds"));
    metrics.wall_seconds = fields.number(key("wall_seconds"));
    metrics.video_rtf_mean = fields.number(key("video_rtf_mean"));
    metrics.video_rtf_best = fields.number(key("video_rtf_best"));
    metrics.video_rtf_worst = fields.number(key("video_rtf_worst"));
    metrics.ttfc_ms_mean = fields.optionalNumber(key("ttfc_ms_mean"));
    metrics.ttfc_ms_max = fields.optionalNumber(key("ttfc_ms_max"));
    metrics.steady_interval_ms_mean = fields.optionalNumber(key("steady_interval_ms_mean"));
    metrics.steady_interval_ms_spread = fields.optionalNumber(key("steady_interval_ms_spread"));
    metrics.underrun_count = intField(fields, "underrun_count");
    metrics.chunk_deadline_ms = fields.number(key("chunk_deadline_ms"));
    return metrics;
}

} // namespace lbm::report
