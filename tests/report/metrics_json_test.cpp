// The seed's metric dictionaries survive fromJson -> toJson key for key, and rows read back
// recompute to the golden metrics.

#include "app/report/metrics_json.h"
#include "app/report/report_error.h"
#include "metrics/session_metrics.h"
#include "tests/report/golden_json.h"

#include <QJsonDocument>

#include <catch2/catch.hpp>

using lbm::test::goldenGroup;
using lbm::test::jsonDifference;

namespace {

// The golden rows carry inter_arrival_s next to the to_dict() keys; a document row has not.
QJsonArray toDictRows(const QJsonArray& records) {
    QJsonArray rows;
    for (const QJsonValue& record : records) {
        QJsonObject row = record.toObject();
        row.remove(QStringLiteral("inter_arrival_s"));
        rows.append(row);
    }
    return rows;
}

lbm::MetricsOptions optionsFrom(const QJsonObject& kwargs) {
    lbm::MetricsOptions options;
    options.fps = kwargs.value(QStringLiteral("fps")).toDouble();
    options.warmup_chunks = kwargs.value(QStringLiteral("warmup_chunks")).toInt();
    options.playback_buffer_chunks = kwargs.value(QStringLiteral("playback_buffer_chunks")).toInt();
    const auto optional = [&kwargs](const char* key) -> std::optional<double> {
        const QJsonValue value = kwargs.value(QString::fromLatin1(key));
        return value.isNull() ? std::nullopt : std::optional<double>(value.toDouble());
    };
    options.slo_ms = optional("slo_ms");
    options.ttfc_s = optional("ttfc_s");
    options.session_wall_s = optional("session_wall_s");
    return options;
}

} // namespace

TEST_CASE("every golden compute_metrics result round-trips", "[report][metrics_json][golden]") {
    const QJsonArray cases = goldenGroup(QStringLiteral("metrics"));
    int checked = 0;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        if (!golden.contains(QStringLiteral("ok"))) {
            continue;
        }
        INFO("metrics case " << i);
        const QJsonObject expected = golden.value(QStringLiteral("ok")).toObject();
        const lbm::SessionMetrics metrics =
            lbm::report::sessionMetricsFromJson(expected, QStringLiteral("metrics"));
        CHECK(jsonDifference(expected, lbm::report::toJson(metrics)).toStdString() == "");
        ++checked;
    }
    CHECK(checked > 50);
}

TEST_CASE("chunk rows round-trip and recompute to the golden metrics",
          "[report][metrics_json][golden]") {
    const QJsonArray cases = goldenGroup(QStringLiteral("metrics"));
    int checked = 0;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        INFO("metrics case " << i);
        const QJsonArray rows = toDictRows(golden.value(QStringLiteral("records")).toArray());
        const std::vector<lbm::ChunkRecord> records =
            lbm::report::chunkRecordsFromJson(rows, QStringLiteral("chunks"));
        CHECK(jsonDifference(rows, lbm::report::toJson(records)).toStdString() == "");
        if (!golden.contains(QStringLiteral("ok"))) {
            continue;
        }
        // The interval comes back as inter_arrival_ms / 1000, which is what `report` uses.
        const lbm::SessionMetrics recomputed = lbm::computeMetrics(
            records, optionsFrom(golden.value(QStringLiteral("kwargs")).toObject()));
        CHECK(jsonDifference(golden.value(QStringLiteral("ok")), lbm::report::toJson(recomputed))
                  .toStdString() == "");
        ++checked;
    }
    CHECK(checked > 50);
}

TEST_CASE("every golden aggregate_metrics result round-trips", "[report][metrics_json][golden]") {
    const QJsonArray cases = goldenGroup(QStringLiteral("aggregate"));
    bool saw_single = false;
    bool saw_several = false;
    bool saw_null = false;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        INFO("aggregate case " << i);
        REQUIRE(golden.contains(QStringLiteral("ok")));
        const QJsonObject expected = golden.value(QStringLiteral("ok")).toObject();
        const lbm::AggregateMetrics metrics =
            lbm::report::aggregateMetricsFromJson(expected, QStringLiteral("metrics"));
        saw_single = saw_single || metrics.single_session.has_value();
        saw_several = saw_several || !metrics.single_session.has_value();
        saw_null = saw_null || expected.value(QStringLiteral("ttfc_ms_mean")).isNull();
        CHECK(jsonDifference(expected, lbm::report::toJson(metrics)).toStdString() == "");
    }
    CHECK(saw_single);
    CHECK(saw_several);
    CHECK(saw_null);
}

TEST_CASE("a missing or mistyped field is named with its path", "[report][metrics_json]") {
    const QJsonObject golden = goldenGroup(QStringLiteral("metrics"))
                                   .at(0)
                                   .toObject()
                                   .value(QStringLiteral("ok"))
                                   .toObject();
    QJsonObject missing = golden;
    missing.remove(QStringLiteral("video_rtf"));
    CHECK_THROWS_WITH(
        lbm::report::sessionMetricsFromJson(missing, QStringLiteral("sessions[2].metrics")),
        "The field \"sessions[2].metrics.video_rtf\" is missing.");

    QJsonObject nested = golden;
    QJsonObject playback = nested.value(QStringLiteral("playback")).toObject();
    playback.insert(QStringLiteral("underrun_count"), QStringLiteral("many"));
    nested.insert(QStringLiteral("playback"), playback);
    CHECK_THROWS_WITH(lbm::report::sessionMetricsFromJson(nested, QStringLiteral("m")),
                      Catch::Contains("\"m.playback.underrun_count\" must be an integer"));

    const QJsonObject row{{QStringLiteral("index"), 1.5},
                          {QStringLiteral("arrival_s"), 1.0},
                          {QStringLiteral("inter_arrival_ms"), 1.0},
                          {QStringLiteral("byte_length"), 10},
                          {QStringLiteral("num_frames"), 12}};
    CHECK_THROWS_AS(lbm::report::chunkRecordFromJson(row, QStringLiteral("chunks[0]")),
                    lbm::report::ReportError);
}

TEST_CASE("optional keys stay absent and the empty summary is {}", "[report][metrics_json]") {
    lbm::SessionMetrics metrics;
    metrics.chunks_received = 1;
    const QJsonObject json = lbm::report::toJson(metrics);
    for (const char* absent :
         {"ttfc_ms", "steady_video_rtf", "steady_video_rtfx", "slo_attainment", "slo_violations"}) {
        CHECK_FALSE(json.contains(QString::fromLatin1(absent)));
    }
    CHECK(json.value(QStringLiteral("interval_all")).toObject().isEmpty());
    CHECK(json.value(QStringLiteral("playback"))
              .toObject()
              .value(QStringLiteral("first_underrun_chunk"))
              .isNull());
    CHECK_FALSE(
        lbm::report::latencySummaryFromJson(QJsonObject(), QStringLiteral("x")).has_value());
}
