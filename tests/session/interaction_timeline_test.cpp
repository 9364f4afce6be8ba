#include "app/session/interaction_timeline.h"

#include <QJsonObject>

#include <catch2/catch.hpp>

using namespace lbm::session;

namespace {

TimelineEvent event(double t_s, TimelineEventType type, const QString& id,
                    std::optional<qint64> chunk = std::nullopt) {
    TimelineEvent e;
    e.t_s = t_s;
    e.type = type;
    e.event_id = id;
    e.chunk_index = chunk;
    e.kind = InteractionKind::Prompt;
    e.detail = QStringLiteral("Snow");
    return e;
}

} // namespace

TEST_CASE("the timeline follows an interaction from sent to completed", "[session][timeline]") {
    InteractionTimeline timeline;
    const QString id = QStringLiteral("ui-1-abc");
    timeline.apply(event(1.0, TimelineEventType::Sent, id));
    REQUIRE(timeline.find(id)->state() == InteractionRecord::State::Sent);
    timeline.apply(event(1.01, TimelineEventType::Queued, id));
    REQUIRE(timeline.find(id)->state() == InteractionRecord::State::Queued);
    timeline.apply(event(1.7, TimelineEventType::Started, id, 3));
    timeline.apply(event(1.7, TimelineEventType::Active, id, 3));
    timeline.apply(event(2.4, TimelineEventType::Active, id, 4));
    REQUIRE(timeline.find(id)->state() == InteractionRecord::State::Started);
    timeline.apply(event(3.1, TimelineEventType::Completed, id, 5));
    const InteractionRecord* record = timeline.find(id);
    REQUIRE(record->state() == InteractionRecord::State::Completed);
    REQUIRE(record->started_chunk == 3);
    REQUIRE(record->started_s == 1.7);
    REQUIRE(record->active_chunks == QList<qint64>{3, 4});
    REQUIRE(record->completed_chunk == 5);
    REQUIRE(timeline.events().size() == 6);
    const QJsonObject json = timeline.toJson().at(0).toObject();
    REQUIRE(json.value(QStringLiteral("state")).toString() == QStringLiteral("completed"));
    REQUIRE(json.value(QStringLiteral("completed_chunk")).toInt() == 5);
    REQUIRE(timeline.describeLines().at(0).contains(QStringLiteral("completed chunk 5")));
}

TEST_CASE("an error wins, and ids the client never sent still get a record",
          "[session][timeline]") {
    InteractionTimeline timeline;
    timeline.apply(event(0.5, TimelineEventType::Sent, QStringLiteral("a")));
    TimelineEvent error = event(0.6, TimelineEventType::Error, QStringLiteral("a"));
    error.detail = QStringLiteral("Event id already used");
    error.code = QStringLiteral("event_id_conflict");
    timeline.apply(error);
    REQUIRE(timeline.find(QStringLiteral("a"))->state() == InteractionRecord::State::Failed);
    REQUIRE(timeline.find(QStringLiteral("a"))->error_code == QStringLiteral("event_id_conflict"));
    timeline.apply(event(0.9, TimelineEventType::Started, QStringLiteral("server-uuid"), 2));
    REQUIRE(timeline.find(QStringLiteral("server-uuid"))->kind == InteractionKind::Unknown);
    REQUIRE(timeline.interactions().size() == 2);
}

