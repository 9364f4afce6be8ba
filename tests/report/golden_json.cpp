#include "tests/report/golden_json.h"

#include <QFile>
#include <QJsonDocument>
#include <QSet>

#include <cmath>
#include <stdexcept>

namespace lbm::test {

const QJsonObject& goldenCases() {
    static const QJsonObject cases =
        readJsonObject(QStringLiteral(LBM_TEST_DATA_DIR "/golden/seed_cases.json"));
    return cases;
}

QJsonArray goldenGroup(const QString& group) {
    const QJsonValue value = goldenCases().value(group);
    if (!value.isArray() || value.toArray().isEmpty()) {
        throw std::runtime_error("golden group missing: " + group.toStdString());
    }
    return value.toArray();
}

QString jsonDifference(const QJsonValue& expected, const QJsonValue& actual, const QString& path) {
    const auto describe = [](const QJsonValue& value) {
        if (value.isUndefined()) {
            return QStringLiteral("<absent>");
        }
        return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact));
    };
    const QString mismatch = path + QStringLiteral(": expected ") + describe(expected) +
                             QStringLiteral(", got ") + describe(actual);
    if (expected.type() != actual.type()) {
        return mismatch;
    }
    switch (expected.type()) {
    case QJsonValue::Double: {
        const double e = expected.toDouble();
        const double a = actual.toDouble();
        const double scale = std::max({std::fabs(e), std::fabs(a), 1e-300});
        return std::fabs(e - a) <= 1e-9 * scale ? QString() : mismatch;
    }
    case QJsonValue::Array: {
        const QJsonArray e = expected.toArray();
        const QJsonArray a = actual.toArray();
        if (e.size() != a.size()) {
            return path + QStringLiteral(": expected %1 items, got %2").arg(e.size()).arg(a.size());
        }
        for (qsizetype i = 0; i < e.size(); ++i) {
            const QString difference =
                jsonDifference(e.at(i), a.at(i), path + QStringLiteral("[%1]").arg(i));
            if (!difference.isEmpty()) {
                return difference;
            }
        }
        return {};
    }
    case QJsonValue::Object: {
        const QJsonObject e = expected.toObject();
        const QJsonObject a = actual.toObject();
        QStringList keys = e.keys();
        for (const QString& key : a.keys()) {
            if (!e.contains(key)) {
                keys.append(key);
            }
        }
        for (const QString& key : keys) {
            const QString difference =
                jsonDifference(e.value(key), a.value(key), path + QLatin1Char('.') + key);
            if (!difference.isEmpty()) {
                return difference;
            }
        }
        return {};
    }
    default:
        return expected == actual ? QString() : mismatch;
    }
}

QJsonObject benchmarkDocumentForMetricsCase(const QJsonObject& metrics_case) {
    const QJsonObject kwargs = metrics_case.value(QStringLiteral("kwargs")).toObject();
    const QJsonObject metrics = metrics_case.value(QStringLiteral("ok")).toObject();
    QJsonArray rows;
    for (const QJsonValue& record : metrics_case.value(QStringLiteral("records")).toArray()) {
        QJsonObject row = record.toObject();
        row.remove(QStringLiteral("inter_arrival_s"));
        rows.append(row);
    }
    const qsizetype num_chunks = rows.size();
    const qint64 num_frames = (num_chunks * 3 - 1) * 4 + 1; // num_frames_for_chunks
    const QJsonObject workload{
        {QStringLiteral("num_chunks"), num_chunks},
        {QStringLiteral("num_frames"), num_frames},
        {QStringLiteral("width"), 832},
        {QStringLiteral("height"), 480},
        {QStringLiteral("fps"), 16},
        {QStringLiteral("seed"), 42},
        {QStringLiteral("flow_shift"), 5.0},
        {QStringLiteral("video_seconds"), static_cast<double>(num_frames) / 16.0},
        {QStringLiteral("prompt_updates"), QJsonArray()},
    };
    const QJsonObject config{
        {QStringLiteral("sessions"), 1},
        {QStringLiteral("warmup_sessions"), 0},
        {QStringLiteral("warmup_chunks"), kwargs.value(QStringLiteral("warmup_chunks"))},
        {QStringLiteral("camera_pattern"), QStringLiteral("forward")},
        {QStringLiteral("chunk_slo_ms"), kwargs.value(QStringLiteral("slo_ms"))},
        {QStringLiteral("target_fps"), kwargs.value(QStringLiteral("fps"))},
        {QStringLiteral("mux_fps"), 16},
        {QStringLiteral("playback_buffer_chunks"),
         kwargs.value(QStringLiteral("playback_buffer_chunks"))},
        {QStringLiteral("workload_file"), QJsonValue::Null},
    };
    QJsonObject aggregate = metrics;
    aggregate.insert(QStringLiteral("sessions"), 1);
    return QJsonObject{
        {QStringLiteral("benchmark"), QStringLiteral("lingbot_world_realtime")},
        {QStringLiteral("timestamp"), QStringLiteral("2026-01-02T03:04:05.678901+00:00")},
        {QStringLiteral("endpoint"), QStringLiteral("ws://127.0.0.1:8000/v1/realtime/video")},
        {QStringLiteral("model"),
         QStringLiteral("robbyant/lingbot-world-v2-14b-causal-fast-diffusers")},
        {QStringLiteral("git_revision"), QJsonValue::Null},
        {QStringLiteral("hostname"), QStringLiteral("gpu-box")},
        {QStringLiteral("workload"), workload},
        {QStringLiteral("config"), config},
        {QStringLiteral("sessions"),
         QJsonArray{QJsonObject{{QStringLiteral("session_index"), 0},
                                {QStringLiteral("request_id"), QStringLiteral("req-0")},
                                {QStringLiteral("video_start_ms"), 12.5},
                                {QStringLiteral("chunks"), rows},
                                {QStringLiteral("metrics"), metrics}}}},
        {QStringLiteral("metrics"), aggregate},
    };
}

QJsonObject readJsonObject(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        throw std::runtime_error("cannot open " + path.toStdString());
    }
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        throw std::runtime_error("not a JSON object: " + path.toStdString());
    }
    return document.object();
}

} // namespace lbm::test
