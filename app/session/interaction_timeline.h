#pragma once
// The one event timeline of a session: for every interaction (scheduled prompt update, ad-hoc
// prompt, camera velocity or target) when it was sent, when the server acknowledged it
// (queued), the first chunk it affected (started_event_ids), the chunks it was in progress in
// (active_event_ids), the chunk it completed in (completed_event_ids), or its error. Times
// are on the session clock, the same one chunk arrivals use, so events and chunks line up.
//
// The real server never reports some of them finished, and the timeline says why rather
// than leaving them pending: a prompt transition that a newer one replaced (pending or under
// way) is "superseded by <id> at chunk g", the chunk the newer one started in; and when the
// session ends, one that got no reply at all is "unanswered", one that was queued but never
// started is "not applied", and one still under way is marked unfinished.
//
// The timeline is a pure fold over TimelineEvents: the network thread applies each event to
// its copy and emits it, every consumer applies it to theirs, and all copies agree.

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>
#include <vector>

namespace lbm::session {

enum class InteractionKind {
    ScheduledPrompt, // a workload's prompt_updates entry (event id chunk-N)
    Prompt,          // an ad-hoc prompt transition
    CameraVelocity,
    CameraTarget,
    Unknown, // an id the server reported that this client never sent (e.g. a server UUID)
};

enum class TimelineEventType {
    Sent,      // the message left this client
    Queued,    // session.interaction.queued
    Started,   // the id is in a media chunk's started_event_ids
    Active,    // ... in active_event_ids
    Completed, // ... in completed_event_ids
    Error,     // an error naming the id, or the client refused to send it
    // The session is over (session.done, or it failed); no event_id. chunk_index: the last
    // media chunk received, if any.
    SessionEnded,
};

struct TimelineEvent {
    double t_s = 0.0; // session clock
    TimelineEventType type = TimelineEventType::Sent;
    QString event_id;
    InteractionKind kind = InteractionKind::Unknown; // meaningful for Sent
    std::optional<qint64> chunk_index;               // Started / Active / Completed
    QString detail;                                  // Sent: what was asked; Error: the message
    QString code;                                    // Error: the server's code, if any
    std::optional<int> transition_chunks;            // Sent prompts: their K
};

struct InteractionRecord {
    enum class State {
        Sent,
        Queued,
        Started,
        Completed,
        Superseded, // a newer prompt transition replaced it
        Unanswered, // the session ended without a reply to it
        NotApplied, // queued, but the session ended before it started
        Failed,
    };

    QString event_id;
    InteractionKind kind = InteractionKind::Unknown;
    QString summary; // the prompt text, or the camera value
    // A prompt's K, the chunks its transition was asked to take: the one place the quality
    // context and the HUD read it from.
    std::optional<int> transition_chunks;
    std::optional<double> sent_s;
    std::optional<double> queued_s;
    std::optional<qint64> started_chunk;
    std::optional<double> started_s; // arrival of started_chunk
    QList<qint64> active_chunks;
    std::optional<qint64> completed_chunk;
    std::optional<double> completed_s;
    QString error; // empty unless failed
    QString error_code;
    std::optional<double> error_s;
    QString superseded_by; // the newer transition's id, empty unless superseded
    std::optional<qint64> superseded_chunk;
    std::optional<double> superseded_s;
    bool session_ended = false; // the session was over before this settled (see state())

    // The furthest stage reached; an error wins over everything, completion over supersession.
    State state() const;
    bool isPrompt() const;
    // "sent 1.234s  queued 1.240s  started chunk 3 (1.9s)  superseded by ui-2 at chunk 5 (2.7s)".
    QString describeProgress() const;
    // The document's object for it, and back (for reports on saved documents).
    QJsonObject toJson() const;
    static InteractionRecord fromJson(const QJsonObject& object);
};

class InteractionTimeline {
public:
    void apply(const TimelineEvent& event);

    // Every event in the order applied (which is time order on the network thread).
    const QList<TimelineEvent>& events() const { return m_events; }
    // One record per event id, in order of first appearance.
    const QList<InteractionRecord>& interactions() const { return m_interactions; }
    const InteractionRecord* find(const QString& event_id) const;
    bool contains(const QString& event_id) const { return find(event_id) != nullptr; }

    // For the session document's "lingbot_monitor" section: one object per interaction.
    QJsonArray toJson() const;
    // Human-readable, one line per interaction ("chunk-2  prompt 'Snow'  sent 1.234s  queued
    // 1.240s  started chunk 3 (1.9s)  completed chunk 5 (2.7s)").
    QStringList describeLines() const;
    // For a per-chunk table: per chunk index, the prompt transitions superseded there
    // ("ui-1 (by ui-2)"), space separated.
    QStringList supersededPerChunk(const std::vector<qint64>& chunk_indices) const;

private:
    InteractionRecord& recordFor(const QString& event_id);
    void supersedeOlderPrompts(const InteractionRecord& newer, const TimelineEvent& event);
    void endSession();

    QList<TimelineEvent> m_events;
    QList<InteractionRecord> m_interactions;
};

QString interactionKindName(InteractionKind kind);
QString interactionStateName(InteractionRecord::State state);
QString timelineEventTypeName(TimelineEventType type);

} // namespace lbm::session

Q_DECLARE_METATYPE(lbm::session::TimelineEvent)
