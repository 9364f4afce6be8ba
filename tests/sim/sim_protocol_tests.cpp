#include "app/report/session_document.h"
#include "app/report/workload_json.h"
#include "app/sim/frame_renderer.h"
#include "app/sim/simulator_server.h"
#include "app/sim/timing_profile.h"
#include "metrics/workload.h"
#include "resources/bundled_resources.h"
#include "tests/sim/media_probe.h"
#include "tests/sim/sim_client.h"

#include <QBuffer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

extern "C" {
#include <libavutil/log.h>
}

#include <array>
#include <map>
#include <memory>

using namespace lbm;
using namespace lbm::sim;
using namespace lbm::sim::test;

namespace {

std::unique_ptr<SimulatorServer> startServer(SimulatorConfig config = {}) {
    av_log_set_level(AV_LOG_ERROR);
    auto server = std::make_unique<SimulatorServer>(config);
    REQUIRE(server->listen(QHostAddress::LocalHost, 0));
    // As a server that has been listening a while: the world's textures, built once per
    // process, are ready before the first client. The pace cases measure the profile, not
    // this process's start-up (beside a loaded suite the build made chunk 0 140 ms late).
    FrameRenderer::warmUp();
    return server;
}

std::vector<QJsonObject> media(const SimClient& client) {
    std::vector<QJsonObject> chunks;
    for (const auto& metadata : client.ofType(QStringLiteral("video.chunk_metadata"))) {
        if (metadata.value(QStringLiteral("kind")).toString() == QStringLiteral("media")) {
            chunks.push_back(metadata);
        }
    }
    return chunks;
}

std::vector<double> mediaArrivalsMs(const SimClient& client) {
    std::vector<double> arrivals;
    bool media_next = false;
    for (const auto& message : client.messages()) {
        if (!message.binary && message.type() == QStringLiteral("video.chunk_metadata")) {
            media_next = message.json.value(QStringLiteral("kind")) == QStringLiteral("media");
        } else if (message.binary && media_next) {
            arrivals.push_back(message.arrival_ms);
            media_next = false;
        }
    }
    return arrivals;
}

// The server log's production_lag lines: per media chunk, how long the simulator's own
// drawing and encoding had held its pace back when it sent that chunk.
std::map<int, double> productionLagMs(const QString& log_path) {
    std::map<int, double> lag;
    QFile file(log_path);
    if (!file.open(QIODevice::ReadOnly)) {
        return lag;
    }
    while (!file.atEnd()) {
        const QJsonObject entry = QJsonDocument::fromJson(file.readLine()).object();
        if (entry.value(QStringLiteral("type")) == QStringLiteral("production_lag")) {
            lag[entry.value(QStringLiteral("generation_chunk_index")).toInt()] =
                entry.value(QStringLiteral("lag_ms")).toDouble();
        }
    }
    return lag;
}

// Each media chunk against its own time on an absolute schedule (a chunk that left late does
// not move the next one, so intervals would count one late delivery twice), measured from
// video.start's arrival, itself a delivery: within 30 ms early (video.start came late) and 60
// ms late (this chunk did, on a loaded 2-core machine), plus what the server's log says its
// own drawing and encoding held the pace back by: on a slow VM beside the suite chunk 0 took
// 200 ms to make, and a case measured that machine rather than the schedule. A log that
// claimed more lag than the chunk showed fails too (give or take video.start's own late
// delivery; it came 35 ms late once beside the suite).
template <typename Schedule>
void checkOnSchedule(const std::vector<double>& arrivals, double start, const Schedule& scheduled,
                     const QString& log_path) {
    const std::map<int, double> lag = productionLagMs(log_path);
    for (size_t k = 0; k < arrivals.size() && k < scheduled.size(); ++k) {
        const double held_back = lag.count(static_cast<int>(k)) ? lag.at(static_cast<int>(k)) : 0.0;
        INFO("chunk " << k << " at " << arrivals[k] - start << " ms, scheduled at " << scheduled[k]
                      << " ms, held back " << held_back << " ms by production");
        CHECK(arrivals[k] - start >= scheduled[k] - 30);
        CHECK(arrivals[k] - start <= scheduled[k] + held_back + 60);
        CHECK(held_back <= arrivals[k] - start - scheduled[k] + 60);
    }
}

double videoStartMs(const SimClient& client) {
    for (const auto& message : client.messages()) {
        if (message.type() == QStringLiteral("video.start")) {
            return message.arrival_ms;
        }
    }
    return -1;
}

QString startError(const QJsonObject& start, SimulatorConfig config = {}) {
    auto server = startServer(config);
    SimClient client(server->url());
    client.sendJson(start);
    REQUIRE(client.waitForClose());
    REQUIRE(client.ofType(QStringLiteral("video.start")).empty());
    const auto errors = client.ofType(QStringLiteral("error"));
    REQUIRE(errors.size() == 1);
    return errors[0].value(QStringLiteral("message")).toString();
}

// The handler accepted the message (video.start) and then refused it: one error without a
// request_id, and no session.done.
QString refusalAfterStart(const QJsonObject& start) {
    auto server = startServer();
    SimClient client(server->url());
    client.sendJson(start);
    REQUIRE(client.waitForClose());
    REQUIRE(client.ofType(QStringLiteral("video.start")).size() == 1);
    REQUIRE(client.ofType(QStringLiteral("session.done")).empty());
    const auto errors = client.ofType(QStringLiteral("error"));
    REQUIRE(errors.size() == 1);
    CHECK_FALSE(errors[0].contains(QStringLiteral("request_id")));
    return errors[0].value(QStringLiteral("message")).toString();
}

} // namespace

