#include "app/sim/simulator_server.h"
#include "tests/sim/media_probe.h"
#include "tests/sim/sim_client.h"

#include <QJsonArray>

#include <catch2/catch.hpp>

extern "C" {
#include <libavutil/log.h>
}

#include <map>
#include <memory>

using namespace lbm::sim;
using namespace lbm::sim::test;

namespace {

QJsonObject promptInteraction(const QString& id, const QString& prompt, int k) {
    return {
        {QStringLiteral("type"), QStringLiteral("session.interaction")},
        {QStringLiteral("interaction"),
         QJsonObject{{QStringLiteral("event_id"), id},
                     {QStringLiteral("transition_chunks"), k},
                     {QStringLiteral("event"), QJsonObject{{QStringLiteral("prompt"), prompt}}}}}};
}

QJsonObject cameraInteraction(const QString& id, const QString& mode, QJsonArray translation,
                              QJsonArray rotation, std::optional<int> k = std::nullopt) {
    QJsonObject interaction{
        {QStringLiteral("event_id"), id},
        {QStringLiteral("event"),
         QJsonObject{
             {QStringLiteral("multi_modal_data"),
              QJsonObject{{QStringLiteral("camera"),
                           QJsonObject{{QStringLiteral("mode"), mode},
                                       {QStringLiteral("data"),
                                        QJsonObject{{QStringLiteral("translation"), translation},
                                                    {QStringLiteral("rotation"), rotation}}}}}}}}}};
    if (k) {
        interaction.insert(QStringLiteral("transition_chunks"), *k);
    }
    return {{QStringLiteral("type"), QStringLiteral("session.interaction")},
            {QStringLiteral("interaction"), interaction}};
}

struct IdLists {
    QStringList started, active, completed;
};

QStringList strings(const QJsonValue& value) {
    QStringList list;
    for (const QJsonValue& item : value.toArray()) {
        list.append(item.toString());
    }
    return list;
}

// These cases test the transition bookkeeping, not the engine's pace, so the server takes
// its time: 600 ms before chunk 0 and 300 ms between chunks, with no muxing delay. An
// interaction the client sends on a message then reaches the server long before the next
// boundary is planned, even under a sanitizer's 10x slowdown (with the fast profile and
// muxing on, the client had 25-120 ms, and a ThreadSanitizer run missed it). At a quarter of
// the picture (quarterPictureStart): at 832x480 a loaded slow machine took longer than 300 ms
// to draw and encode a chunk, the server sent each chunk late and planned the next one 25 ms
// after it, and the client's answer missed that boundary.
struct PacedSession {
    SimulatorConfig config;
    QJsonObject start;
};

PacedSession pacedSession(int num_frames) {
    PacedSession session;
    session.config.profile = QStringLiteral("fixed:0.6:0.3");
    session.config.mux_delay_min_ms = 0;
    session.config.mux_delay_max_ms = 0;
    session.start = quarterPictureStart(session.config, num_frames);
    return session;
}

// Runs a 5-chunk session. at_start goes out on video.start; after_chunk[g] right after
// chunk g's metadata arrives (so it shapes chunk g + 2: chunk g + 1 is already planned).
std::vector<IdLists> run(const std::vector<QJsonObject>& at_start,
                         std::map<int, std::vector<QJsonObject>> after_chunk = {},
                         std::unique_ptr<SimClient>* keep = nullptr) {
    av_log_set_level(AV_LOG_ERROR);
    const PacedSession paced = pacedSession(57);
    SimulatorServer server(paced.config);
    REQUIRE(server.listen(QHostAddress::LocalHost, 0));
    auto client = std::make_unique<SimClient>(server.url());
    SimClient* raw = client.get();
    raw->on_message = [&, raw](const ReceivedMessage& message) {
        if (message.type() == QStringLiteral("video.start")) {
            for (const auto& interaction : at_start) {
                raw->sendJson(interaction);
            }
        } else if (message.type() == QStringLiteral("video.chunk_metadata")) {
            const int g = message.json.value(QStringLiteral("generation_chunk_index")).toInt(-1);
            for (const auto& interaction : after_chunk[g]) {
                raw->sendJson(interaction);
            }
        }
    };
    raw->sendJson(paced.start);
    REQUIRE(raw->waitForType(QStringLiteral("session.done"), 15000));
    std::vector<IdLists> lists;
    for (const auto& metadata : raw->ofType(QStringLiteral("video.chunk_metadata"))) {
        if (metadata.value(QStringLiteral("kind")) == QStringLiteral("media")) {
            lists.push_back({strings(metadata.value(QStringLiteral("started_event_ids"))),
                             strings(metadata.value(QStringLiteral("active_event_ids"))),
                             strings(metadata.value(QStringLiteral("completed_event_ids")))});
        }
    }
    raw->on_message = nullptr;
    if (keep != nullptr) {
        *keep = std::move(client);
    }
    return lists;
}

const QStringList none;
QStringList ids(std::initializer_list<const char*> list) {
    QStringList result;
    for (const char* id : list) {
        result.append(QString::fromLatin1(id));
    }
    return result;
}

const QJsonArray kZero3{0, 0, 0};
const QJsonArray kIdentity{0, 0, 0, 1};

} // namespace

