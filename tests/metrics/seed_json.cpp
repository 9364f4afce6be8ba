#include "tests/metrics/seed_json.h"

#include "metrics/metric_error.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lbm::test {
namespace {

QJsonObject loadSeedCases() {
    const QString path = QStringLiteral(LBM_TEST_DATA_DIR "/golden/seed_cases.json");
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        FAIL("cannot open " << toStd(path));
    }
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        FAIL("invalid JSON in " << toStd(path) << ": " << toStd(error.errorString()));
    }
    return document.object();
}

QJsonValue optionalNumber(const std::optional<double>& value) {
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

std::optional<double> optionalDouble(const QJsonValue& value) {
    if (value.isUndefined() || value.isNull()) {
        return std::nullopt;
    }
    return value.toDouble();
}

std::string describe(const QJsonValue& value) {
    switch (value.type()) {
    case QJsonValue::Null:
        return "null";
    case QJsonValue::Bool:
        return value.toBool() ? "true" : "false";
    case QJsonValue::Double: {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.17g", value.toDouble());
        return buffer;
    }
    case QJsonValue::String:
        return '"' + toStd(value.toString()) + '"';
    case QJsonValue::Array:
        return "array";
    case QJsonValue::Object:
        return "object";
    case QJsonValue::Undefined:
        break;
    }
    return "undefined";
}

bool isIntegral(double value) {
    return std::isfinite(value) && std::floor(value) == value && std::fabs(value) < 9.0e15;
}

} // namespace

std::string toStd(const QString& text) {
    return text.toStdString();
}

const QJsonObject& seedCases() {
    static const QJsonObject cases = loadSeedCases();
    return cases;
}

QJsonArray seedGroup(const char* group) {
    const QJsonValue value = seedCases().value(QString::fromUtf8(group));
    REQUIRE(value.isArray());
    return value.toArray();
}

std::vector<ChunkRecord> recordsFromSeed(const QJsonArray& rows) {
    std::vector<ChunkRecord> records;
    for (const QJsonValue& row : rows) {
        const QJsonObject object = row.toObject();
        ChunkRecord record;
        record.index = object.value(QStringLiteral("index")).toInteger();
        record.arrival_s = object.value(QStringLiteral("arrival_s")).toDouble();
        record.inter_arrival_s = object.value(QStringLiteral("inter_arrival_s")).toDouble();
        record.byte_length = object.value(QStringLiteral("byte_length")).toInteger();
        record.num_frames = object.value(QStringLiteral("num_frames")).toInt();
        records.push_back(record);
    }
    return records;
}

MetricsOptions optionsFromSeed(const QJsonObject& kwargs) {
    MetricsOptions options;
    options.fps = kwargs.value(QStringLiteral("fps")).toDouble();
    const QJsonValue warmup = kwargs.value(QStringLiteral("warmup_chunks"));
    if (!warmup.isNull() && !warmup.isUndefined()) {
        options.warmup_chunks = warmup.toInt();
    }
    const QJsonValue buffer = kwargs.value(QStringLiteral("playback_buffer_chunks"));
    if (!buffer.isNull() && !buffer.isUndefined()) {
        options.playback_buffer_chunks = buffer.toInt();
    }
    options.slo_ms = optionalDouble(kwargs.value(QStringLiteral("slo_ms")));
    options.ttfc_s = optionalDouble(kwargs.value(QStringLiteral("ttfc_s")));
    options.session_wall_s = optionalDouble(kwargs.value(QStringLiteral("session_wall_s")));
    return options;
}

namespace {

std::optional<LatencySummary> summaryFromSeed(const QJsonValue& value) {
    const QJsonObject object = value.toObject();
    if (object.isEmpty()) {
        return std::nullopt;
    }
    const auto field = [&object](const char* key) {
        return object.value(QString::fromUtf8(key)).toDouble();
    };
    LatencySummary summary;
    summary.count = field("count");
    summary.mean_ms = field("mean_ms");
    summary.median_ms = field("median_ms");
    summary.std_ms = field("std_ms");
    summary.min_ms = field("min_ms");
    summary.p90_ms = field("p90_ms");
    summary.p95_ms = field("p95_ms");
    summary.p99_ms = field("p99_ms");
    summary.max_ms = field("max_ms");
    return summary;
}

} // namespace