TEST_CASE("a session streams video.start, media chunks, the trailer and session.done",
          "[sim][protocol]") {
    auto server = startServer();
    SimClient client(server->url());
    REQUIRE(client.connected());
    client.sendJson(startMessage(33));
    REQUIRE(client.waitForType(QStringLiteral("session.done")));

    const auto starts = client.ofType(QStringLiteral("video.start"));
    REQUIRE(starts.size() == 1);
    const QString request_id = starts[0].value(QStringLiteral("request_id")).toString();
    CHECK(QRegularExpression(QStringLiteral("^video_stream-[0-9a-f]{32}$"))
              .match(request_id)
              .hasMatch());
    CHECK(starts[0].value(QStringLiteral("format")).toString() == QStringLiteral("m4s"));
    const QJsonObject config = starts[0].value(QStringLiteral("config")).toObject();
    CHECK(config.value(QStringLiteral("prompt")).toString() ==
          QStringLiteral("A quiet harbour at dawn"));
    CHECK(config.value(QStringLiteral("num_frames")).toInt() == 33);
    CHECK(config.value(QStringLiteral("image_reference"))
              .toObject()
              .value(QStringLiteral("image_url"))
              .toString()
              .startsWith(QStringLiteral("data:image/png;base64,")));

    // Each metadata is immediately followed by exactly byte_length binary bytes.
    const auto& messages = client.messages();
    std::vector<QJsonObject> metadata;
    for (size_t i = 0; i < messages.size(); ++i) {
        if (messages[i].type() == QStringLiteral("video.chunk_metadata")) {
            REQUIRE(i + 1 < messages.size());
            REQUIRE(messages[i + 1].binary);
            CHECK(messages[i + 1].bytes.size() ==
                  messages[i].json.value(QStringLiteral("byte_length")).toInteger());
            metadata.push_back(messages[i].json);
        }
    }
    REQUIRE(metadata.size() == 4);
    for (int i = 0; i < 4; ++i) {
        CHECK(metadata[i].value(QStringLiteral("transport_chunk_index")).toInt() == i);
        CHECK(metadata[i].value(QStringLiteral("request_id")).toString() == request_id);
    }
    for (int i = 0; i < 3; ++i) {
        CHECK(metadata[i].value(QStringLiteral("kind")).toString() == QStringLiteral("media"));
        CHECK(metadata[i].value(QStringLiteral("generation_chunk_index")).toInt() == i);
        CHECK(metadata[i].value(QStringLiteral("num_frames")).toInt() == (i == 0 ? 9 : 12));
        CHECK(metadata[i].value(QStringLiteral("started_event_ids")).isArray());
    }
    CHECK(metadata[3].value(QStringLiteral("kind")).toString() == QStringLiteral("trailer"));
    CHECK(metadata[3].value(QStringLiteral("generation_chunk_index")).isNull());
    CHECK(metadata[3].value(QStringLiteral("num_frames")).toInt() == 0);

    const auto done = client.ofType(QStringLiteral("session.done"));
    REQUIRE(done.size() == 1);
    CHECK(done[0].value(QStringLiteral("chunks")).toInt() == 4);
    CHECK(done[0].value(QStringLiteral("stopped")).toBool() == false);
    CHECK(done[0].value(QStringLiteral("request_id")).toString() == request_id);

    const QByteArray stream = client.streamBytes();
    const QStringList boxes = topLevelBoxes(stream);
    REQUIRE(boxes.size() > 2);
    CHECK(boxes[0] == QStringLiteral("ftyp"));
    CHECK(boxes[1] == QStringLiteral("moov"));
    CHECK(boxes.last() == QStringLiteral("mfra"));
    const auto decoded = decodeStream(stream);
    REQUIRE(decoded.error.isEmpty());
    std::vector<qint64> expected(33);
    for (size_t i = 0; i < expected.size(); ++i) {
        expected[i] = static_cast<qint64>(i);
    }
    CHECK(decoded.barcodes == expected);
    REQUIRE(client.waitForClose());
}

