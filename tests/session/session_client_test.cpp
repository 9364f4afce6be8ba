#include "app/protocol/camera_keys.h"
#include "app/protocol/session_start_message.h"
#include "app/report/workload_json.h"
#include "app/session/session_client.h"
#include "metrics/session_metrics.h"
#include "resources/bundled_resources.h"
#include "scripted_server.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QTcpServer>
#include <QTimer>

#include <catch2/catch.hpp>

using namespace lbm;
using namespace lbm::session;

namespace {

SessionOptions optionsFor(const QUrl& url, int chunks = 3) {
    SessionOptions options;
    options.url = url;
    options.workload = defaultWorkload(bundledFirstFrameDataUrl().toStdString(), chunks);
    options.ping_interval_s = 0;
    options.first_chunk_timeout_s = 10;
    options.chunk_timeout_s = 10;
    return options;
}

struct Run {
    SessionResult result;
    InteractionTimeline timeline;
    QList<ChunkEvent> chunks;
    int timeline_reports = 0;
    // Handler calls that found the client's own state not yet holding their report.
    int reports_ahead_of_state = 0;
};

// Runs one session to its end; `during` may act on the client once video.start arrived.
Run runSession(const SessionOptions& options,
               const std::function<void(SessionClient&)>& during = {}) {
    Run run;
    QEventLoop loop;
    SessionClient* running = nullptr;
    SessionHandlers handlers;
    handlers.chunk_received = [&](const ChunkEvent& chunk) { run.chunks.append(chunk); };
    handlers.state_changed = [&](SessionState state) {
        run.reports_ahead_of_state += running->state() == state ? 0 : 1;
    };
    handlers.video_started = [&](const QString& request_id, double) {
        run.reports_ahead_of_state += running->requestId() == request_id ? 0 : 1;
        if (during) {
            during(*running);
        }
    };
    handlers.timeline_changed = [&](const TimelineEvent& event, const InteractionRecord& record) {
        ++run.timeline_reports;
        const InteractionRecord* kept = running->timeline().find(event.event_id);
        // SessionEnded names no interaction.
        const bool taken_in =
            event.event_id.isEmpty() || (kept != nullptr && kept->event_id == record.event_id &&
                                         kept->state() == record.state());
        run.reports_ahead_of_state += taken_in ? 0 : 1;
    };
    handlers.finished = [&](const SessionResult& result) {
        run.reports_ahead_of_state +=
            running->result() && running->result()->ok == result.ok ? 0 : 1;
        loop.quit();
    };
    SessionClient client(handlers);
    running = &client;
    // A guard far above every timeout used here: a hang fails the test instead of blocking.
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    client.start(options);
    loop.exec();
    REQUIRE(client.result().has_value());
    run.result = *client.result();
    run.timeline = client.timeline();
    return run;
}

} // namespace

TEST_CASE("a clean session records every chunk on one clock", "[session]") {
    ScriptedServer server({});
    const Run run = runSession(optionsFor(server.url()));
    INFO(run.result.error.toStdString());
    REQUIRE(run.result.ok);
    REQUIRE(run.result.request_id == QStringLiteral("video_stream-test"));
    REQUIRE(run.result.records.size() == 3);
    REQUIRE(run.result.trailer_received);
    REQUIRE(run.chunks.size() == 4); // three media chunks, then the trailer
    REQUIRE(run.chunks.last().isTrailer());
    double previous = 0.0;
    for (std::size_t n = 0; n < run.result.records.size(); ++n) {
        const ChunkRecord& record = run.result.records[n];
        REQUIRE(record.index == static_cast<qint64>(n));
        REQUIRE(record.arrival_s > previous);
        REQUIRE(record.inter_arrival_s == Approx(record.arrival_s - previous).margin(1e-12));
        REQUIRE(record.byte_length == 1000 + static_cast<qint64>(n));
        REQUIRE(record.num_frames == (n == 0 ? 9 : 12));
        REQUIRE(run.chunks[static_cast<qsizetype>(n)].bytes().size() == record.byte_length);
        previous = record.arrival_s;
    }
    REQUIRE(run.result.ttfc_s == run.result.records[0].arrival_s);
    REQUIRE(*run.result.video_start_s < run.result.records[0].arrival_s);
    REQUIRE(run.result.wall_s >= run.result.records.back().arrival_s);
    // session.start is exactly the workload's payload.
    const QList<QJsonObject> starts = server.receivedOfType(QStringLiteral("session.start"));
    REQUIRE(starts.size() == 1);
    REQUIRE(starts[0] == protocol::sessionStartMessage(optionsFor(server.url()).workload,
                                                       optionsFor(server.url()).model));
    REQUIRE(starts[0].value(QStringLiteral("num_frames")).toInt() == 33);
}