SessionMetrics sessionFromSeed(const QJsonObject& m) {
    const auto number = [&m](const char* key) { return m.value(QString::fromUtf8(key)); };
    SessionMetrics s;
    s.chunks_received = number("chunks_received").toInt();
    s.warmup_chunks = number("warmup_chunks").toInt();
    s.steady_chunks = number("steady_chunks").toInt();
    s.steady_state_reached = number("steady_state_reached").toBool();
    s.total_frames = number("total_frames").toInteger();
    s.total_bytes = number("total_bytes").toInteger();
    s.video_seconds = number("video_seconds").toDouble();
    s.wall_seconds = number("wall_seconds").toDouble();
    s.video_rtf = number("video_rtf").toDouble();
    s.video_rtfx = number("video_rtfx").toDouble();
    s.frames_per_second = number("frames_per_second").toDouble();
    s.chunk_deadline_ms = number("chunk_deadline_ms").toDouble();
    s.interval_all = summaryFromSeed(number("interval_all"));
    s.interval_steady = summaryFromSeed(number("interval_steady"));
    s.ttfc_ms = optionalDouble(number("ttfc_ms"));
    s.steady_video_rtf = optionalDouble(number("steady_video_rtf"));
    s.steady_video_rtfx = optionalDouble(number("steady_video_rtfx"));
    s.slo_attainment = optionalDouble(number("slo_attainment"));
    if (m.contains(QStringLiteral("slo_violations"))) {
        s.slo_violations = number("slo_violations").toInt();
    }
    const QJsonObject playback = number("playback").toObject();
    s.playback.underrun_count = playback.value(QStringLiteral("underrun_count")).toInt();
    s.playback.total_stall_s = playback.value(QStringLiteral("total_stall_ms")).toDouble() / 1000.0;
    s.playback.playback_span_s = playback.value(QStringLiteral("playback_span_s")).toDouble();
    const QJsonValue first = playback.value(QStringLiteral("first_underrun_chunk"));
    if (!first.isNull()) {
        s.playback.first_underrun_chunk = first.toInteger();
    }
    s.playback_buffer_chunks = playback.value(QStringLiteral("buffer_chunks")).toInt();
    return s;
}

QJsonObject toSeedJson(const PlaybackResult& result) {
    QJsonObject object;
    object.insert(QStringLiteral("underrun_count"), result.underrun_count);
    object.insert(QStringLiteral("total_stall_ms"), result.totalStallMs());
    object.insert(QStringLiteral("playback_span_s"), result.playback_span_s);
    object.insert(QStringLiteral("stall_ratio"), result.stallRatio());
    object.insert(QStringLiteral("first_underrun_chunk"),
                  result.first_underrun_chunk
                      ? QJsonValue(static_cast<qint64>(*result.first_underrun_chunk))
                      : QJsonValue(QJsonValue::Null));
    return object;
}

QJsonObject toSeedJson(const std::optional<LatencySummary>& summary) {
    QJsonObject object;
    if (!summary) {
        return object;
    }
    object.insert(QStringLiteral("count"), summary->count);
    object.insert(QStringLiteral("mean_ms"), summary->mean_ms);
    object.insert(QStringLiteral("median_ms"), summary->median_ms);
    object.insert(QStringLiteral("std_ms"), summary->std_ms);
    object.insert(QStringLiteral("min_ms"), summary->min_ms);
    object.insert(QStringLiteral("p90_ms"), summary->p90_ms);
    object.insert(QStringLiteral("p95_ms"), summary->p95_ms);
    object.insert(QStringLiteral("p99_ms"), summary->p99_ms);
    object.insert(QStringLiteral("max_ms"), summary->max_ms);
    return object;
}

QJsonObject toSeedJson(const SessionMetrics& m) {
    QJsonObject object;
    object.insert(QStringLiteral("chunks_received"), m.chunks_received);
    object.insert(QStringLiteral("warmup_chunks"), m.warmup_chunks);
    object.insert(QStringLiteral("steady_chunks"), m.steady_chunks);
    object.insert(QStringLiteral("steady_state_reached"), m.steady_state_reached);
    object.insert(QStringLiteral("total_frames"), static_cast<qint64>(m.total_frames));
    object.insert(QStringLiteral("total_bytes"), static_cast<qint64>(m.total_bytes));
    object.insert(QStringLiteral("video_seconds"), m.video_seconds);
    object.insert(QStringLiteral("wall_seconds"), m.wall_seconds);
    object.insert(QStringLiteral("video_rtf"), m.video_rtf);
    object.insert(QStringLiteral("video_rtfx"), m.video_rtfx);
    object.insert(QStringLiteral("frames_per_second"), m.frames_per_second);
    object.insert(QStringLiteral("chunk_deadline_ms"), m.chunk_deadline_ms);
    object.insert(QStringLiteral("interval_all"), toSeedJson(m.interval_all));
    object.insert(QStringLiteral("interval_steady"), toSeedJson(m.interval_steady));
    if (m.ttfc_ms) {
        object.insert(QStringLiteral("ttfc_ms"), *m.ttfc_ms);
    }
    if (m.steady_video_rtf) {
        object.insert(QStringLiteral("steady_video_rtf"), *m.steady_video_rtf);
    }
    if (m.steady_video_rtfx) {
        object.insert(QStringLiteral("steady_video_rtfx"), *m.steady_video_rtfx);
    }
    if (m.slo_attainment) {
        object.insert(QStringLiteral("slo_attainment"), *m.slo_attainment);
    }
    if (m.slo_violations) {
        object.insert(QStringLiteral("slo_violations"), *m.slo_violations);
    }
    QJsonObject playback = toSeedJson(m.playback);
    playback.insert(QStringLiteral("buffer_chunks"), m.playback_buffer_chunks);
    object.insert(QStringLiteral("playback"), playback);
    return object;
}

