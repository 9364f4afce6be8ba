#include "app/session/session_notes.h"

#include "app/protocol/server_error_text.h"
#include "app/session/interaction_timeline.h"

#include <QJsonArray>

namespace lbm::session {

QString serverFailureMessage(const QString& server_text, std::size_t chunks_received,
                             long long expected_chunks, long long expected_frames) {
    const QString advice = protocol::serverErrorAdvice(server_text);
    const QString then = advice.isEmpty() ? QString() : QStringLiteral(" ") + advice;
    if (chunks_received == 0) {
        // A stall is the server giving up on a session it had accepted, not a refusal.
        const bool stalled = server_text.startsWith(QStringLiteral("Stall timeout"));
        return QStringLiteral("The server %1 the session: %2%3")
            .arg(stalled ? QStringLiteral("ended") : QStringLiteral("refused"), server_text, then);
    }
    return QStringLiteral("Server rejected the session after %1 chunk(s): %2 (requested %3 "
                          "chunks = num_frames %4)%5")
        .arg(chunks_received)
        .arg(server_text)
        .arg(expected_chunks)
        .arg(expected_frames)
        .arg(then);
}

QString failureForPeople(const SessionResult& result) {
    if (result.ok || !result.server_error || result.records.empty()) {
        return result.error;
    }
    const qsizetype chunks = result.records.size();
    const QString advice = protocol::serverErrorAdvice(*result.server_error);
    return QStringLiteral("The server ended the session with an error after %1 %2: %3%4")
        .arg(chunks)
        .arg(chunks == 1 ? QStringLiteral("chunk") : QStringLiteral("chunks"))
        .arg(*result.server_error)
        .arg(advice.isEmpty() ? QString() : QStringLiteral(" ") + advice);
}

QString connectFailureMessage(const QUrl& url, QAbstractSocket::SocketError error, QString reason) {
    QString hint;
    if (error == QAbstractSocket::ConnectionRefusedError) {
        hint = QStringLiteral(" Nothing is listening there: start the server, or fix "
                              "--host/--port (or --base-url).");
    } else if (error == QAbstractSocket::HostNotFoundError) {
        hint = QStringLiteral(" The host name does not resolve: check --host / --base-url.");
    } else if (error == QAbstractSocket::RemoteHostClosedError &&
               url.scheme() == QStringLiteral("wss")) {
        // What a wss:// URL for a server without TLS on that port usually looks like.
        hint = QStringLiteral(" It hung up during the TLS or WebSocket handshake: check that the "
                              "server serves TLS on this port (a plain server needs ws:// or "
                              "http://).");
    }
    while (reason.endsWith(QLatin1Char('.'))) {
        reason.chop(1);
    }
    return QStringLiteral("Could not connect to %1: %2.%3").arg(url.toString(), reason, hint);
}

QString silentControlLoopWarning(double silent_since_s) {
    return QStringLiteral("WARNING: The server stopped answering session.ping at %1 s while "
                          "chunks kept coming: its control loop has ended (vLLM-Omni's does "
                          "after a binary control message). The session goes on, but the "
                          "server no longer reads session.stop or interactions, and its stall "
                          "timeout no longer applies.")
        .arg(silent_since_s, 0, 'f', 3);
}

QJsonObject sessionNotesJson(const SessionResult& result) {
    QJsonObject notes;
    if (!result.chunks_numbered_by_position.isEmpty()) {
        QJsonArray positions;
        for (const qint64 position : result.chunks_numbered_by_position) {
            positions.append(position);
        }
        notes.insert(QStringLiteral("chunks_numbered_by_position"), positions);
    }
    if (result.control_loop_silent_since_s) {
        notes.insert(QStringLiteral("control_loop_silent_since_s"),
                     *result.control_loop_silent_since_s);
    }
    notes.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(result.warnings));
    return notes;
}

QStringList describeSessionNotes(const QJsonObject& extras) {
    QStringList lines;
    if (extras.contains(QStringLiteral("complete")) &&
        !extras.value(QStringLiteral("complete")).toBool()) {
        lines.append(
            QStringLiteral("Incomplete: %1").arg(extras.value(QStringLiteral("error")).toString()));
    }
    const QJsonArray positions =
        extras.value(QStringLiteral("chunks_numbered_by_position")).toArray();
    if (!positions.isEmpty()) {
        QStringList shown;
        for (const QJsonValue& position : positions) {
            shown.append(QString::number(position.toInteger()));
        }
        lines.append(QStringLiteral("The server sent generation_chunk_index null for chunk(s) %1; "
                                    "they are numbered by their position.")
                         .arg(shown.join(QStringLiteral(", "))));
    }
    const QJsonValue silent = extras.value(QStringLiteral("control_loop_silent_since_s"));
    if (silent.isDouble()) {
        lines.append(QStringLiteral("The server stopped answering session.ping at %1 s while "
                                    "chunks kept coming (its control loop had ended).")
                         .arg(silent.toDouble(), 0, 'f', 3));
    }
    QJsonArray interactions = extras.value(QStringLiteral("interactions")).toArray();
    if (interactions.isEmpty()) {
        interactions = extras.value(QStringLiteral("timeline")).toArray();
    }
    for (const QJsonValue& value : interactions) {
        const InteractionRecord record = InteractionRecord::fromJson(value.toObject());
        QString line = QStringLiteral("Interaction %1  %2")
                           .arg(record.event_id, interactionKindName(record.kind));
        if (!record.summary.isEmpty()) {
            line += QLatin1Char(' ') + record.summary;
        }
        const QString progress = record.describeProgress();
        if (!progress.isEmpty()) {
            line += QStringLiteral("  ") + progress;
        }
        lines.append(line);
    }
    return lines;
}

} // namespace lbm::session