TEST_CASE("a newer prompt that starts supersedes older ones still open", "[session][timeline]") {
    InteractionTimeline timeline;
    timeline.apply(event(1.0, TimelineEventType::Sent, QStringLiteral("a")));
    timeline.apply(event(1.1, TimelineEventType::Sent, QStringLiteral("b")));
    timeline.apply(event(1.2, TimelineEventType::Sent, QStringLiteral("c")));
    // a and b were both pending; the server kept only b.
    timeline.apply(event(2.0, TimelineEventType::Started, QStringLiteral("b"), 3));
    const InteractionRecord* a = timeline.find(QStringLiteral("a"));
    REQUIRE(a->state() == InteractionRecord::State::Superseded);
    REQUIRE(a->superseded_by == QStringLiteral("b"));
    REQUIRE(a->superseded_chunk == 3);
    // c was sent after b: b cannot have replaced it.
    REQUIRE(timeline.find(QStringLiteral("c"))->state() == InteractionRecord::State::Sent);
    // b completing where c starts completed first: not superseded.
    timeline.apply(event(3.0, TimelineEventType::Started, QStringLiteral("c"), 5));
    timeline.apply(event(3.0, TimelineEventType::Completed, QStringLiteral("b"), 5));
    const InteractionRecord* b = timeline.find(QStringLiteral("b"));
    REQUIRE(b->state() == InteractionRecord::State::Completed);
    REQUIRE(b->superseded_by.isEmpty());
    REQUIRE_FALSE(b->toJson().contains(QStringLiteral("superseded_by")));
    REQUIRE(timeline.supersededPerChunk({3, 4, 5}) ==
            QStringList{QStringLiteral("a (by b)"), QString(), QString()});
    // Cameras are not on the prompt track.
    TimelineEvent camera = event(3.5, TimelineEventType::Sent, QStringLiteral("v"));
    camera.kind = InteractionKind::CameraVelocity;
    timeline.apply(camera);
    timeline.apply(event(4.0, TimelineEventType::Sent, QStringLiteral("d")));
    timeline.apply(event(4.5, TimelineEventType::Started, QStringLiteral("d"), 7));
    REQUIRE(timeline.find(QStringLiteral("v"))->state() == InteractionRecord::State::Sent);
    REQUIRE(timeline.find(QStringLiteral("c"))->superseded_by == QStringLiteral("d"));
}

TEST_CASE("the session's end settles what is still open", "[session][timeline]") {
    InteractionTimeline timeline;
    timeline.apply(event(1.0, TimelineEventType::Sent, QStringLiteral("silent")));
    timeline.apply(event(1.0, TimelineEventType::Sent, QStringLiteral("queued")));
    timeline.apply(event(1.1, TimelineEventType::Queued, QStringLiteral("queued")));
    // Reported by the server only: no Sent, so not "unanswered".
    timeline.apply(event(1.5, TimelineEventType::Queued, QStringLiteral("server-made")));
    TimelineEvent ended;
    ended.t_s = 2.0;
    ended.type = TimelineEventType::SessionEnded;
    ended.chunk_index = 4;
    timeline.apply(ended);
    REQUIRE(timeline.find(QStringLiteral("silent"))->state() ==
            InteractionRecord::State::Unanswered);
    REQUIRE(timeline.find(QStringLiteral("queued"))->state() ==
            InteractionRecord::State::NotApplied);
    REQUIRE(timeline.find(QStringLiteral("server-made"))->state() ==
            InteractionRecord::State::NotApplied);
    REQUIRE(timeline.interactions().size() == 3); // the end is no interaction
    const QStringList lines = timeline.describeLines();
    REQUIRE(lines.at(0).contains(QStringLiteral("unanswered: no reply by the end of the session")));
    REQUIRE(lines.at(1).contains(QStringLiteral("never applied: the session ended first")));
    REQUIRE(timelineEventTypeName(TimelineEventType::SessionEnded) ==
            QStringLiteral("session-ended"));

    InteractionTimeline started;
    started.apply(event(1.0, TimelineEventType::Sent, QStringLiteral("k3")));
    started.apply(event(1.5, TimelineEventType::Started, QStringLiteral("k3"), 3));
    started.apply(ended);
    REQUIRE(started.find(QStringLiteral("k3"))->state() == InteractionRecord::State::Started);
    REQUIRE(started.describeLines().at(0).contains(
        QStringLiteral("unfinished when the session ended")));
}

TEST_CASE("an interaction record survives the document", "[session][timeline]") {
    InteractionTimeline timeline;
    timeline.apply(event(1.0, TimelineEventType::Sent, QStringLiteral("a")));
    timeline.apply(event(1.1, TimelineEventType::Queued, QStringLiteral("a")));
    timeline.apply(event(1.2, TimelineEventType::Sent, QStringLiteral("b")));
    timeline.apply(event(2.0, TimelineEventType::Started, QStringLiteral("b"), 3));
    timeline.apply(event(2.0, TimelineEventType::Active, QStringLiteral("b"), 3));
    TimelineEvent ended;
    ended.type = TimelineEventType::SessionEnded;
    timeline.apply(ended);
    for (const InteractionRecord& record : timeline.interactions()) {
        const InteractionRecord back = InteractionRecord::fromJson(record.toJson());
        INFO(record.event_id.toStdString());
        REQUIRE(back.toJson() == record.toJson());
        REQUIRE(back.describeProgress() == record.describeProgress());
    }
}
