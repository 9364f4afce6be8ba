// The client, as the session engine runs it, against what the real vLLM-Omni handler does
// (docs/upstream-conformance.md): through app/sim's simulator, which reproduces it, and
// through the scripted server where a case needs a server that misbehaves on cue.

#include "app/session/session_notes.h"
#include "app/sim/simulator_server.h"
#include "resources/bundled_resources.h"
#include "tests/engine/decoded_session.h"
#include "tests/session/scripted_server.h"

#include <QJsonArray>

#include <catch2/catch.hpp>

using namespace lbm;
using namespace lbm::engine;
using namespace lbm::session;

namespace {

EngineSettings optionsWith(int chunks) {
    return testSettings(QUrl(), chunks); // the url is the server's, set when it runs
}

DecodedSession
againstSimulator(EngineSettings options,
                 const std::function<void(SessionEngine&, const ChunkRecord&)>& on_chunk = {},
                 sim::SimulatorConfig config = {}) {
    sim::SimulatorServer server(config);
    REQUIRE(server.listen(QHostAddress::LocalHost, 0));
    options.session.url = server.url();
    return runDecodedSession(options, 90000, on_chunk);
}

// The script must use real_video: the session's chunks go through the decoder.
DecodedSession againstScripted(const ScriptedServer& server, EngineSettings options,
                               const std::function<void(SessionEngine&)>& at_start = {}) {
    options.session.url = server.url();
    bool started = false;
    return runDecodedSession(options, 60000, [&](SessionEngine& client, const ChunkRecord&) {
        if (!started && at_start) {
            started = true;
            at_start(client);
        }
    });
}

} // namespace

TEST_CASE("a media chunk without a generation index is numbered by its position",
          "[engine][upstream]") {
    // The real handler sends generation_chunk_index null on a one-chunk session's chunk.
    const DecodedSession run = againstSimulator(optionsWith(1));
    INFO(run.result.error.toStdString());
    REQUIRE(run.result.ok);
    REQUIRE(run.result.records.size() == 1);
    CHECK(run.result.records[0].index == 0);
    CHECK(run.result.chunks_numbered_by_position == QList<qint64>{0});
    CHECK(run.frames_decoded == 9);
    const QJsonObject notes = sessionNotesJson(run.result);
    CHECK(notes.value(QStringLiteral("chunks_numbered_by_position")).toArray() == QJsonArray{0});
    CHECK(describeSessionNotes(notes).contains(
        QStringLiteral("The server sent generation_chunk_index null for chunk(s) 0; they are "
                       "numbered by their position.")));
}

TEST_CASE("a superseded prompt transition is settled, never left pending", "[engine][upstream]") {
    SECTION("replaced while pending") {
        QString a, b;
        const DecodedSession run =
            againstSimulator(optionsWith(5), [&](SessionEngine& client, const ChunkRecord& chunk) {
                if (chunk.index == 0) {
                    a = client.sendPrompt(QStringLiteral("A snowy street"), 3);
                    b = client.sendPrompt(QStringLiteral("A desert road"), 1);
                }
            });
        INFO(run.result.error.toStdString());
        REQUIRE(run.result.ok);
        const InteractionRecord* older = run.timeline.find(a);
        const InteractionRecord* newer = run.timeline.find(b);
        REQUIRE(newer->started_chunk.has_value());
        CHECK(older->state() == InteractionRecord::State::Superseded);
        CHECK_FALSE(older->started_chunk.has_value());
        CHECK(older->superseded_by == b);
        CHECK(older->superseded_chunk == newer->started_chunk);
        CHECK(newer->state() == InteractionRecord::State::Completed);
        const QString expected =
            QStringLiteral("superseded by %1 at chunk %2").arg(b).arg(*newer->started_chunk);
        CHECK(run.timeline.describeLines().at(0).contains(expected));
        CHECK(run.timeline.toJson().at(0).toObject().value(QStringLiteral("state")) ==
              QStringLiteral("superseded"));
        CHECK(run.timeline.supersededPerChunk({*newer->started_chunk}) ==
              QStringList{QStringLiteral("%1 (by %2)").arg(a, b)});
    }
    SECTION("interrupted while under way") {
        // The newer prompt goes out once the older one is seen under way, and the older one
        // spans 6 chunks, so a slow machine (a sanitizer build) landing the newer one a chunk
        // or two late still lands it inside the older one's transition.
        constexpr int kOlderChunks = 6;
        QString a, b;
        const DecodedSession run =
            againstSimulator(optionsWith(10), [&](SessionEngine& client, const ChunkRecord& chunk) {
                if (chunk.index == 0) {
                    a = client.sendPrompt(QStringLiteral("A snowy street"), kOlderChunks);
                } else if (b.isEmpty() && !a.isEmpty()) {
                    const InteractionRecord* older = client.timeline().find(a);
                    if (older && older->started_chunk) {
                        b = client.sendPrompt(QStringLiteral("A desert road"), 0);
                    }
                }
            });
        REQUIRE(run.result.ok);
        const InteractionRecord* older = run.timeline.find(a);
        const InteractionRecord* newer = run.timeline.find(b);
        REQUIRE(older->started_chunk.has_value());
        REQUIRE(newer != nullptr);
        REQUIRE(newer->started_chunk.has_value());
        INFO("older started at chunk " << *older->started_chunk << ", newer at chunk "
                                       << *newer->started_chunk);
        // Strictly inside the older transition: at its last chunk it would complete first.
        REQUIRE(*newer->started_chunk > *older->started_chunk);
        REQUIRE(*newer->started_chunk < *older->started_chunk + kOlderChunks - 1);
        CHECK_FALSE(older->completed_chunk.has_value());
        CHECK(older->state() == InteractionRecord::State::Superseded);
        CHECK(older->superseded_chunk == newer->started_chunk);
        CHECK(older->active_chunks.contains(*newer->started_chunk));
    }
}