TEST_CASE("scheduled prompt updates fire right after their chunk lands", "[session]") {
    ScriptedServer::Script script;
    script.chunks = 5;
    script.chunk_interval_ms = 60;
    ScriptedServer server(script);
    SessionOptions options = optionsFor(server.url(), 5);
    options.workload.prompt_updates = {PromptUpdate{1, "A snowy street", 2},
                                       PromptUpdate{3, "Night", 0}};
    const Run run = runSession(options);
    REQUIRE(run.result.ok);
    const QList<QJsonObject> sent = server.receivedOfType(QStringLiteral("session.interaction"));
    REQUIRE(sent.size() == 2);
    REQUIRE(sent[0] == protocol::promptUpdateMessage(options.workload.prompt_updates[0]));
    REQUIRE(sent[1]
                .value(QStringLiteral("interaction"))
                .toObject()
                .value(QStringLiteral("event_id"))
                .toString() == QStringLiteral("chunk-3"));
    const InteractionRecord* first = run.timeline.find(QStringLiteral("chunk-1"));
    REQUIRE(first != nullptr);
    REQUIRE(first->kind == InteractionKind::ScheduledPrompt);
    // Sent after chunk 1's bytes and before chunk 2 arrived (60 ms later).
    REQUIRE(*first->sent_s >= run.result.records[1].arrival_s);
    REQUIRE(*first->sent_s < run.result.records[2].arrival_s);
    REQUIRE(first->queued_s.has_value());
    // The server starts it in the first chunk it sends after the update arrives: chunk 2 when
    // the 60 ms gap holds, later on a starved machine. The timeline names the chunk whose
    // metadata said so.
    REQUIRE(first->started_chunk.has_value());
    REQUIRE(*first->started_chunk >= 2);
    REQUIRE(first->started_chunk == server.startedChunkOf(QStringLiteral("chunk-1")));
    const InteractionRecord* second = run.timeline.find(QStringLiteral("chunk-3"));
    REQUIRE(second != nullptr);
    REQUIRE(second->started_chunk == server.startedChunkOf(QStringLiteral("chunk-3")));
}

TEST_CASE("ad-hoc interactions get fresh ids, acks and chunks on the timeline", "[session]") {
    ScriptedServer::Script script;
    script.chunks = 4;
    script.first_chunk_delay_ms = 50;
    script.chunk_interval_ms = 50;
    ScriptedServer server(script);
    QString prompt_id, camera_id, target_id, refused_id;
    // Steered, not scripted: the real server fails a scripted session on a camera interaction.
    SessionOptions options = optionsFor(server.url(), 4);
    options.workload.extra_params_json = "{\"camera_action_script\":null}";
    const Run run = runSession(options, [&](SessionClient& client) {
        prompt_id = client.sendPrompt(QStringLiteral("A snowy street"), 3);
        camera_id = client.sendCameraVelocity(
            protocol::velocityForKeys(protocol::CameraKeys::fromLetters(QStringLiteral("w"))));
        target_id = client.sendCameraTarget(protocol::CameraSe3::identity(), 0);
        protocol::CameraSe3 bad;
        bad.rotation = {0, 0, 0, 3};
        refused_id = client.sendCameraVelocity(bad);
    });
    REQUIRE(run.result.ok);
    const QSet<QString> ids{prompt_id, camera_id, target_id, refused_id};
    REQUIRE(ids.size() == 4);
    for (const QString& id : {prompt_id, camera_id, target_id}) {
        const InteractionRecord* record = run.timeline.find(id);
        REQUIRE(record != nullptr);
        REQUIRE(record->sent_s.has_value());
        REQUIRE(record->queued_s >= record->sent_s);
        REQUIRE(record->started_chunk == 0);
        REQUIRE(record->state() == InteractionRecord::State::Started);
    }
    REQUIRE(run.timeline.find(camera_id)->kind == InteractionKind::CameraVelocity);
    REQUIRE(run.timeline.find(target_id)->kind == InteractionKind::CameraTarget);
    const InteractionRecord* refused = run.timeline.find(refused_id);
    REQUIRE(refused->state() == InteractionRecord::State::Failed);
    REQUIRE(refused->error.contains(QStringLiteral("unit quaternion")));
    REQUIRE(server.receivedOfType(QStringLiteral("session.interaction")).size() == 3);
    // Every report reached the handler after the client's own copy took it in.
    CHECK(run.timeline_reports >= 8); // four submitted, three acked, a refusal at least
    CHECK(run.reports_ahead_of_state == 0);
}

