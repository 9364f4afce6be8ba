#include "app/report/session_document.h"

#include "app/report/atomic_file.h"
#include "app/report/json_fields.h"
#include "app/report/metrics_json.h"
#include "app/report/python_json.h"
#include "app/report/report_error.h"
#include "metrics/metric_error.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <limits>

namespace lbm::report {
namespace {

QString key(const char* name) {
    return QString::fromLatin1(name);
}

QJsonValue nullable(const std::optional<QString>& value) {
    return value.has_value() ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QJsonValue nullable(const std::optional<double>& value) {
    return value.has_value() ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

int intOr(const JsonFields& fields, const char* name, int fallback) {
    const std::optional<std::int64_t> value = fields.optionalInteger(key(name));
    if (!value.has_value()) {
        return fallback;
    }
    if (*value < std::numeric_limits<int>::min() || *value > std::numeric_limits<int>::max()) {
        throw ReportError(QStringLiteral("The field \"%1\" is out of range: %2.")
                              .arg(fields.path(key(name)))
                              .arg(*value));
    }
    return static_cast<int>(*value);
}

QJsonObject configToJson(const RunConfig& config) {
    return QJsonObject{
        {key("sessions"), config.sessions},
        {key("warmup_sessions"), config.warmup_sessions},
        {key("warmup_chunks"), config.warmup_chunks},
        {key("camera_pattern"), nullable(config.camera_pattern)},
        {key("chunk_slo_ms"), nullable(config.chunk_slo_ms)},
        {key("target_fps"), config.target_fps},
        {key("mux_fps"), config.mux_fps},
        {key("playback_buffer_chunks"), config.playback_buffer_chunks},
        {key("workload_file"), nullable(config.workload_file)},
    };
}

RunConfig configFromJson(const QJsonValue& value, int workload_fps) {
    RunConfig config;
    // The benchmark sends the workload's fps as the mux label and plays back at it unless
    // --target-fps says otherwise, so a file without config still has a basis.
    config.mux_fps = workload_fps;
    config.target_fps = workload_fps;
    if (value.isUndefined() || value.isNull()) {
        return config;
    }
    const JsonFields fields(value, key("config"));
    config.sessions = intOr(fields, "sessions", config.sessions);
    config.warmup_sessions = intOr(fields, "warmup_sessions", config.warmup_sessions);
    config.warmup_chunks = intOr(fields, "warmup_chunks", config.warmup_chunks);
    // null: a scripted rollout (the benchmark's own files always name a pattern).
    if (value.toObject().value(key("camera_pattern")).isNull()) {
        config.camera_pattern.reset();
    } else if (const auto pattern = fields.optionalString(key("camera_pattern"))) {
        config.camera_pattern = pattern;
    }
    config.chunk_slo_ms = fields.optionalNumber(key("chunk_slo_ms"));
    config.mux_fps = intOr(fields, "mux_fps", config.mux_fps);
    // The benchmark's target fps defaults to the fps it sent.
    config.target_fps =
        fields.optionalNumber(key("target_fps")).value_or(static_cast<double>(config.mux_fps));
    config.playback_buffer_chunks =
        intOr(fields, "playback_buffer_chunks", config.playback_buffer_chunks);
    config.workload_file = fields.optionalString(key("workload_file"));
    return config;
}

QJsonObject sessionToJson(const SessionEntry& session) {
    QJsonObject object{
        {key("session_index"), session.session_index},
        {key("request_id"), nullable(session.request_id)},
        {key("video_start_ms"), nullable(session.video_start_ms)},
        {key("chunks"), toJson(session.chunks)},
    };
    if (session.metrics.has_value()) {
        object.insert(key("metrics"), toJson(*session.metrics));
    }
    if (!session.monitor_extras.isEmpty()) {
        object.insert(kMonitorKey, session.monitor_extras);
    }
    return object;
}

SessionEntry sessionFromJson(const QJsonValue& value, int position, QStringList& warnings) {
    const QString where = QStringLiteral("sessions[%1]").arg(position);
    const JsonFields fields(value, where);
    SessionEntry session;
    session.session_index = intOr(fields, "session_index", position);
    session.request_id = fields.optionalString(key("request_id"));
    session.video_start_ms = fields.optionalNumber(key("video_start_ms"));
    session.chunks = chunkRecordsFromJson(fields.value(key("chunks")), fields.path(key("chunks")));
    if (fields.hasValue(key("metrics"))) {
        const JsonFields metrics(fields.value(key("metrics")), fields.path(key("metrics")));
        if (const auto ttfc_ms = metrics.optionalNumber(key("ttfc_ms"))) {
            session.ttfc_s = *ttfc_ms / 1000.0;
        }
        session.wall_s = metrics.optionalNumber(key("wall_seconds"));
        try {
            session.metrics = sessionMetricsFromJson(metrics.object(), metrics.where());
        } catch (const ReportError& error) {
            // Stored metrics are derived from the rows; an incomplete block costs nothing
            // but its own numbers, so keep reading and say so.
            warnings.append(QStringLiteral("%1 is incomplete and was ignored: %2")
                                .arg(metrics.where(), error.message()));
        }
    }
    if (fields.hasValue(kMonitorKey)) {
        session.monitor_extras =
            JsonFields(fields.value(kMonitorKey), fields.path(kMonitorKey)).object();
    }
    return session;
}

QJsonObject monitorToJson(const MonitorSection& monitor) {
    QJsonObject object = monitor.extras;
    object.insert(key("version"), monitor.version);
    object.insert(key("complete"), monitor.complete);
    object.insert(key("incomplete_reason"), monitor.complete
                                                ? QJsonValue(QJsonValue::Null)
                                                : QJsonValue(monitor.incomplete_reason));
    return object;
}

MonitorSection monitorFromJson(const QJsonValue& value) {
    const JsonFields fields(value, kMonitorKey);
    MonitorSection monitor;
    monitor.version = fields.optionalString(key("version")).value_or(QString());
    monitor.complete = fields.optionalBoolean(key("complete")).value_or(true);
    monitor.incomplete_reason = fields.optionalString(key("incomplete_reason")).value_or(QString());
    monitor.extras = fields.object();
    for (const char* own : {"version", "complete", "incomplete_reason"}) {
        monitor.extras.remove(key(own));
    }
    return monitor;
}

QJsonObject workloadFromJson(const QJsonValue& value) {
    const JsonFields fields(value, key("workload"));
    // The fields the report prints; the rest of describe() is carried as it is.
    for (const char* required : {"num_chunks", "num_frames", "width", "height", "fps"}) {
        fields.integer(key(required));
    }
    return fields.object();
}

} // namespace

QJsonObject toJson(const SessionDocument& document) {
    QJsonArray sessions;
    for (const SessionEntry& session : document.sessions) {
        sessions.append(sessionToJson(session));
    }
    QJsonObject object{
        {key("benchmark"), document.benchmark},
        {key("timestamp"), document.timestamp},
        {key("endpoint"), document.endpoint},
        {key("model"), document.model},
        {key("git_revision"), nullable(document.git_revision)},
        {key("hostname"), document.hostname},
        {key("workload"), document.workload},
        {key("config"), configToJson(document.config)},
        {key("sessions"), sessions},
    };
    if (document.metrics.has_value()) {
        object.insert(key("metrics"), toJson(*document.metrics));
    }
    if (document.monitor.has_value()) {
        object.insert(kMonitorKey, monitorToJson(*document.monitor));
    }
    return object;
}

SessionDocument sessionDocumentFromJson(const QJsonObject& object) {
    const JsonFields fields(object, QString());
    SessionDocument document;
    document.benchmark = fields.optionalString(key("benchmark")).value_or(kBenchmarkName);
    document.timestamp = fields.optionalString(key("timestamp")).value_or(QString());
    document.endpoint = fields.optionalString(key("endpoint")).value_or(QString());
    document.model = fields.optionalString(key("model")).value_or(document.model);
    document.git_revision = fields.optionalString(key("git_revision"));
    document.hostname = fields.optionalString(key("hostname")).value_or(QString());
    document.workload = workloadFromJson(fields.value(key("workload")));
    document.config = configFromJson(
        fields.object().value(key("config")),
        static_cast<int>(integerValue(document.workload.value(key("fps")), key("workload.fps"))));

    const QJsonValue sessions = fields.value(key("sessions"));
    if (!sessions.isArray()) {
        throw ReportError(
            wrongTypeMessage(key("sessions"), QStringLiteral("a list of sessions"), sessions));
    }
    const QJsonArray entries = sessions.toArray();
    for (qsizetype i = 0; i < entries.size(); ++i) {
        document.sessions.push_back(
            sessionFromJson(entries.at(i), static_cast<int>(i), document.read_warnings));
    }

    if (fields.hasValue(key("metrics"))) {
        try {
            document.metrics =
                aggregateMetricsFromJson(fields.value(key("metrics")), key("metrics"));
        } catch (const ReportError& error) {
            document.read_warnings.append(
                QStringLiteral("metrics is incomplete and was ignored: %1").arg(error.message()));
        }
    }
    if (fields.hasValue(kMonitorKey)) {
        document.monitor = monitorFromJson(fields.value(kMonitorKey));
    }
    return document;
}

void writeSessionDocument(const SessionDocument& document, const QString& path) {
    QByteArray bytes = toPythonJson(toJson(document), 2);
    bytes.append('\n');
    writeFileAtomically(path, bytes);
}

SessionDocument readSessionDocument(const QString& path) {
    QFile file(path);
    if (!file.exists()) {
        throw ReportError(QStringLiteral("%1 does not exist. Give the path of a session document "
                                         "written by lingbot-monitor or the benchmark's "
                                         "--output-json.")
                              .arg(path));
    }
    if (!file.open(QIODevice::ReadOnly)) {
        throw ReportError(QStringLiteral("Cannot read %1: %2.").arg(path, file.errorString()));
    }
    QJsonParseError error{};
    const QJsonDocument json = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError) {
        throw ReportError(QStringLiteral("%1 is not valid JSON: %2 at byte %3. Is it a session "
                                         "document?")
                              .arg(path, error.errorString())
                              .arg(error.offset));
    }
    if (!json.isObject()) {
        throw ReportError(QStringLiteral("%1 is not a session document: it must hold a JSON "
                                         "object with \"workload\" and \"sessions\".")
                              .arg(path));
    }
    try {
        return sessionDocumentFromJson(json.object());
    } catch (const ReportError& field_error) {
        throw ReportError(QStringLiteral("%1: %2").arg(path, field_error.message()));
    }
}

QString isoTimestampUtc(const QDateTime& time) {
    const QDateTime utc = time.toUTC();
    // isoformat() leaves the fraction out when it is zero.
    if (utc.time().msec() == 0) {
        return utc.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss+00:00"));
    }
    return utc.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz000+00:00"));
}

std::optional<std::vector<double>> readReplayIntervals(const QString& path, QString* error) {
    try {
        const SessionDocument document = readSessionDocument(path);
        std::vector<double> intervals_ms;
        if (!document.sessions.empty()) {
            for (const lbm::ChunkRecord& chunk : document.sessions.front().chunks) {
                intervals_ms.push_back(chunk.interArrivalMs());
            }
        }
        return intervals_ms;
    } catch (const ReportError& failure) {
        *error = failure.message();
    } catch (const lbm::MetricError& failure) {
        *error = QString::fromUtf8(failure.what());
    }
    return std::nullopt;
}

lbm::MetricsOptions metricsOptionsFor(const RunConfig& config, const SessionEntry& session) {
    lbm::MetricsOptions options;
    options.fps = config.target_fps;
    options.warmup_chunks = config.warmup_chunks;
    options.slo_ms = config.chunk_slo_ms;
    options.playback_buffer_chunks = config.playback_buffer_chunks;
    options.ttfc_s = session.ttfc_s;
    options.session_wall_s = session.wall_s;
    return options;
}

} // namespace lbm::report
