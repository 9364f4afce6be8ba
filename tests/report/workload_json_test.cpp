// Workload files read exactly as the seed's load_workload, and the JSON a workload becomes.

#include "app/protocol/session_start_message.h"
#include "app/report/report_error.h"
#include "app/report/workload_json.h"
#include "metrics/metric_error.h"
#include "tests/report/golden_json.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

using lbm::report::loadWorkloadDocument;
using lbm::report::loadWorkloadFile;
using lbm::report::ReportError;

namespace {

QString errorOf(const QJsonObject& document) {
    try {
        loadWorkloadDocument(document);
    } catch (const std::exception& error) {
        return QString::fromUtf8(error.what());
    }
    return QStringLiteral("<no error>");
}

QJsonObject parse(const char* json) {
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    return path;
}

} // namespace

TEST_CASE("every golden workload case loads as the seed does", "[report][workload][golden]") {
    const QJsonArray cases = lbm::test::goldenGroup(QStringLiteral("workload"));
    int ok_cases = 0;
    int error_cases = 0;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        const QJsonObject document = golden.value(QStringLiteral("document")).toObject();
        const QString model = golden.value(QStringLiteral("model")).toString();
        INFO("case " << i << ": "
                     << QJsonDocument(document).toJson(QJsonDocument::Compact).constData());
        if (golden.contains(QStringLiteral("error"))) {
            ++error_cases;
            CHECK(errorOf(document).toStdString() ==
                  golden.value(QStringLiteral("error")).toString().toStdString());
            // The seed's own rule violations are MetricError, not a report-layer error.
            CHECK_THROWS_AS(loadWorkloadDocument(document), lbm::MetricError);
            continue;
        }
        ++ok_cases;
        const QJsonObject expected = golden.value(QStringLiteral("ok")).toObject();
        const lbm::Workload workload = loadWorkloadDocument(document);
        QJsonArray interactions;
        for (const lbm::PromptUpdate& update : workload.prompt_updates) {
            interactions.append(lbm::protocol::promptUpdateMessage(update));
        }
        const QJsonObject actual{
            {QStringLiteral("session_start"), lbm::protocol::sessionStartMessage(workload, model)},
            {QStringLiteral("describe"), lbm::report::describeWorkload(workload)},
            {QStringLiteral("interactions"), interactions},
        };
        const QString difference = lbm::test::jsonDifference(expected, actual);
        CHECK(difference.toStdString() == "");
    }
    CHECK(ok_cases > 0);
    CHECK(error_cases > 0);
}

TEST_CASE("a workload file on disk goes through the same rules", "[report][workload]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = writeFile(dir, QStringLiteral("w.json"),
                                   R"({"image": "data:x", "num_chunks": 5, "fps": 24})");
    const lbm::Workload workload = loadWorkloadFile(path);
    CHECK(workload.numChunks() == 5);
    CHECK(workload.fps == 24);

    SECTION("a JSON array is not a workload") {
        const QString array = writeFile(dir, QStringLiteral("a.json"), "[1, 2]");
        CHECK_THROWS_WITH(loadWorkloadFile(array), "A workload file must contain a JSON object.");
    }
    SECTION("invalid JSON names the file and the position") {
        const QString broken = writeFile(dir, QStringLiteral("b.json"), "{\"num_chunks\": ");
        try {
            loadWorkloadFile(broken);
            FAIL("no error");
        } catch (const ReportError& error) {
            CHECK(error.message().contains(broken));
            CHECK(error.message().contains(QStringLiteral("not valid JSON")));
        }
    }
    SECTION("a missing file names the path and the flag") {
        const QString missing = dir.filePath(QStringLiteral("nope.json"));
        try {
            loadWorkloadFile(missing);
            FAIL("no error");
        } catch (const ReportError& error) {
            CHECK(error.message().contains(missing));
            CHECK(error.message().contains(QStringLiteral("--workload")));
        }
    }
}