TEST_CASE("prompt transitions: hard, one-chunk and three-chunk", "[sim][interaction][paced]") {
    SECTION("K = 0 is a hard switch in the first affected chunk") {
        const auto lists = run({promptInteraction(QStringLiteral("p"), QStringLiteral("Snow"), 0)});
        REQUIRE(lists.size() == 5);
        CHECK(lists[0].started == none);
        CHECK(lists[1].started == ids({"p"}));
        CHECK(lists[1].active == ids({"p"}));
        CHECK(lists[1].completed == ids({"p"}));
        CHECK(lists[2].active == none);
    }
    SECTION("K = 1 completes in its first chunk") {
        const auto lists = run({promptInteraction(QStringLiteral("p"), QStringLiteral("Snow"), 1)});
        CHECK(lists[1].started == ids({"p"}));
        CHECK(lists[1].completed == ids({"p"}));
    }
    SECTION("K = 3 runs over three chunks") {
        const auto lists = run({promptInteraction(QStringLiteral("p"), QStringLiteral("Snow"), 3)});
        CHECK(lists[1].started == ids({"p"}));
        CHECK(lists[1].completed == none);
        CHECK(lists[2].active == ids({"p"}));
        CHECK(lists[2].started == none);
        CHECK(lists[3].active == ids({"p"}));
        CHECK(lists[3].completed == ids({"p"}));
        CHECK(lists[4].active == none);
    }
}

TEST_CASE("a newer prompt supersedes a pending one and interrupts an active one",
          "[sim][interaction][paced]") {
    // The real handler's bookkeeping (tests/data/upstream/*/superseded_*.json): one pending
    // slot, and an interrupted transition is never reported completed.
    SECTION("superseded before it started: never reported at all") {
        const auto lists = run({promptInteraction(QStringLiteral("a"), QStringLiteral("A"), 3),
                                promptInteraction(QStringLiteral("b"), QStringLiteral("B"), 1)});
        CHECK(lists[1].started == ids({"b"}));
        CHECK(lists[1].completed == ids({"b"}));
        for (const IdLists& chunk : lists) {
            CHECK_FALSE(chunk.started.contains(QStringLiteral("a")));
            CHECK_FALSE(chunk.active.contains(QStringLiteral("a")));
            CHECK_FALSE(chunk.completed.contains(QStringLiteral("a")));
        }
    }
    SECTION("interrupted mid-transition: active where its successor starts, never completed") {
        // a (K = 3) starts in chunk 1; b, sent after chunk 0, starts in chunk 2 with a at 2/3.
        const auto lists =
            run({promptInteraction(QStringLiteral("a"), QStringLiteral("A"), 3)},
                {{0, {promptInteraction(QStringLiteral("b"), QStringLiteral("B"), 2)}}});
        CHECK(lists[1].started == ids({"a"}));
        CHECK(lists[1].active == ids({"a"}));
        CHECK(lists[2].started == ids({"b"}));
        CHECK(lists[2].active == ids({"a", "b"}));
        CHECK(lists[2].completed == none);
        CHECK(lists[3].active == ids({"b"}));
        CHECK(lists[3].completed == ids({"b"}));
        CHECK(lists[4].active == none);
        for (const IdLists& chunk : lists) {
            CHECK_FALSE(chunk.completed.contains(QStringLiteral("a")));
        }
    }
}

