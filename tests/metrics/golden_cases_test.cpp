// Every case of the seed's golden vectors (geometry, camera, percentile, playback, metrics,
// aggregate): our result equals what workload.py returned, or we raise its exact message.

#include "metrics/camera_script.h"
#include "metrics/geometry.h"
#include "metrics/latency_summary.h"
#include "metrics/playback_simulator.h"
#include "metrics/session_metrics.h"
#include "tests/metrics/seed_json.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <catch2/catch.hpp>

using namespace lbm;
using namespace lbm::test;

namespace {

// Runs one golden case: `compute` produces our JSON form; the case holds "ok" or "error".
void checkCase(const QJsonObject& golden, const std::function<QJsonValue()>& compute) {
    if (golden.contains(QStringLiteral("error"))) {
        const std::string expected = toStd(golden.value(QStringLiteral("error")).toString());
        CHECK(metricErrorOf([&] { (void)compute(); }) == std::optional<std::string>(expected));
        return;
    }
    REQUIRE(golden.contains(QStringLiteral("ok")));
    const QJsonValue actual = compute();
    const std::vector<std::string> differences =
        seedDifferences(golden.value(QStringLiteral("ok")), actual);
    for (const std::string& difference : differences) {
        UNSCOPED_INFO(difference);
    }
    CHECK(differences.empty());
}

QJsonValue scriptToJson(const CameraScript& script) {
    QJsonArray chunks;
    for (const ChunkActions& chunk : script) {
        QJsonArray frames;
        for (const FrameActions& frame : chunk) {
            QJsonArray keys;
            for (const std::string& key : frame) {
                keys.append(QString::fromStdString(key));
            }
            frames.append(keys);
        }
        chunks.append(frames);
    }
    return chunks;
}

} // namespace

TEST_CASE("golden geometry cases match the seed", "[metrics][golden]") {
    const QJsonArray cases = seedGroup("geometry");
    REQUIRE(cases.size() == 221);
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        const QString fn = golden.value(QStringLiteral("fn")).toString();
        const QJsonValue arg = golden.value(QStringLiteral("arg"));
        INFO("case " << i << ": " << toStd(fn) << "(" << arg.toDouble() << ")");
        checkCase(golden, [&]() -> QJsonValue {
            if (fn == QLatin1String("num_frames_for_chunks")) {
                return static_cast<qint64>(numFramesForChunks(arg.toInteger()));
            }
            if (fn == QLatin1String("chunks_for_num_frames")) {
                return static_cast<qint64>(chunksForNumFrames(arg.toInteger()));
            }
            if (fn == QLatin1String("pixel_frames_in_chunk")) {
                return pixelFramesInChunk(arg.toInteger());
            }
            if (fn == QLatin1String("steady_chunk_deadline_ms")) {
                return steadyChunkDeadlineMs(arg.toDouble());
            }
            FAIL("unknown geometry function " << toStd(fn));
            return {};
        });
    }
}

TEST_CASE("golden camera script cases match the seed", "[metrics][golden]") {
    const QJsonArray cases = seedGroup("camera");
    REQUIRE(cases.size() == 15);
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        const std::string pattern = toStd(golden.value(QStringLiteral("pattern")).toString());
        const qint64 num_chunks = golden.value(QStringLiteral("num_chunks")).toInteger();
        INFO("case " << i << ": pattern '" << pattern << "', " << num_chunks << " chunks");
        checkCase(golden, [&] { return scriptToJson(buildCameraScript(num_chunks, pattern)); });
    }
}

TEST_CASE("golden percentile cases match the seed", "[metrics][golden]") {
    const QJsonArray cases = seedGroup("percentile");
    REQUIRE(cases.size() == 40);
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        std::vector<double> values;
        for (const QJsonValue& value : golden.value(QStringLiteral("values")).toArray()) {
            values.push_back(value.toDouble());
        }
        const double fraction = golden.value(QStringLiteral("fraction")).toDouble();
        INFO("case " << i << ": " << values.size() << " values, fraction " << fraction);
        checkCase(golden, [&] { return QJsonValue(percentile(values, fraction)); });
    }
}