TEST_CASE("independent chunks carry 9 frames every time", "[sim][protocol]") {
    SimulatorConfig config;
    config.independent_chunks = true;
    auto server = startServer(config);
    SimClient client(server->url());
    client.sendJson(startMessage(33));
    REQUIRE(client.waitForType(QStringLiteral("session.done")));
    const auto chunks = media(client);
    REQUIRE(chunks.size() == 3);
    for (const auto& chunk : chunks) {
        CHECK(chunk.value(QStringLiteral("num_frames")).toInt() == 9);
    }
    CHECK(decodeStream(client.streamBytes()).barcodes.size() == 27);
}

TEST_CASE("several clients stream at once, each its own session", "[sim][protocol]") {
    auto server = startServer();
    SimClient first(server->url());
    SimClient second(server->url());
    first.sendJson(startMessage(21));
    second.sendJson(startMessage(9));
    REQUIRE(first.waitForType(QStringLiteral("session.done")));
    REQUIRE(second.waitForType(QStringLiteral("session.done")));
    CHECK(media(first).size() == 2);
    CHECK(media(second).size() == 1);
    CHECK(first.ofType(QStringLiteral("video.start"))[0].value(QStringLiteral("request_id")) !=
          second.ofType(QStringLiteral("video.start"))[0].value(QStringLiteral("request_id")));
}