TEST_CASE("an error about one interaction lands on its timeline and the session goes on",
          "[session]") {
    ScriptedServer::Script script;
    script.chunks = 3;
    script.chunk_interval_ms = 40;
    script.ack_interactions = false;
    QString id;
    script.before_chunk = [&](QWebSocket* socket, int chunk) {
        if (chunk == 1) {
            ScriptedServer::sendJson(
                socket, {{QStringLiteral("type"), QStringLiteral("error")},
                         {QStringLiteral("message"), QStringLiteral("Event id already used")},
                         {QStringLiteral("code"), QStringLiteral("event_id_conflict")},
                         {QStringLiteral("event_id"), id}});
        }
        return true;
    };
    ScriptedServer server(script);
    const Run run = runSession(optionsFor(server.url()), [&](SessionClient& client) {
        id = client.sendPrompt(QStringLiteral("x"));
    });
    REQUIRE(run.result.ok);
    const InteractionRecord* record = run.timeline.find(id);
    REQUIRE(record->state() == InteractionRecord::State::Failed);
    REQUIRE(record->error == QStringLiteral("Event id already used"));
    REQUIRE(record->error_code == QStringLiteral("event_id_conflict"));
}

TEST_CASE("stream violations end the session with the benchmark's words", "[session][faults]") {
    ScriptedServer::Script script;
    std::string expected;
    std::size_t chunks_kept = 0;
    SECTION("a binary frame without metadata") {
        script.before_chunk = [](QWebSocket* socket, int chunk) {
            if (chunk == 2) {
                socket->sendBinaryMessage(QByteArray(10, 'x'));
                return false;
            }
            return true;
        };
        expected = "Received a binary frame with no preceding video.chunk_metadata event.";
        chunks_kept = 2;
    }
    SECTION("fewer bytes than byte_length") {
        script.before_chunk = [](QWebSocket* socket, int chunk) {
            if (chunk == 1) {
                ScriptedServer::sendJson(socket, ScriptedServer::metadata(1, 500));
                socket->sendBinaryMessage(QByteArray(100, 'x'));
                return false;
            }
            return true;
        };
        expected = "The binary frame of chunk 1 holds 100 bytes but its video.chunk_metadata "
                   "announced byte_length 500; the stream is corrupt.";
        chunks_kept = 1;
    }
    SECTION("a server error ends it, quoted verbatim with what was requested") {
        script.before_chunk = [](QWebSocket* socket, int chunk) {
            if (chunk == 2) {
                ScriptedServer::sendJson(
                    socket, {{QStringLiteral("type"), QStringLiteral("error")},
                             {QStringLiteral("message"), QStringLiteral("CUDA out of memory")}});
                socket->close();
                return false;
            }
            return true;
        };
        expected = "Server rejected the session after 2 chunk(s): CUDA out of memory (requested 3 "
                   "chunks = num_frames 33)";
        chunks_kept = 2;
    }
    SECTION("invalid JSON") {
        script.before_chunk = [](QWebSocket* socket, int chunk) {
            if (chunk == 1) {
                socket->sendTextMessage(QStringLiteral("{garbage"));
                return false;
            }
            return true;
        };
        expected = "The server sent a text frame that is not valid JSON";
        chunks_kept = 1;
    }
    SECTION("an abrupt disconnect") {
        script.before_chunk = [](QWebSocket* socket, int chunk) {
            if (chunk == 2) {
                socket->abort();
                return false;
            }
            return true;
        };
        expected = "The server closed the connection after 2 chunk(s) without session.done";
        chunks_kept = 2;
    }
    SECTION("fewer chunks than the workload asked for") {
        script.chunks = 2;
        expected = "Expected 3 chunks for num_frames=33, received 2.";
        chunks_kept = 2;
    }
    SECTION("non-contiguous indices") {
        script.before_chunk = [](QWebSocket* socket, int chunk) {
            if (chunk == 1) {
                ScriptedServer::sendJson(socket, ScriptedServer::metadata(5, 3));
                socket->sendBinaryMessage(QByteArray(3, 'x'));
            }
            return true;
        };
        expected = "Chunk indices are not contiguous from zero: [0, 5, 1, 2]";
        chunks_kept = 4;
    }
    SECTION("done without a single chunk") {
        script.chunks = 0;
        script.send_trailer = false;
        expected = "The session finished without delivering a single media chunk.";
        chunks_kept = 0;
    }
    ScriptedServer server(script);
    const Run run = runSession(optionsFor(server.url()));
    REQUIRE_FALSE(run.result.ok);
    REQUIRE_THAT(run.result.error.toStdString(), Catch::Contains(expected));
    REQUIRE(run.result.records.size() == chunks_kept);
}

