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