TEST_CASE("session.start refusals use the real handler's texts", "[sim][protocol][errors][paced]") {
    // Texts and their place (before or after video.start) as the real vLLM-Omni handler sends
    // them: tests/data/upstream/*/start_*.json.
    const QJsonObject valid = startMessage(9);
    const auto with = [&](const QString& key, const QJsonValue& value) {
        QJsonObject message = valid;
        message.insert(key, value);
        return message;
    };
    const auto withScript = [&](const QJsonValue& script, int num_frames = 9) {
        QJsonObject message = with(QStringLiteral("num_frames"), num_frames);
        message.insert(QStringLiteral("extra_params"),
                       QJsonObject{{QStringLiteral("camera_action_script"), script}});
        return message;
    };
    const auto keys = [](std::initializer_list<const char*> list) {
        QJsonArray array;
        for (const char* key : list) {
            array.append(QString::fromLatin1(key));
        }
        return array;
    };
    const QJsonArray good_entry{keys({"w"}), keys({"w"}), keys({})};

    // Before video.start: the handler's own checks and the request model.
    CHECK(startError(with(QStringLiteral("type"), QStringLiteral("session.ping"))) ==
          QStringLiteral("Expected session.start, got: session.ping"));
    CHECK(startError(with(QStringLiteral("format"), QStringLiteral("mp4"))) ==
          QStringLiteral("Invalid session.start format: expected 'm4s'."));
    CHECK(startError(with(QStringLiteral("format"), QJsonValue())) ==
          QStringLiteral("Invalid session.start format: expected 'm4s'."));
    CHECK(startError(with(QStringLiteral("model"), QStringLiteral("other/model"))) ==
          QStringLiteral("Model mismatch: request specifies 'other/model' but server is running "
                         "'robbyant/lingbot-world-v2-14b-causal-fast-diffusers'."));
    CHECK(startError(with(QStringLiteral("num_frames"), 0)) ==
          QStringLiteral("Invalid session.start: 1 validation error for VideoGenerationRequest\n"
                         "num_frames\n  Input should be greater than or equal to 1 "
                         "[type=greater_than_equal, input_value=0, input_type=int]\n    For "
                         "further information visit "
                         "https://errors.pydantic.dev/2.13/v/greater_than_equal"));
    CHECK(startError(with(QStringLiteral("width"), QStringLiteral("wide")))
              .contains(QStringLiteral("width\n  Input should be a valid integer, unable to parse "
                                       "string as an integer [type=int_parsing, "
                                       "input_value='wide', input_type=str]")));
    CHECK(startError(with(QStringLiteral("extra_params"), QJsonArray{1}))
              .contains(QStringLiteral("Input should be a valid dictionary [type=dict_type, "
                                       "input_value=[1], input_type=list]")));

    // After video.start: image decoding, then the engine (the harness's fake engine's words).
    CHECK(refusalAfterStart(with(QStringLiteral("width"), 640)) ==
          QStringLiteral("Requested resolution 640x480 must match the fixed cache geometry "
                         "480x832."));
    CHECK(refusalAfterStart(with(QStringLiteral("num_frames"), 5)) ==
          QStringLiteral("num_frames=5 gives no complete AR block; use 9 + 12k."));
    CHECK(refusalAfterStart(withScript(QJsonArray{})) ==
          QStringLiteral("camera_action_script must hold exactly one action list per generated "
                         "chunk (1 for num_frames=9), got 0."));
    CHECK(refusalAfterStart(withScript(QJsonArray{good_entry}, 33)) ==
          QStringLiteral("camera_action_script must hold exactly one action list per generated "
                         "chunk (3 for num_frames=33), got 1."));
    CHECK(refusalAfterStart(withScript(QJsonArray{QJsonArray{keys({"w"}), keys({"w"})}})) ==
          QStringLiteral("camera_action_script entries must be exactly 3 lists of keys from "
                         "'wasdijkl'."));
    CHECK(
        refusalAfterStart(withScript(QJsonArray{QJsonArray{keys({"w"}), keys({"x"}), keys({})}})) ==
        QStringLiteral("camera_action_script entries must be exactly 3 lists of keys from "
                       "'wasdijkl'."));
    QJsonObject no_image = valid;
    no_image.remove(QStringLiteral("image_reference"));
    CHECK(refusalAfterStart(no_image) ==
          QStringLiteral("LingBot-World requires an input image (image_reference)."));
    CHECK(refusalAfterStart(
              with(QStringLiteral("image_reference"),
                   QJsonObject{{QStringLiteral("image_url"),
                                QStringLiteral("data:image/png;base64,bm90IGFuIGltYWdl")}})) ==
          QStringLiteral("400: Invalid image_reference.image_url: provided content is not a "
                         "valid image."));
    CHECK(refusalAfterStart(with(QStringLiteral("image_reference"),
                                 QJsonObject{{QStringLiteral("image_url"),
                                              QStringLiteral("file:///tmp/frame.png")}})) ==
          QStringLiteral("400: Invalid image_reference.image_url: must be an http(s) URL or data "
                         "URL."));
}