TEST_CASE("golden playback cases match the seed", "[metrics][golden]") {
    const QJsonArray cases = seedGroup("playback");
    REQUIRE(cases.size() == 40);
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        const auto records = recordsFromSeed(golden.value(QStringLiteral("records")).toArray());
        const double fps = golden.value(QStringLiteral("fps")).toDouble();
        const int buffer_chunks = golden.value(QStringLiteral("buffer_chunks")).toInt();
        INFO("case " << i << ": " << records.size() << " records, fps " << fps << ", buffer "
                     << buffer_chunks);
        checkCase(golden, [&] {
            return QJsonValue(toSeedJson(simulatePlayback(records, fps, buffer_chunks)));
        });
    }
}

TEST_CASE("golden compute_metrics cases match the seed", "[metrics][golden]") {
    const QJsonArray cases = seedGroup("metrics");
    REQUIRE(cases.size() == 80);
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        const auto records = recordsFromSeed(golden.value(QStringLiteral("records")).toArray());
        const MetricsOptions options =
            optionsFromSeed(golden.value(QStringLiteral("kwargs")).toObject());
        INFO("case " << i << ": " << records.size() << " records");
        checkCase(golden, [&] { return QJsonValue(toSeedJson(computeMetrics(records, options))); });
    }
}

TEST_CASE("golden aggregate_metrics cases match the seed", "[metrics][golden]") {
    const QJsonArray cases = seedGroup("aggregate");
    REQUIRE(cases.size() == 12);
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        std::vector<SessionMetrics> sessions;
        for (const QJsonValue& entry : golden.value(QStringLiteral("sessions")).toArray()) {
            sessions.push_back(sessionFromSeed(entry.toObject()));
            // The bridge itself must be lossless, or the aggregate check below proves little.
            const auto round_trip = seedDifferences(entry, toSeedJson(sessions.back()));
            CHECK(round_trip.empty());
        }
        const double fps = golden.value(QStringLiteral("fps")).toDouble();
        INFO("case " << i << ": " << sessions.size() << " sessions");
        checkCase(golden, [&] { return QJsonValue(toSeedJson(aggregateMetrics(sessions, fps))); });
    }
}

TEST_CASE("the golden comparator notices what a wrong port would get wrong", "[metrics][golden]") {
    const auto parse = [](const char* json) {
        return QJsonValue(QJsonDocument::fromJson(QByteArray(json)).object());
    };
    const QJsonValue seed = parse(R"({"a": 1.5, "n": 3, "s": "x", "o": {}, "z": null})");
    CHECK(seedDifferences(seed, parse(R"({"a": 1.5000000000001, "n": 3, "s": "x", "o": {},
                                          "z": null})"))
              .empty());
    // A value off by more than 1e-9 relative, an integer off by one, a key too many or too
    // few, a summary where the seed has {} and a number where the seed has null.
    CHECK(seedDifferences(seed, parse(R"({"a": 1.50001, "n": 3, "s": "x", "o": {}, "z": null})"))
              .size() == 1);
    CHECK(seedDifferences(seed, parse(R"({"a": 1.5, "n": 4, "s": "x", "o": {}, "z": null})"))
              .size() == 1);
    CHECK(seedDifferences(seed, parse(R"({"a": 1.5, "n": 3, "s": "x", "o": {}})")).size() == 1);
    CHECK(seedDifferences(seed, parse(R"({"a": 1.5, "n": 3, "s": "x", "o": {}, "z": null,
                                          "extra": 1})"))
              .size() == 1);
    CHECK(seedDifferences(seed, parse(R"({"a": 1.5, "n": 3, "s": "x", "o": {"count": 1.0},
                                          "z": null})"))
              .size() == 1);
    CHECK(seedDifferences(seed, parse(R"({"a": 1.5, "n": 3, "s": "x", "o": {}, "z": 0})")).size() ==
          1);
}
