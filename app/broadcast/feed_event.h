#pragma once
// One message of the viewer page's live feed (server-sent events): its event name and JSON.
// History events (the session, each chunk, each interaction) are replayed to a viewer that
// connects late, so its chart starts whole; the state event is kept as the latest only.

#include <QByteArray>
#include <QMetaType>

namespace lbm::broadcast {

struct FeedEvent {
    enum class Keep { History, LatestState, Nothing };
    QByteArray name; // "session", "chunk", "interaction", "state"
    QByteArray json; // one line
    Keep keep = Keep::History;
    // The SSE wire form: "event: NAME\ndata: JSON\n\n".
    QByteArray wire() const { return "event: " + name + "\ndata: " + json + "\n\n"; }
};

} // namespace lbm::broadcast

Q_DECLARE_METATYPE(lbm::broadcast::FeedEvent)