TEST_CASE("interactions still open when the session ends are settled", "[engine][upstream]") {
    SECTION("queued after the last boundary: never applied") {
        QString late;
        const DecodedSession run =
            againstSimulator(optionsWith(4), [&](SessionEngine& client, const ChunkRecord& chunk) {
                if (chunk.index == 2) {
                    late = client.sendPrompt(QStringLiteral("A snowy street"), 0);
                }
            });
        REQUIRE(run.result.ok);
        const InteractionRecord* record = run.timeline.find(late);
        REQUIRE(record->queued_s.has_value());
        CHECK(record->state() == InteractionRecord::State::NotApplied);
        CHECK(record->describeProgress().contains(
            QStringLiteral("never applied: the session ended first")));
    }
    SECTION("no reply at all: unanswered") {
        ScriptedServer::Script script;
        script.chunks = 3;
        script.ack_interactions = false;
        script.real_video = true;
        ScriptedServer server(script);
        QString id;
        const DecodedSession run =
            againstScripted(server, optionsWith(3), [&](SessionEngine& client) {
                id = client.sendPrompt(QStringLiteral("Snow"), 0);
            });
        REQUIRE(run.result.ok);
        const InteractionRecord* record = run.timeline.find(id);
        CHECK(record->state() == InteractionRecord::State::Unanswered);
        CHECK(run.timeline.describeLines().at(0).contains(
            QStringLiteral("unanswered: no reply by the end of the session")));
        CHECK(run.timeline.toJson().at(0).toObject().value(QStringLiteral("state")) ==
              QStringLiteral("unanswered"));
    }
}

TEST_CASE("a refusal reads as the server refusing the session, with what to do",
          "[engine][upstream]") {
    SECTION("after video.start: the first frame") {
        EngineSettings options = optionsWith(3);
        options.session.workload.image_reference = "data:image/png;base64,bm90IGFuIGltYWdl";
        const DecodedSession run = againstSimulator(options);
        REQUIRE_FALSE(run.result.ok);
        CHECK(run.result.video_start_s.has_value());
        CHECK(run.result.error ==
              QStringLiteral("The server refused the session: 400: Invalid "
                             "image_reference.image_url: provided content is not a valid image. "
                             "Give the first frame as a PNG or JPEG file, or an http(s):// or "
                             "data:image/... URL of one."));
    }
    SECTION("after video.start: the geometry") {
        EngineSettings options = optionsWith(3);
        options.session.workload.width = 640;
        const DecodedSession run = againstSimulator(options);
        REQUIRE_FALSE(run.result.ok);
        CHECK(run.result.error ==
              QStringLiteral("The server refused the session: Requested resolution 640x480 must "
                             "match the fixed cache geometry 480x832. Keep --width 832 --height "
                             "480: the server's KV cache geometry is fixed."));
    }
    SECTION("before video.start: the model") {
        EngineSettings options = optionsWith(3);
        options.session.model = QStringLiteral("other/model");
        const DecodedSession run = againstSimulator(options);
        REQUIRE_FALSE(run.result.ok);
        CHECK_FALSE(run.result.video_start_s.has_value());
        CHECK(run.result.error.startsWith(
            QStringLiteral("The server refused the session: Model mismatch: request specifies "
                           "'other/model' but server is running")));
        CHECK(
            run.result.error.endsWith(QStringLiteral("Pass the model name the server was "
                                                     "started with (--model), or leave it out.")));
    }
    SECTION("a failure after chunks keeps the benchmark's wording") {
        sim::SimulatorConfig config;
        QString problem;
        config.faults = {*sim::FaultSpec::parse(QStringLiteral("error@1"), &problem)};
        const DecodedSession run = againstSimulator(optionsWith(3), {}, config);
        REQUIRE_FALSE(run.result.ok);
        CHECK(run.result.error.startsWith(
            QStringLiteral("Server rejected the session after 1 chunk(s): Generation failed")));
    }
}