TEST_CASE("overrides that are set win over the file", "[report][workload]") {
    const QJsonObject document = parse(
        R"({"image": "data:x", "num_chunks": 2, "width": 640, "prompt": "file prompt", "seed": 1})");
    lbm::report::WorkloadOverrides overrides;
    overrides.width = 832;
    overrides.seed = 99;
    overrides.flow_shift = 3.5;
    overrides.negative_prompt = QStringLiteral("blurry");
    const lbm::Workload workload = loadWorkloadDocument(document, overrides);
    CHECK(workload.width == 832);
    CHECK(workload.seed == 99);
    CHECK(workload.flow_shift == 3.5);
    CHECK(workload.negative_prompt == std::optional<std::string>("blurry"));
    // Unset overrides leave the file's values alone.
    CHECK(workload.prompt == "file prompt");
    CHECK(workload.height == 480);
    const QJsonObject payload = lbm::protocol::sessionStartMessage(workload, QStringLiteral("m"));
    CHECK(payload.value(QStringLiteral("negative_prompt")).toString() == QStringLiteral("blurry"));
    CHECK(payload.value(QStringLiteral("extra_params"))
              .toObject()
              .value(QStringLiteral("flow_shift"))
              .toDouble() == 3.5);
}

TEST_CASE("Python's int/float/str coercions apply to file values", "[report][workload]") {
    const lbm::Workload workload = loadWorkloadDocument(parse(
        R"({"image": "data:x", "num_chunks": "3", "width": "832", "height": 480.9, "fps": true,
            "flow_shift": "2.5", "seed": " 7 ", "prompt": 12})"));
    CHECK(workload.numChunks() == 3);
    CHECK(workload.width == 832);
    CHECK(workload.height == 480);
    CHECK(workload.fps == 1);
    CHECK(workload.flow_shift == 2.5);
    CHECK(workload.seed == 7);
    CHECK(workload.prompt == "12");

    SECTION("a value int() refuses names the field") {
        const QString message =
            errorOf(parse(R"({"image": "data:x", "num_chunks": 2, "width": "wide"})"));
        CHECK(message.contains(QStringLiteral("width")));
        CHECK(message.contains(QStringLiteral("\"wide\"")));
    }
    SECTION("a missing after_chunk names the entry") {
        const QString message = errorOf(
            parse(R"({"image": "data:x", "num_chunks": 2, "prompt_updates": [{"prompt": "x"}]})"));
        CHECK(message.contains(QStringLiteral("prompt_updates[0]")));
        CHECK(message.contains(QStringLiteral("after_chunk")));
    }
    SECTION("prompt_updates entries default to a three-chunk transition") {
        const lbm::Workload with_update = loadWorkloadDocument(parse(
            R"({"image": "data:x", "num_chunks": 4, "prompt_updates": [{"after_chunk": "2", "prompt": "snow"}]})"));
        REQUIRE(with_update.prompt_updates.size() == 1);
        CHECK(with_update.prompt_updates[0].after_chunk == 2);
        CHECK(with_update.prompt_updates[0].transition_chunks == 3);
    }
}

