// SessionWorker's interactions: sent at once, held until the session streams, or scheduled
// after a chunk (the session's one prompt scheduler, shared by the workload's prompt_updates
// and the window's "send after chunk N"), and refused on the timeline when they cannot go.

#include "app/protocol/client_messages.h"
#include "app/session/session_worker.h"

#include <QWebSocket>

#include <algorithm>
#include <utility>

namespace lbm::session {

void SessionWorker::insertScheduled(qint64 after_chunk, const PendingInteraction& interaction) {
    // Stable: interactions scheduled after the same chunk go out in the order they were asked.
    const auto at = std::upper_bound(
        m_scheduled.begin(), m_scheduled.end(), after_chunk,
        [](qint64 chunk, const ScheduledInteraction& entry) { return chunk < entry.after_chunk; });
    m_scheduled.insert(at, ScheduledInteraction{after_chunk, interaction});
}

void SessionWorker::fireScheduledUpdates(qint64 chunk_index) {
    while (!m_scheduled.empty() && m_scheduled.front().after_chunk <= chunk_index) {
        const PendingInteraction interaction = m_scheduled.front().interaction;
        m_scheduled.erase(m_scheduled.begin());
        transmit(interaction);
    }
}

void SessionWorker::scheduleInteraction(const PendingInteraction& interaction, qint64 after_chunk) {
    if (m_state == SessionState::Streaming && m_highest_chunk && *m_highest_chunk >= after_chunk) {
        transmit(interaction); // that chunk already landed
        return;
    }
    if (m_state == SessionState::Stopping || m_state == SessionState::Finished) {
        sendInteraction(interaction); // refused on the timeline
        return;
    }
    insertScheduled(after_chunk, interaction);
}

void SessionWorker::sendInteraction(const PendingInteraction& interaction) {
    if (m_state == SessionState::Idle || m_state == SessionState::Connecting) {
        m_waiting_for_start.append(interaction);
        return;
    }
    if (m_state != SessionState::Streaming) {
        TimelineEvent event;
        event.t_s = nowS();
        event.type = TimelineEventType::Error;
        event.event_id = interaction.event_id;
        event.kind = interaction.kind;
        event.detail = m_state == SessionState::Stopping
                           ? QStringLiteral("Not sent: the session is stopping.")
                           : QStringLiteral("Not sent: the session is over.");
        emitTimeline(event);
        return;
    }
    transmit(interaction);
}

void SessionWorker::transmit(const PendingInteraction& interaction) {
    m_socket->sendTextMessage(protocol::toWireText(interaction.message));
    m_awaiting_reply.append(interaction.event_id);
    TimelineEvent event;
    event.t_s = nowS();
    event.type = TimelineEventType::Sent;
    event.event_id = interaction.event_id;
    event.kind = interaction.kind;
    event.detail = interaction.summary;
    event.transition_chunks = interaction.transition_chunks;
    emitTimeline(event);
}

void SessionWorker::refusePending(const QString& reason) {
    const QList<PendingInteraction> waiting = std::exchange(m_waiting_for_start, {});
    for (const PendingInteraction& interaction : waiting) {
        TimelineEvent event;
        event.t_s = nowS();
        event.type = TimelineEventType::Error;
        event.event_id = interaction.event_id;
        event.kind = interaction.kind;
        event.detail = QStringLiteral("Not sent: %1").arg(reason);
        emitTimeline(event);
    }
}

} // namespace lbm::session