TEST_CASE("camera velocity, zero velocity and target", "[sim][interaction][paced]") {
    const QJsonArray forward{0, 0, 0.05};
    SECTION("a velocity stays active until replaced, a zero one too") {
        // As the harness's camera track reports it (tests/data/upstream/newest/camera_*.json).
        const auto lists = run({cameraInteraction(QStringLiteral("v"), QStringLiteral("velocity"),
                                                  forward, kIdentity)},
                               {{1,
                                 {cameraInteraction(QStringLiteral("z"), QStringLiteral("velocity"),
                                                    kZero3, kIdentity)}}});
        CHECK(lists[1].started == ids({"v"}));
        CHECK(lists[2].active == ids({"v"}));
        CHECK(lists[2].completed == none);
        CHECK(lists[3].started == ids({"z"}));
        CHECK(lists[3].completed == ids({"v"}));
        CHECK(lists[3].active == ids({"z"}));
        CHECK(lists[4].active == ids({"z"}));
    }
    SECTION("target over two chunks") {
        const auto lists = run({cameraInteraction(QStringLiteral("t"), QStringLiteral("target"),
                                                  QJsonArray{0.2, 0, 0.3}, kIdentity, 2)});
        CHECK(lists[1].started == ids({"t"}));
        CHECK(lists[1].completed == none);
        CHECK(lists[2].completed == ids({"t"}));
        CHECK(lists[3].active == none);
    }
    SECTION("a moving camera still decodes every frame in order") {
        std::unique_ptr<SimClient> client;
        run({cameraInteraction(QStringLiteral("v"), QStringLiteral("velocity"), forward,
                               kIdentity)},
            {}, &client);
        const auto decoded = decodeStream(client->streamBytes());
        REQUIRE(decoded.error.isEmpty());
        std::vector<qint64> expected(57);
        for (size_t i = 0; i < expected.size(); ++i) {
            expected[i] = static_cast<qint64>(i);
        }
        CHECK(decoded.barcodes == expected);
    }
}

TEST_CASE("a camera interaction in a scripted session is queued, then fails it at the next "
          "boundary",
          "[sim][interaction]") {
    // The real newest handler accepts it; the engine raises at the next chunk boundary, which
    // loses the chunk just generated and ends the session without session.done
    // (tests/data/upstream/newest/camera_with_script.json).
    PacedSession paced = pacedSession(57);
    QJsonObject& start = paced.start;
    QJsonArray script;
    for (int i = 0; i < 5; ++i) {
        script.append(QJsonArray{QJsonArray{QStringLiteral("w")}, QJsonArray{}, QJsonArray{}});
    }
    start.insert(QStringLiteral("extra_params"),
                 QJsonObject{{QStringLiteral("camera_action_script"), script}});
    av_log_set_level(AV_LOG_ERROR);
    // Paced: on the fast profile a loaded machine (eight cases at once on two cores) let chunk 2
    // be planned before the interaction arrived, and two chunks came.
    SimulatorServer server(paced.config);
    REQUIRE(server.listen(QHostAddress::LocalHost, 0));
    SimClient client(server.url());
    client.on_message = [&client](const ReceivedMessage& message) {
        if (message.type() == QStringLiteral("video.chunk_metadata") &&
            message.json.value(QStringLiteral("generation_chunk_index")).toInt() == 0) {
            client.sendJson(cameraInteraction(QStringLiteral("c"), QStringLiteral("velocity"),
                                              kZero3, kIdentity));
        }
    };
    client.sendJson(start);
    REQUIRE(client.waitForClose(15000));
    client.on_message = nullptr;
    const auto queued = client.ofType(QStringLiteral("session.interaction.queued"));
    REQUIRE(queued.size() == 1);
    CHECK(queued[0].value(QStringLiteral("event_id")) == QStringLiteral("c"));
    const auto errors = client.ofType(QStringLiteral("error"));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].value(QStringLiteral("message")) ==
          QStringLiteral("Cannot use mid-generation camera interaction together with "
                         "camera_action_script; "));
    CHECK_FALSE(errors[0].contains(QStringLiteral("event_id")));
    CHECK(client.ofType(QStringLiteral("session.done")).empty());
    // Chunk 0 came before the interaction, chunk 1 was lost with the failed boundary.
    int media = 0;
    for (const auto& metadata : client.ofType(QStringLiteral("video.chunk_metadata"))) {
        media += metadata.value(QStringLiteral("kind")) == QStringLiteral("media");
    }
    CHECK(media == 1);
}
