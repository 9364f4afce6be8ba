#include "app/session/interaction_timeline.h"

#include <QJsonObject>

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

} // namespace

InteractionRecord::State InteractionRecord::state() const {
    if (!error.isEmpty()) {
        return State::Failed;
    }
    if (completed_chunk) {
        return State::Completed;
    }
    if (started_chunk) {
        return State::Started;
    }
    if (queued_s) {
        return State::Queued;
    }
    return State::Sent;
}

void InteractionTimeline::apply(const TimelineEvent& event) {
    m_events.append(event);
    InteractionRecord& record = recordFor(event.event_id);
    switch (event.type) {
    case TimelineEventType::Sent:
        record.kind = event.kind;
        record.summary = event.detail;
        record.sent_s = event.t_s;
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
        }
        break;
    case TimelineEventType::Error:
        if (record.error.isEmpty()) {
            record.error = event.detail;
            record.error_code = event.code;
            record.error_s = event.t_s;
        }
        break;
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
        QJsonArray active;
        for (const qint64 chunk : record.active_chunks) {
            active.append(chunk);
        }
        QJsonObject object{
            {QStringLiteral("event_id"), record.event_id},
            {QStringLiteral("kind"), interactionKindName(record.kind)},
            {QStringLiteral("summary"), record.summary},
            {QStringLiteral("state"), interactionStateName(record.state())},
            {QStringLiteral("sent_s"), optionalJson(record.sent_s)},
            {QStringLiteral("queued_s"), optionalJson(record.queued_s)},
            {QStringLiteral("started_chunk"), optionalJson(record.started_chunk)},
            {QStringLiteral("started_s"), optionalJson(record.started_s)},
            {QStringLiteral("active_chunks"), active},
            {QStringLiteral("completed_chunk"), optionalJson(record.completed_chunk)},
            {QStringLiteral("completed_s"), optionalJson(record.completed_s)}};
        if (!record.error.isEmpty()) {
            object.insert(QStringLiteral("error"), record.error);
            object.insert(QStringLiteral("error_code"), record.error_code);
            object.insert(QStringLiteral("error_s"), optionalJson(record.error_s));
        }
        out.append(object);
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
        if (record.sent_s) {
            line += QStringLiteral("  sent %1").arg(seconds(*record.sent_s));
        }
        if (record.queued_s) {
            line += QStringLiteral("  queued %1").arg(seconds(*record.queued_s));
        }
        if (record.started_chunk) {
            line += QStringLiteral("  started chunk %1 (%2)")
                        .arg(*record.started_chunk)
                        .arg(seconds(record.started_s.value_or(0.0)));
        }
        if (!record.active_chunks.isEmpty()) {
            line += QStringLiteral("  active in %1 chunk(s)").arg(record.active_chunks.size());
        }
        if (record.completed_chunk) {
            line += QStringLiteral("  completed chunk %1 (%2)")
                        .arg(*record.completed_chunk)
                        .arg(seconds(record.completed_s.value_or(0.0)));
        }
        if (!record.error.isEmpty()) {
            line += QStringLiteral("  ERROR %1%2")
                        .arg(record.error_code.isEmpty() ? QString()
                                                         : record.error_code + QStringLiteral(": "),
                             record.error);
        }
        lines.append(line);
    }
    return lines;
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
    }
    return {};
}

} // namespace lbm::session