TEST_CASE("both timeouts fire with the benchmark's message", "[session][timeouts]") {
    SECTION("first chunk") {
        ScriptedServer::Script script;
        script.first_chunk_delay_ms = 5000;
        ScriptedServer server(script);
        SessionOptions options = optionsFor(server.url());
        options.first_chunk_timeout_s = 0.3;
        const Run run = runSession(options);
        REQUIRE(run.result.error ==
                QStringLiteral("No media chunk for 0.3 s after 0 chunk(s); the server may still be "
                               "loading, compiling, or capturing graphs."));
        REQUIRE(run.result.wall_s == Approx(0.3).margin(0.25));
    }
    SECTION("between chunks, counted from the previous arrival") {
        ScriptedServer::Script script;
        script.before_chunk = [](QWebSocket*, int chunk) { return chunk < 2; };
        ScriptedServer server(script);
        SessionOptions options = optionsFor(server.url());
        options.chunk_timeout_s = 0.25;
        const Run run = runSession(options);
        REQUIRE(run.result.error.startsWith(
            QStringLiteral("No media chunk for 0.25 s after 2 chunk(s);")));
        REQUIRE(run.result.wall_s - run.result.records.back().arrival_s ==
                Approx(0.25).margin(0.2));
    }
}

TEST_CASE("pings go out on the interval while the first chunk is slow", "[session][ping]") {
    ScriptedServer::Script script;
    script.first_chunk_delay_ms = 600;
    ScriptedServer server(script);
    SessionOptions options = optionsFor(server.url());
    options.ping_interval_s = 0.1;
    const Run run = runSession(options);
    REQUIRE(run.result.ok);
    REQUIRE(run.result.pings_sent >= 3);
    REQUIRE(run.result.pongs_received >= 3);
    REQUIRE(server.receivedOfType(QStringLiteral("session.ping")).size() == run.result.pings_sent);
}

TEST_CASE("a user stop ends with the stopped-session message", "[session]") {
    ScriptedServer::Script script;
    script.chunks = 50;
    script.chunk_interval_ms = 30;
    ScriptedServer server(script);
    SessionClient* client_ptr = nullptr;
    const Run run = runSession(optionsFor(server.url(), 50), [&](SessionClient& client) {
        client_ptr = &client;
        QTimer::singleShot(100, &client, [&client] { client.stop(); });
    });
    REQUIRE(run.result.stop_requested);
    REQUIRE(run.result.error.startsWith(
        QStringLiteral("The session was stopped before it finished: {")));
    REQUIRE(run.result.error.contains(QStringLiteral("'stopped': True")));
    REQUIRE(client_ptr != nullptr);
}

TEST_CASE("a refused connection says what to fix", "[session]") {
    // Bind a port, then free it: nothing listens there for the moment the client connects.
    quint16 port = 0;
    {
        QTcpServer probe;
        REQUIRE(probe.listen(QHostAddress::LocalHost, 0));
        port = probe.serverPort();
    }
    const Run run = runSession(
        optionsFor(QUrl(QStringLiteral("ws://127.0.0.1:%1/v1/realtime/video").arg(port))));
    REQUIRE_FALSE(run.result.ok);
    INFO(run.result.error.toStdString());
    REQUIRE(run.result.error.startsWith(QStringLiteral("Could not connect to ws://127.0.0.1:")));
    REQUIRE(run.result.error.contains(QStringLiteral("refused")));
    REQUIRE(run.result.error.contains(QStringLiteral("--host/--port")));
}

TEST_CASE("multi-MiB text frames are accepted (video.start echoes the first frame)", "[session]") {
    ScriptedServer::Script script;
    script.before_chunk = [](QWebSocket* socket, int chunk) {
        if (chunk == 0) {
            ScriptedServer::sendJson(
                socket, {{QStringLiteral("type"), QStringLiteral("video.progress")},
                         {QStringLiteral("blob"), QString(5 * 1024 * 1024, QLatin1Char('a'))}});
        }
        return true;
    };
    ScriptedServer server(script);
    const Run run = runSession(optionsFor(server.url()));
    INFO(run.result.error.toStdString());
    REQUIRE(run.result.ok);
    REQUIRE(
        run.result.warnings ==
        QStringList{QStringLiteral("Ignored a server message of unknown type 'video.progress'.")});
}