TEST_CASE("http(s) first frames are accepted unfetched and oversized images are refused",
          "[sim][protocol]") {
    {
        auto server = startServer();
        SimClient client(server->url());
        QJsonObject start = startMessage(9);
        start.insert(QStringLiteral("image_reference"),
                     QJsonObject{{QStringLiteral("image_url"),
                                  QStringLiteral("https://example.invalid/first.png")}});
        client.sendJson(start);
        REQUIRE(client.waitForType(QStringLiteral("session.done")));
        CHECK(decodeStream(client.streamBytes()).barcodes.size() == 9);
    }
    QImage wide(4097, 8, QImage::Format_RGB32);
    wide.fill(Qt::blue);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    wide.save(&buffer, "PNG");
    QJsonObject start = startMessage(9);
    start.insert(
        QStringLiteral("image_reference"),
        QJsonObject{{QStringLiteral("image_url"), QString(QStringLiteral("data:image/png;base64,") +
                                                          QString::fromLatin1(png.toBase64()))}});
    // The engine's limit, so after video.start like the engine's other refusals.
    CHECK(refusalAfterStart(start) == QStringLiteral("Requested image_reference is 4097x8; the "
                                                     "source image may be at most 4096x4096."));
}

TEST_CASE("malformed first messages and the start timeout end the session",
          "[sim][protocol][errors][paced]") {
    SECTION("invalid JSON") {
        auto server = startServer();
        SimClient client(server->url());
        client.sendText(QStringLiteral("{\"type\": "));
        REQUIRE(client.waitForClose());
        REQUIRE(client.ofType(QStringLiteral("error")).size() == 1);
        CHECK(client.ofType(QStringLiteral("error"))[0].value(QStringLiteral("message")) ==
              QStringLiteral("Invalid JSON in session.start"));
    }
    SECTION("not an object") {
        auto server = startServer();
        SimClient client(server->url());
        client.sendText(QStringLiteral("[1, 2]"));
        REQUIRE(client.waitForClose());
        CHECK(client.ofType(QStringLiteral("error"))[0].value(QStringLiteral("message")) ==
              QStringLiteral("session.start must be a JSON object"));
    }
    SECTION("larger than 4 MiB") {
        auto server = startServer();
        SimClient client(server->url());
        QJsonObject start = startMessage(9);
        start.insert(QStringLiteral("negative_prompt"), QString(4 * 1024 * 1024, QLatin1Char('x')));
        client.sendJson(start);
        REQUIRE(client.waitForClose(20000));
        CHECK(client.ofType(QStringLiteral("error"))[0].value(QStringLiteral("message")) ==
              QStringLiteral("session.start message too large"));
    }
    SECTION("no session.start in time") {
        SimulatorConfig config;
        config.start_timeout_ms = 200;
        auto server = startServer(config);
        SimClient client(server->url());
        REQUIRE(client.waitForClose(5000));
        CHECK(client.ofType(QStringLiteral("error"))[0].value(QStringLiteral("message")) ==
              QStringLiteral("Timeout waiting for session.start"));
    }
}