TEST_CASE("a control loop that stops answering pings is reported once, the session goes on",
          "[engine][upstream][paced]") {
    ScriptedServer::Script script;
    script.chunks = 9;
    script.first_chunk_delay_ms = 100;
    script.chunk_interval_ms = 400;
    script.real_video = true;
    SECTION("silent") {
        script.reply_to_ping = false;
        ScriptedServer server(script);
        EngineSettings options = optionsWith(9);
        options.session.ping_interval_s = 0.3;
        const DecodedSession run = againstScripted(server, options);
        INFO(run.result.error.toStdString());
        REQUIRE(run.result.ok);
        REQUIRE(run.result.control_loop_silent_since_s.has_value());
        CHECK(*run.result.control_loop_silent_since_s == Approx(0.3).margin(0.2));
        int reported = 0;
        for (const QString& warning : run.result.warnings) {
            reported += warning.contains(QStringLiteral("stopped answering session.ping"));
        }
        CHECK(reported == 1);
        CHECK(sessionNotesJson(run.result).contains(QStringLiteral("control_loop_silent_since_s")));
    }
    SECTION("answering") {
        ScriptedServer server(script);
        EngineSettings options = optionsWith(9);
        options.session.ping_interval_s = 0.3;
        const DecodedSession run = againstScripted(server, options);
        REQUIRE(run.result.ok);
        CHECK(run.result.pongs_received >= 5);
        CHECK_FALSE(run.result.control_loop_silent_since_s.has_value());
        CHECK(run.result.warnings.isEmpty());
    }
}

TEST_CASE("control-loop refusals without an event id keep the session and find their "
          "interaction",
          "[engine][upstream]") {
    // The real handler names no event_id in its validation errors; replies come in order.
    ScriptedServer::Script script;
    script.chunks = 4;
    script.chunk_interval_ms = 60;
    script.ack_interactions = false;
    script.real_video = true;
    script.before_chunk = [](QWebSocket* socket, int chunk) {
        if (chunk == 2) {
            ScriptedServer::sendJson(
                socket, {{QStringLiteral("type"), QStringLiteral("error")},
                         {QStringLiteral("message"),
                          QStringLiteral("session.interaction transition_chunks must be >= 0")}});
            ScriptedServer::sendJson(socket,
                                     {{QStringLiteral("type"), QStringLiteral("error")},
                                      {QStringLiteral("message"),
                                       QStringLiteral("Unknown message type: session.bogus")}});
        }
        return true;
    };
    ScriptedServer server(script);
    QString first, second;
    const DecodedSession run = againstScripted(server, optionsWith(4), [&](SessionEngine& client) {
        first = client.sendPrompt(QStringLiteral("Snow"), 1);
        second = client.sendPrompt(QStringLiteral("Rain"), 1);
    });
    INFO(run.result.error.toStdString());
    REQUIRE(run.result.ok);
    const InteractionRecord* answered = run.timeline.find(first);
    CHECK(answered->state() == InteractionRecord::State::Failed);
    CHECK(answered->error == QStringLiteral("session.interaction transition_chunks must be >= 0"));
    CHECK(run.timeline.find(second)->state() == InteractionRecord::State::Unanswered);
    CHECK(run.result.warnings.contains(
        QStringLiteral("The server refused a control message: Unknown message type: "
                       "session.bogus")));
}

TEST_CASE("a stall before the first chunk reads as the server ending the session",
          "[engine][upstream]") {
    sim::SimulatorConfig config;
    config.stall_timeout_ms = 600;
    QString problem;
    config.faults = {*sim::FaultSpec::parse(QStringLiteral("slow-start"), &problem)};
    const DecodedSession run = againstSimulator(optionsWith(2), {}, config);
    REQUIRE_FALSE(run.result.ok);
    CHECK(run.result.error == QStringLiteral("The server ended the session: Stall timeout: no "
                                             "generation progress Keep --ping-interval on "
                                             "(default 20 s): the first block can compile for "
                                             "minutes."));
}