QJsonObject toSeedJson(const AggregateMetrics& a) {
    if (a.single_session) {
        QJsonObject single = toSeedJson(*a.single_session);
        single.insert(QStringLiteral("sessions"), a.sessions);
        return single;
    }
    QJsonObject object;
    object.insert(QStringLiteral("sessions"), a.sessions);
    object.insert(QStringLiteral("chunks_received"), a.chunks_received);
    object.insert(QStringLiteral("total_frames"), static_cast<qint64>(a.total_frames));
    object.insert(QStringLiteral("video_seconds"), a.video_seconds);
    object.insert(QStringLiteral("wall_seconds"), a.wall_seconds);
    object.insert(QStringLiteral("video_rtf_mean"), a.video_rtf_mean);
    object.insert(QStringLiteral("video_rtf_best"), a.video_rtf_best);
    object.insert(QStringLiteral("video_rtf_worst"), a.video_rtf_worst);
    object.insert(QStringLiteral("ttfc_ms_mean"), optionalNumber(a.ttfc_ms_mean));
    object.insert(QStringLiteral("ttfc_ms_max"), optionalNumber(a.ttfc_ms_max));
    object.insert(QStringLiteral("steady_interval_ms_mean"),
                  optionalNumber(a.steady_interval_ms_mean));
    object.insert(QStringLiteral("steady_interval_ms_spread"),
                  optionalNumber(a.steady_interval_ms_spread));
    object.insert(QStringLiteral("underrun_count"), a.underrun_count);
    object.insert(QStringLiteral("chunk_deadline_ms"), a.chunk_deadline_ms);
    return object;
}

std::vector<std::string> seedDifferences(const QJsonValue& expected, const QJsonValue& actual,
                                         const std::string& path) {
    std::vector<std::string> differences;
    const auto differ = [&](const std::string& why) {
        differences.push_back(path + ": " + why + " (seed " + describe(expected) + ", ours " +
                              describe(actual) + ")");
    };
    if (expected.type() != actual.type()) {
        differ("different JSON types");
        return differences;
    }
    switch (expected.type()) {
    case QJsonValue::Object: {
        const QJsonObject want = expected.toObject();
        const QJsonObject got = actual.toObject();
        for (auto it = want.begin(); it != want.end(); ++it) {
            const std::string key_path = path + "." + toStd(it.key());
            if (!got.contains(it.key())) {
                differences.push_back(key_path + ": missing in ours");
                continue;
            }
            auto nested = seedDifferences(it.value(), got.value(it.key()), key_path);
            differences.insert(differences.end(), nested.begin(), nested.end());
        }
        for (auto it = got.begin(); it != got.end(); ++it) {
            if (!want.contains(it.key())) {
                differences.push_back(path + "." + toStd(it.key()) + ": absent in the seed");
            }
        }
        break;
    }
    case QJsonValue::Array: {
        const QJsonArray want = expected.toArray();
        const QJsonArray got = actual.toArray();
        if (want.size() != got.size()) {
            differ("different lengths " + std::to_string(want.size()) + " and " +
                   std::to_string(got.size()));
            break;
        }
        for (qsizetype i = 0; i < want.size(); ++i) {
            auto nested =
                seedDifferences(want.at(i), got.at(i), path + "[" + std::to_string(i) + "]");
            differences.insert(differences.end(), nested.begin(), nested.end());
        }
        break;
    }
    case QJsonValue::Double: {
        const double want = expected.toDouble();
        const double got = actual.toDouble();
        if (isIntegral(want)) {
            if (want != got) {
                differ("integral value differs");
            }
        } else if (std::fabs(want - got) > 1e-9 * std::max(std::fabs(want), std::fabs(got))) {
            differ("beyond 1e-9 relative");
        }
        break;
    }
    case QJsonValue::String:
        if (expected.toString() != actual.toString()) {
            differ("strings differ");
        }
        break;
    case QJsonValue::Bool:
        if (expected.toBool() != actual.toBool()) {
            differ("booleans differ");
        }
        break;
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        break;
    }
    return differences;
}

std::optional<std::string> metricErrorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const MetricError& error) {
        return std::string(error.what());
    }
    return std::nullopt;
}

} // namespace lbm::test