TEST_CASE("the control loop answers pings, reports errors and keeps the session",
          "[sim][protocol][errors]") {
    SimulatorConfig config;
    config.profile = QStringLiteral("edge"); // slow enough to talk in between
    auto server = startServer(config);
    SimClient client(server->url());
    client.sendJson(startMessage(33));
    REQUIRE(client.waitForType(QStringLiteral("video.start")));
    client.sendJson({{QStringLiteral("type"), QStringLiteral("session.ping")}});
    client.sendText(QStringLiteral("{nope"));
    client.sendText(QStringLiteral("\"text\""));
    client.sendJson({{QStringLiteral("type"), QStringLiteral("session.dance")}});
    client.sendText(QStringLiteral("{\"type\":\"session.ping\",\"pad\":\"") +
                    QString(128 * 1024, QLatin1Char('p')) + QStringLiteral("\"}"));
    const QJsonObject prompt{
        {QStringLiteral("type"), QStringLiteral("session.interaction")},
        {QStringLiteral("interaction"),
         QJsonObject{{QStringLiteral("event_id"), QStringLiteral("p1")},
                     {QStringLiteral("event"),
                      QJsonObject{{QStringLiteral("prompt"), QStringLiteral("A snowy street")}}}}}};
    client.sendJson(prompt);
    client.sendJson(prompt);
    REQUIRE(client.waitFor([&]() { return client.ofType(QStringLiteral("error")).size() >= 5; }));
    CHECK(client.ofType(QStringLiteral("session.pong")).size() == 1);
    const auto errors = client.ofType(QStringLiteral("error"));
    CHECK(errors[0].value(QStringLiteral("message")) == QStringLiteral("Invalid JSON message"));
    CHECK(errors[1].value(QStringLiteral("message")) ==
          QStringLiteral("WebSocket messages must be JSON objects"));
    CHECK(errors[2].value(QStringLiteral("message")) ==
          QStringLiteral("Unknown message type: session.dance"));
    CHECK(errors[3].value(QStringLiteral("message")) ==
          QStringLiteral("control message too large"));
    CHECK(errors[4].value(QStringLiteral("code")) == QStringLiteral("event_id_conflict"));
    CHECK(errors[4].value(QStringLiteral("event_id")) == QStringLiteral("p1"));
    const auto queued = client.ofType(QStringLiteral("session.interaction.queued"));
    REQUIRE(queued.size() == 1);
    CHECK(queued[0].value(QStringLiteral("event_id")) == QStringLiteral("p1"));
    CHECK_FALSE(client.closed());

    client.sendJson({{QStringLiteral("type"), QStringLiteral("session.stop")}});
    REQUIRE(client.waitForType(QStringLiteral("session.done")));
    const auto done = client.ofType(QStringLiteral("session.done"))[0];
    CHECK(done.value(QStringLiteral("stopped")).toBool());
    CHECK(done.value(QStringLiteral("chunks")).toInt() == static_cast<int>(media(client).size()));
    REQUIRE(client.waitForClose());
}

TEST_CASE("a wrong path is refused", "[sim][protocol]") {
    auto server = startServer();
    QUrl url = server->url();
    url.setPath(QStringLiteral("/v1/other"));
    SimClient client(url);
    REQUIRE(client.waitForClose());
    CHECK(client.messages().empty());
}

TEST_CASE("the fast and edge profiles are what the client observes", "[sim][profile][timing]") {
    for (const QString& name : {QStringLiteral("fast"), QStringLiteral("edge")}) {
        QTemporaryDir directory;
        REQUIRE(directory.isValid());
        SimulatorConfig config;
        config.profile = name;
        config.log_path = directory.filePath(QStringLiteral("send.jsonl"));
        // The profile is the engine's pace; the handler's own muxing delay is tested below.
        config.mux_delay_min_ms = 0;
        config.mux_delay_max_ms = 0;
        const QJsonObject start_message = quarterPictureStart(config, 33);
        auto server = startServer(config);
        SimClient client(server->url());
        client.sendJson(start_message);
        REQUIRE(client.waitForType(QStringLiteral("session.done"), 15000));
        const auto expected = TimingProfile::fromName(name, nullptr)->emissionTimesMs(3, 42);
        const auto arrivals = mediaArrivalsMs(client);
        REQUIRE(arrivals.size() == 3);
        INFO("profile " << name.toStdString());
        checkOnSchedule(arrivals, videoStartMs(client), expected, config.log_path);
    }
}

