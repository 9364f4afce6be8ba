#pragma once
// How a session's end and the server's quirks read to a person, in one place so `bench`, the
// GUI and `report` word them alike: why a connection failed, the refusal message for a
// server error that ends the session, and the notes a session document keeps about what the server
// did (chunks it sent without an index, a control loop that stopped answering), written by bench
// and the GUI under "lingbot_monitor" and read back by `report`.

#include "app/session/session_result.h"

#include <QAbstractSocket>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace lbm::session {

// The failure text for a server error that ends the session. Before any chunk it is the
// server refusing the session ("The server refused the session: <text>"; "ended" for a
// stall), after some the
// benchmark's "Server rejected the session after N chunk(s): <text> (requested ...)"; the
// server's text is quoted verbatim, followed by what to do when the text is a known one.
QString serverFailureMessage(const QString& server_text, std::size_t chunks_received,
                             long long expected_chunks, long long expected_frames);

// The failure for a person reading a window: as error, except that a server error after
// chunks arrived reads as the server ending the session ("rejected" is kept for refusals of
// session.start; the benchmark's wording stays in error, bench and the document).
QString failureForPeople(const SessionResult& result);

// "Could not connect to URL: REASON." plus a hint for the errors that have one.
QString connectFailureMessage(const QUrl& url, QAbstractSocket::SocketError error, QString reason);

// The warning for a control loop that stopped answering pings at silent_since_s.
QString silentControlLoopWarning(double silent_since_s);

// The document's notes on a result (merged into its "lingbot_monitor" session object):
// "chunks_numbered_by_position" and "control_loop_silent_since_s" when they apply, and
// "warnings".
QJsonObject sessionNotesJson(const SessionResult& result);
// One line per note in such an object, plus its interactions ("interactions" or the GUI's
// "timeline"), for `report`.
QStringList describeSessionNotes(const QJsonObject& monitor_extras);

} // namespace lbm::session
