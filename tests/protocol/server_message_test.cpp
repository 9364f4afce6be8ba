#include "app/protocol/python_repr.h"
#include "app/protocol/server_message.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <catch2/catch.hpp>

using namespace lbm::protocol;

namespace {

ParsedServerMessage parse(const char* json) {
    return parseServerMessage(QByteArray(json));
}

template <typename T>
T require(const ParsedServerMessage& parsed) {
    INFO(parsed.problem.toStdString());
    REQUIRE(parsed.message.has_value());
    REQUIRE(std::holds_alternative<T>(*parsed.message));
    return std::get<T>(*parsed.message);
}

} // namespace

TEST_CASE("every server message of protocol.md parses into its type", "[protocol][parse]") {
    SECTION("video.start keeps the request id and the echoed config") {
        const auto start = require<VideoStart>(parse(
            R"({"type":"video.start","request_id":"video_stream-ab12","format":"m4s","config":{"fps":16}})"));
        REQUIRE(start.request_id == QStringLiteral("video_stream-ab12"));
        REQUIRE(start.format == QStringLiteral("m4s"));
        REQUIRE(start.config.value(QStringLiteral("fps")).toInt() == 16);
    }
    SECTION("media chunk metadata") {
        const auto meta = require<ChunkMetadata>(parse(
            R"({"type":"video.chunk_metadata","request_id":"r","kind":"media","transport_chunk_index":4,
                "generation_chunk_index":4,"num_frames":12,"byte_length":5120,
                "started_event_ids":["a"],"active_event_ids":["a","b"],"completed_event_ids":["c"]})"));
        REQUIRE(meta.kind == ChunkKind::Media);
        REQUIRE(meta.generation_chunk_index == 4);
        REQUIRE(meta.transport_chunk_index == 4);
        REQUIRE(meta.num_frames == 12);
        REQUIRE(meta.byte_length == 5120);
        REQUIRE(meta.started_event_ids == QStringList{QStringLiteral("a")});
        REQUIRE(meta.active_event_ids.size() == 2);
        REQUIRE(meta.completed_event_ids == QStringList{QStringLiteral("c")});
    }
    SECTION("trailer metadata has no generation index") {
        const auto meta = require<ChunkMetadata>(parse(
            R"({"type":"video.chunk_metadata","kind":"trailer","transport_chunk_index":7,
                "generation_chunk_index":null,"num_frames":0,"byte_length":900})"));
        REQUIRE(meta.kind == ChunkKind::Trailer);
        REQUIRE_FALSE(meta.generation_chunk_index.has_value());
        REQUIRE(meta.started_event_ids.isEmpty());
    }
    SECTION("queued, pong, done, error") {
        REQUIRE(
            require<InteractionQueued>(
                parse(
                    R"({"type":"session.interaction.queued","request_id":"r","event_id":"ui-1"})"))
                .event_id == QStringLiteral("ui-1"));
        require<SessionPong>(parse(R"({"type":"session.pong"})"));
        const auto done = require<SessionDone>(
            parse(R"({"type":"session.done","request_id":"r","chunks":8,"stopped":true})"));
        REQUIRE(done.chunks == 8);
        REQUIRE(done.stopped);
        const auto error = require<ServerError>(parse(
            R"({"type":"error","message":"Event id already used","code":"event_id_conflict","event_id":"ui-1"})"));
        REQUIRE(error.message == QStringLiteral("Event id already used"));
        REQUIRE(error.code == QStringLiteral("event_id_conflict"));
        REQUIRE(error.event_id == QStringLiteral("ui-1"));
    }
    SECTION("an unknown type is passed through, not rejected") {
        const auto unknown =
            require<UnknownServerMessage>(parse(R"({"type":"video.progress","x":1})"));
        REQUIRE(unknown.type == QStringLiteral("video.progress"));
    }
}