TEST_CASE("fallbacks and validation order follow the seed", "[report][workload]") {
    SECTION("an empty image falls back to image_reference") {
        const lbm::Workload workload = loadWorkloadDocument(
            parse(R"({"image": "", "image_reference": "data:y", "num_chunks": 1})"));
        CHECK(workload.image_reference == "data:y");
    }
    SECTION("camera_action_script wins over num_chunks") {
        const lbm::Workload workload = loadWorkloadDocument(parse(
            R"({"image": "data:x", "num_chunks": 9, "camera_action_script": [[["w"], ["a"], []]]})"));
        CHECK(workload.numChunks() == 1);
    }
    SECTION("an unknown camera pattern gets the seed's message") {
        CHECK(errorOf(parse(R"({"image": "data:x", "num_chunks": 2, "camera_pattern": "spin"})"))
                  .toStdString() ==
              "Unknown camera pattern 'spin'; expected one of ['forward', 'hold', 'orbit'].");
    }
    SECTION("script element type errors use the seed's words") {
        CHECK(errorOf(parse(R"({"image": "data:x", "camera_action_script": ["www"]})"))
                  .toStdString() ==
              "camera_action_script[0] must be a list of three action lists.");
        CHECK(errorOf(parse(R"({"image": "data:x", "camera_action_script": [[["w"], "a", []]]})"))
                  .toStdString() == "camera_action_script[0][1] must be a list of strings.");
        CHECK(errorOf(parse(R"({"image": "data:x", "camera_action_script": [[["w"], [1], []]]})"))
                  .toStdString() == "camera_action_script[0][1] must contain only strings.");
    }
    SECTION("prompt and geometry are checked before the script, as in __post_init__") {
        CHECK(errorOf(parse(R"({"image": "data:x", "prompt": " ", "camera_action_script": [[1]]})"))
                  .toStdString() == "Workload.prompt must contain non-whitespace text.");
        CHECK(errorOf(parse(R"({"image": "data:x", "fps": 0, "camera_action_script": []})"))
                  .toStdString() == "Workload.fps must be positive.");
    }
    SECTION("a falsy extra_params is an empty object, as `or {}` makes it") {
        const lbm::Workload workload = loadWorkloadDocument(
            parse(R"({"image": "data:x", "num_chunks": 1, "extra_params": []})"));
        const QJsonObject extra = lbm::protocol::sessionStartMessage(workload, QStringLiteral("m"))
                                      .value(QStringLiteral("extra_params"))
                                      .toObject();
        CHECK(extra.keys() ==
              QStringList{QStringLiteral("camera_action_script"), QStringLiteral("flow_shift")});
    }
    SECTION("workload extra_params override the defaults in session.start") {
        const lbm::Workload workload = loadWorkloadDocument(
            parse(R"({"image": "data:x", "num_chunks": 1, "extra_params": {"flow_shift": 8}})"));
        CHECK(lbm::protocol::sessionStartMessage(workload, QStringLiteral("m"))
                  .value(QStringLiteral("extra_params"))
                  .toObject()
                  .value(QStringLiteral("flow_shift"))
                  .toDouble() == 8.0);
    }
}

TEST_CASE("the image resolver inlines local files and passes URLs through", "[report][workload]") {
    using lbm::report::resolveImageReference;
    CHECK(resolveImageReference(QStringLiteral("https://example.invalid/a.png")) ==
          QStringLiteral("https://example.invalid/a.png"));
    CHECK(resolveImageReference(QStringLiteral("http://h/a")) == QStringLiteral("http://h/a"));
    CHECK(resolveImageReference(QStringLiteral("data:image/png;base64,AAAA")) ==
          QStringLiteral("data:image/png;base64,AAAA"));

    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QByteArray bytes("\x89PNG-not-really", 15);
    const QString jpg = writeFile(dir, QStringLiteral("frame.JPG"), bytes);
    CHECK(resolveImageReference(jpg) ==
          QStringLiteral("data:image/jpeg;base64,") + QString::fromLatin1(bytes.toBase64()));
    const QString odd = writeFile(dir, QStringLiteral("frame.raw"), bytes);
    CHECK(resolveImageReference(odd).startsWith(QStringLiteral("data:image/png;base64,")));

    const QString missing = dir.filePath(QStringLiteral("missing.png"));
    CHECK_THROWS_WITH(
        resolveImageReference(missing),
        QString(QStringLiteral("--image is neither a URL nor a readable file: ") + missing)
            .toStdString());
    CHECK_THROWS_WITH(
        resolveImageReference(dir.path()),
        QString(QStringLiteral("--image is neither a URL nor a readable file: ") + dir.path())
            .toStdString());

    SECTION("a workload file's image goes through the resolver") {
        const QJsonObject document{{QStringLiteral("image"), jpg},
                                   {QStringLiteral("num_chunks"), 1}};
        const lbm::Workload workload =
            loadWorkloadDocument(document, {}, lbm::report::resolveImageReference);
        CHECK(QString::fromStdString(workload.image_reference)
                  .startsWith(QStringLiteral("data:image/jpeg;base64,")));
    }
}