TEST_CASE("replay reproduces a session document's intervals", "[sim][profile][timing]") {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("session.json"));
    // A recorded run as bench (or the Python benchmark) writes it.
    report::SessionDocument recorded;
    recorded.workload =
        report::describeWorkload(defaultWorkload(bundledFirstFrameDataUrl().toStdString(), 3));
    report::SessionEntry session;
    double arrival_s = 0;
    std::int64_t index = 0;
    for (double interval_ms : {250.0, 180.0, 320.0}) {
        arrival_s += interval_ms / 1000.0;
        session.chunks.push_back(
            ChunkRecord{index, arrival_s, interval_ms / 1000.0, 1000, index == 0 ? 9 : 12});
        ++index;
    }
    recorded.sessions.push_back(session);
    report::writeSessionDocument(recorded, path);
    SimulatorConfig config;
    config.profile = QStringLiteral("replay:") + path;
    config.log_path = dir.filePath(QStringLiteral("send.jsonl"));
    config.read_replay = report::readReplayIntervals;
    config.mux_delay_min_ms = 0;
    config.mux_delay_max_ms = 0;
    const QJsonObject start_message = quarterPictureStart(config, 33);
    auto server = startServer(config);
    SimClient client(server->url());
    client.sendJson(start_message);
    REQUIRE(client.waitForType(QStringLiteral("session.done")));
    const auto arrivals = mediaArrivalsMs(client);
    REQUIRE(arrivals.size() == 3);
    // Against the recording's own schedule, as the profiles above are checked, with the
    // production lag the server logs (chunk 0 came 82 ms late once in a suite run's first
    // seconds, beyond the 60 ms allowed without it).
    const std::array<double, 3> scheduled{250, 250 + 180, 250 + 180 + 320};
    checkOnSchedule(arrivals, videoStartMs(client), scheduled, config.log_path);

    QString error;
    CHECK_FALSE(TimingProfile::fromName(QStringLiteral("replay:/nonexistent/x.json"), &error));
    CHECK(error.contains(QStringLiteral("/nonexistent/x.json")));
    CHECK_FALSE(TimingProfile::fromName(QStringLiteral("warp"), &error));
    CHECK(error.startsWith(QStringLiteral("Unknown profile 'warp'")));
}

TEST_CASE("the handler's muxing delay of 0.1-0.3 s comes on top of the engine's pace",
          "[sim][profile][timing]") {
    // The real handler muxes each chunk on its event loop before sending it; with an engine
    // slower than that, every chunk arrives its mux delay after the engine's time.
    SimulatorConfig config;
    config.profile = QStringLiteral("fixed:0.2:0.5");
    auto server = startServer(config);
    SimClient client(server->url());
    client.sendJson(startMessage(45)); // 4 chunks
    REQUIRE(client.waitForType(QStringLiteral("session.done"), 15000));
    const auto arrivals = mediaArrivalsMs(client);
    REQUIRE(arrivals.size() == 4);
    const double start = videoStartMs(client);
    std::vector<double> delays;
    for (size_t k = 0; k < arrivals.size(); ++k) {
        const double delay_ms = arrivals[k] - start - (200.0 + 500.0 * static_cast<double>(k));
        INFO("chunk " << k << " delay " << delay_ms << " ms");
        CHECK(delay_ms >= 95.0);
        CHECK(delay_ms <= 330.0);
        delays.push_back(delay_ms);
    }
    // Drawn per chunk, not one constant.
    CHECK(*std::max_element(delays.begin(), delays.end()) -
              *std::min_element(delays.begin(), delays.end()) >
          5.0);
}