TEST_CASE("malformed server messages are refused with a reason", "[protocol][parse]") {
    const auto problem = [](const char* json) {
        const ParsedServerMessage parsed = parse(json);
        REQUIRE_FALSE(parsed.message.has_value());
        return parsed.problem;
    };
    REQUIRE(problem("{not json").contains(QStringLiteral("not valid JSON")));
    REQUIRE(problem("[1,2]").contains(QStringLiteral("not an object")));
    REQUIRE(problem(R"({"kind":"media"})").contains(QStringLiteral("\"type\"")));
    REQUIRE(problem(R"({"type":"video.chunk_metadata","kind":"media","transport_chunk_index":0,
                        "generation_chunk_index":0,"num_frames":9,"byte_length":"12"})") ==
            QStringLiteral("The server sent a malformed video.chunk_metadata: byte_length must "
                           "be a non-negative integer (got \"12\")"));
    REQUIRE(problem(R"({"type":"video.chunk_metadata","kind":"media","transport_chunk_index":0,
                        "generation_chunk_index":-1,"num_frames":9,"byte_length":1})")
                .contains(QStringLiteral("generation_chunk_index")));
    REQUIRE(problem(R"({"type":"video.chunk_metadata","kind":"media","transport_chunk_index":0,
                        "generation_chunk_index":1.5,"num_frames":9,"byte_length":1})")
                .contains(QStringLiteral("generation_chunk_index")));
    REQUIRE(problem(R"({"type":"video.chunk_metadata","kind":"audio","transport_chunk_index":0,
                        "num_frames":9,"byte_length":1})")
                .contains(QStringLiteral("kind")));
    REQUIRE(problem(R"({"type":"video.chunk_metadata","kind":"trailer","transport_chunk_index":3,
                        "generation_chunk_index":3,"num_frames":0,"byte_length":1})")
                .contains(QStringLiteral("trailer")));
    REQUIRE(problem(R"({"type":"video.chunk_metadata","kind":"media","transport_chunk_index":0,
                        "generation_chunk_index":0,"num_frames":9,"byte_length":1,
                        "started_event_ids":[1]})")
                .contains(QStringLiteral("started_event_ids")));
    REQUIRE(
        problem(R"({"type":"session.done","stopped":"yes"})").contains(QStringLiteral("stopped")));
}

TEST_CASE("python repr of a server event matches the benchmark's message text",
          "[protocol][repr]") {
    const QJsonObject done{{QStringLiteral("type"), QStringLiteral("session.done")},
                           {QStringLiteral("request_id"), QStringLiteral("video_stream-1")},
                           {QStringLiteral("chunks"), 3},
                           {QStringLiteral("stopped"), true}};
    REQUIRE(pythonRepr(done) == QStringLiteral("{'chunks': 3, 'request_id': 'video_stream-1', "
                                               "'stopped': True, 'type': 'session.done'}"));
    REQUIRE(pythonRepr(QJsonArray{0, 1, 3}) == QStringLiteral("[0, 1, 3]"));
    REQUIRE(pythonRepr(QJsonValue(QStringLiteral("it's"))) == QStringLiteral("\"it's\""));
    REQUIRE(pythonRepr(QJsonValue(QJsonValue::Null)) == QStringLiteral("None"));
    REQUIRE(pythonRepr(QJsonValue(0.5)) == QStringLiteral("0.5"));
}

TEST_CASE("a media chunk may carry a null generation index, as vLLM-Omni's one-chunk sessions "
          "do",
          "[protocol]") {
    const auto parsed = parseServerMessage(QByteArray(
        R"({"type":"video.chunk_metadata","request_id":"r","kind":"media","num_frames":9,
            "byte_length":100,"generation_chunk_index":null,"started_event_ids":[],
            "active_event_ids":[],"completed_event_ids":[],"transport_chunk_index":0})"));
    REQUIRE(parsed.message.has_value());
    const auto& meta = std::get<ChunkMetadata>(*parsed.message);
    REQUIRE(meta.kind == ChunkKind::Media);
    REQUIRE_FALSE(meta.generation_chunk_index.has_value());
    // A value that is there must still be an index.
    REQUIRE_FALSE(parseServerMessage(QByteArray(
                                         R"({"type":"video.chunk_metadata","kind":"media",
            "transport_chunk_index":0,"generation_chunk_index":"0","num_frames":9,
            "byte_length":1})"))
                      .message.has_value());
}
