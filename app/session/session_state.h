#pragma once
// Where a session is in its life, as the UI shows it.

#include <QMetaType>
#include <QString>

namespace lbm::session {

enum class SessionState {
    Idle,       // not started
    Connecting, // TCP / TLS / WebSocket handshake
    Streaming,  // session.start sent; chunks may arrive
    Stopping,   // session.stop sent, waiting for session.done
    Finished,   // done, failed or aborted; see SessionResult
};

inline QString sessionStateName(SessionState state) {
    switch (state) {
    case SessionState::Idle:
        return QStringLiteral("idle");
    case SessionState::Connecting:
        return QStringLiteral("connecting");
    case SessionState::Streaming:
        return QStringLiteral("streaming");
    case SessionState::Stopping:
        return QStringLiteral("stopping");
    case SessionState::Finished:
        return QStringLiteral("finished");
    }
    return {};
}

} // namespace lbm::session

Q_DECLARE_METATYPE(lbm::session::SessionState)
