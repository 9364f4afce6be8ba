#include "app/session/interaction_timeline.h"

#include <QJsonObject>

#include <array>

namespace lbm::session {
namespace {

QString seconds(double t_s) {
    return QString::number(t_s, 'f', 3) + QLatin1Char('s');
}

QJsonValue optionalJson(const std::optional<double>& value) {
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QJsonValue optionalJson(const std::optional<qint64>& value) {
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

std::optional<double> optionalSeconds(const QJsonValue& value) {
    return value.isDouble() ? std::optional<double>(value.toDouble()) : std::nullopt;
}

std::optional<qint64> optionalChunk(const QJsonValue& value) {
    return value.isDouble() ? std::optional<qint64>(value.toInteger()) : std::nullopt;
}

constexpr std::array<InteractionKind, 5> kKinds = {
    InteractionKind::ScheduledPrompt, InteractionKind::Prompt, InteractionKind::CameraVelocity,
    InteractionKind::CameraTarget, InteractionKind::Unknown};

} // namespace

InteractionRecord::State InteractionRecord::state() const {
    if (!error.isEmpty()) {
        return State::Failed;
    }
    if (completed_chunk) {
        return State::Completed;
    }
    if (!superseded_by.isEmpty()) {
        return State::Superseded;
    }
    if (started_chunk) {
        return State::Started;
    }
    if (queued_s) {
        return session_ended ? State::NotApplied : State::Queued;
    }
    // A record made from a server's report alone (kind Unknown) was never sent by us.
    return session_ended && sent_s ? State::Unanswered : State::Sent;
}

bool InteractionRecord::isPrompt() const {
    return kind == InteractionKind::Prompt || kind == InteractionKind::ScheduledPrompt;
}

QString InteractionRecord::describeProgress() const {
    QStringList parts;
    if (sent_s) {
        parts.append(QStringLiteral("sent %1").arg(seconds(*sent_s)));
    }
    if (queued_s) {
        parts.append(QStringLiteral("queued %1").arg(seconds(*queued_s)));
    }
    if (started_chunk) {
        parts.append(QStringLiteral("started chunk %1 (%2)")
                         .arg(*started_chunk)
                         .arg(seconds(started_s.value_or(0.0))));
    }
    if (!active_chunks.isEmpty()) {
        parts.append(QStringLiteral("active in %1 chunk(s)").arg(active_chunks.size()));
    }
    if (completed_chunk) {
        parts.append(QStringLiteral("completed chunk %1 (%2)")
                         .arg(*completed_chunk)
                         .arg(seconds(completed_s.value_or(0.0))));
    }
    switch (state()) {
    case State::Superseded:
        parts.append(QStringLiteral("superseded by %1 at chunk %2 (%3)")
                         .arg(superseded_by)
                         .arg(superseded_chunk.value_or(-1))
                         .arg(seconds(superseded_s.value_or(0.0))));
        break;
    case State::Unanswered:
        parts.append(QStringLiteral("unanswered: no reply by the end of the session"));
        break;
    case State::NotApplied:
        parts.append(QStringLiteral("never applied: the session ended first"));
        break;
    case State::Started:
        if (session_ended) {
            parts.append(QStringLiteral("unfinished when the session ended"));
        }
        break;
    case State::Failed:
        parts.append(
            QStringLiteral("ERROR %1%2")
                .arg(error_code.isEmpty() ? QString() : error_code + QStringLiteral(": "), error));
        break;
    case State::Sent:
    case State::Queued:
    case State::Completed:
        break;
    }
    return parts.join(QStringLiteral("  "));
}

QJsonObject InteractionRecord::toJson() const {
    QJsonArray active;
    for (const qint64 chunk : active_chunks) {
        active.append(chunk);
    }
    QJsonObject object{{QStringLiteral("event_id"), event_id},
                       {QStringLiteral("kind"), interactionKindName(kind)},
                       {QStringLiteral("summary"), summary},
                       {QStringLiteral("state"), interactionStateName(state())},
                       {QStringLiteral("sent_s"), optionalJson(sent_s)},
                       {QStringLiteral("queued_s"), optionalJson(queued_s)},
                       {QStringLiteral("started_chunk"), optionalJson(started_chunk)},
                       {QStringLiteral("started_s"), optionalJson(started_s)},
                       {QStringLiteral("active_chunks"), active},
                       {QStringLiteral("completed_chunk"), optionalJson(completed_chunk)},
                       {QStringLiteral("completed_s"), optionalJson(completed_s)}};
    if (!superseded_by.isEmpty()) {
        object.insert(QStringLiteral("superseded_by"), superseded_by);
        object.insert(QStringLiteral("superseded_chunk"), optionalJson(superseded_chunk));
        object.insert(QStringLiteral("superseded_s"), optionalJson(superseded_s));
    }
    if (session_ended) {
        object.insert(QStringLiteral("session_ended_first"), true);
    }
    if (!error.isEmpty()) {
        object.insert(QStringLiteral("error"), error);
        object.insert(QStringLiteral("error_code"), error_code);
        object.insert(QStringLiteral("error_s"), optionalJson(error_s));
    }
    return object;
}

InteractionRecord InteractionRecord::fromJson(const QJsonObject& object) {
    InteractionRecord record;
    record.event_id = object.value(QStringLiteral("event_id")).toString();
    const QString kind = object.value(QStringLiteral("kind")).toString();
    for (const InteractionKind known : kKinds) {
        if (interactionKindName(known) == kind) {
            record.kind = known;
        }
    }
    record.summary = object.value(QStringLiteral("summary")).toString();
    record.sent_s = optionalSeconds(object.value(QStringLiteral("sent_s")));
    record.queued_s = optionalSeconds(object.value(QStringLiteral("queued_s")));
    record.started_chunk = optionalChunk(object.value(QStringLiteral("started_chunk")));
    record.started_s = optionalSeconds(object.value(QStringLiteral("started_s")));
    for (const QJsonValue& chunk : object.value(QStringLiteral("active_chunks")).toArray()) {
        record.active_chunks.append(chunk.toInteger());
    }
    record.completed_chunk = optionalChunk(object.value(QStringLiteral("completed_chunk")));
    record.completed_s = optionalSeconds(object.value(QStringLiteral("completed_s")));
    record.superseded_by = object.value(QStringLiteral("superseded_by")).toString();
    record.superseded_chunk = optionalChunk(object.value(QStringLiteral("superseded_chunk")));
    record.superseded_s = optionalSeconds(object.value(QStringLiteral("superseded_s")));
    // Documents written before the flag existed leave pending interactions pending.
    const QString state = object.value(QStringLiteral("state")).toString();
    record.session_ended = object.value(QStringLiteral("session_ended_first")).toBool() ||
                           state == QStringLiteral("unanswered") ||
                           state == QStringLiteral("not-applied");
    record.error = object.value(QStringLiteral("error")).toString();
    record.error_code = object.value(QStringLiteral("error_code")).toString();
    record.error_s = optionalSeconds(object.value(QStringLiteral("error_s")));
    return record;
}

void InteractionTimeline::apply(const TimelineEvent& event) {
    m_events.append(event);
    if (event.type == TimelineEventType::SessionEnded) {
        endSession();
        return;
    }
    InteractionRecord& record = recordFor(event.event_id);
    switch (event.type) {
    case TimelineEventType::Sent:
        record.kind = event.kind;
        record.summary = event.detail;
        record.sent_s = event.t_s;
        if (event.transition_chunks) {
            record.transition_chunks = event.transition_chunks;
        }
        break;
    case TimelineEventType::Queued:
        if (!record.queued_s) {
            record.queued_s = event.t_s;
        }
        break;
    case TimelineEventType::Started:
        if (!record.started_chunk) {
            record.started_chunk = event.chunk_index;
            record.started_s = event.t_s;
            if (record.isPrompt()) {
                const InteractionRecord newer = record; // recordFor's reference may move
                supersedeOlderPrompts(newer, event);
            }
        }
        break;
    case TimelineEventType::Active:
        if (event.chunk_index) {
            record.active_chunks.append(*event.chunk_index);
        }
        break;
    case TimelineEventType::Completed:
        if (!record.completed_chunk) {
            record.completed_chunk = event.chunk_index;
            record.completed_s = event.t_s;
            if (record.superseded_chunk == event.chunk_index) {
                // It reached its target at the boundary where the newer one started.
                record.superseded_by.clear();
                record.superseded_chunk.reset();
                record.superseded_s.reset();
            }
        }
        break;
    case TimelineEventType::Error:
        if (record.error.isEmpty()) {
            record.error = event.detail;
            record.error_code = event.code;
            record.error_s = event.t_s;
        }
        break;
    case TimelineEventType::SessionEnded:
        break;
    }
}

void InteractionTimeline::supersedeOlderPrompts(const InteractionRecord& newer,
                                                const TimelineEvent& event) {
    // The server keeps one prompt transition: a newer one that starts ends every older one
    // still pending or under way (an older one completing in the same chunk completed first,
    // and its Completed event, which follows, takes that back).
    for (InteractionRecord& older : m_interactions) {
        if (older.event_id == newer.event_id) {
            break; // records are in first-appearance order: the rest came later
        }
        if (older.isPrompt() && !older.completed_chunk && older.error.isEmpty() &&
            older.superseded_by.isEmpty()) {
            older.superseded_by = newer.event_id;
            older.superseded_chunk = event.chunk_index;
            older.superseded_s = event.t_s;
        }
    }
}

void InteractionTimeline::endSession() {
    for (InteractionRecord& record : m_interactions) {
        record.session_ended = true;
    }
}

const InteractionRecord* InteractionTimeline::find(const QString& event_id) const {
    for (const InteractionRecord& record : m_interactions) {
        if (record.event_id == event_id) {
            return &record;
        }
    }
    return nullptr;
}

InteractionRecord& InteractionTimeline::recordFor(const QString& event_id) {
    // Linear search: a session has tens to a few thousand interactions, searched from the
    // newest, which is almost always the one an event is about.
    for (qsizetype n = m_interactions.size() - 1; n >= 0; --n) {
        if (m_interactions[n].event_id == event_id) {
            return m_interactions[n];
        }
    }
    InteractionRecord record;
    record.event_id = event_id;
    m_interactions.append(record);
    return m_interactions.last();
}

QJsonArray InteractionTimeline::toJson() const {
    QJsonArray out;
    for (const InteractionRecord& record : m_interactions) {
        out.append(record.toJson());
    }
    return out;
}

QStringList InteractionTimeline::describeLines() const {
    QStringList lines;
    for (const InteractionRecord& record : m_interactions) {
        QString line =
            QStringLiteral("%1  %2").arg(record.event_id, interactionKindName(record.kind));
        if (!record.summary.isEmpty()) {
            line += QStringLiteral(" %1").arg(record.summary);
        }
        const QString progress = record.describeProgress();
        if (!progress.isEmpty()) {
            line += QStringLiteral("  ") + progress;
        }
        lines.append(line);
    }
    return lines;
}

QStringList
InteractionTimeline::supersededPerChunk(const std::vector<qint64>& chunk_indices) const {
    QStringList column;
    for (const qint64 chunk : chunk_indices) {
        QStringList ids;
        for (const InteractionRecord& record : m_interactions) {
            if (record.state() == InteractionRecord::State::Superseded &&
                record.superseded_chunk == chunk) {
                ids.append(QStringLiteral("%1 (by %2)").arg(record.event_id, record.superseded_by));
            }
        }
        column.append(ids.join(QLatin1Char(' ')));
    }
    return column;
}

QString interactionKindName(InteractionKind kind) {
    switch (kind) {
    case InteractionKind::ScheduledPrompt:
        return QStringLiteral("scheduled-prompt");
    case InteractionKind::Prompt:
        return QStringLiteral("prompt");
    case InteractionKind::CameraVelocity:
        return QStringLiteral("camera-velocity");
    case InteractionKind::CameraTarget:
        return QStringLiteral("camera-target");
    case InteractionKind::Unknown:
        return QStringLiteral("unknown");
    }
    return {};
}

QString interactionStateName(InteractionRecord::State state) {
    switch (state) {
    case InteractionRecord::State::Sent:
        return QStringLiteral("sent");
    case InteractionRecord::State::Queued:
        return QStringLiteral("queued");
    case InteractionRecord::State::Started:
        return QStringLiteral("started");
    case InteractionRecord::State::Completed:
        return QStringLiteral("completed");
    case InteractionRecord::State::Superseded:
        return QStringLiteral("superseded");
    case InteractionRecord::State::Unanswered:
        return QStringLiteral("unanswered");
    case InteractionRecord::State::NotApplied:
        return QStringLiteral("not-applied");
    case InteractionRecord::State::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

QString timelineEventTypeName(TimelineEventType type) {
    switch (type) {
    case TimelineEventType::Sent:
        return QStringLiteral("sent");
    case TimelineEventType::Queued:
        return QStringLiteral("queued");
    case TimelineEventType::Started:
        return QStringLiteral("started");
    case TimelineEventType::Active:
        return QStringLiteral("active");
    case TimelineEventType::Completed:
        return QStringLiteral("completed");
    case TimelineEventType::Error:
        return QStringLiteral("error");
    case TimelineEventType::SessionEnded:
        return QStringLiteral("session-ended");
    }
    return {};
}

} // namespace lbm::session
