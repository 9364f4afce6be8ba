#pragma once
// How a kept session ended, said the same way in its document, the window's title and banner,
// File ▸ Recent Sessions and `report`: finished, stopped (by the user), failed (with the
// server's or the client's message), interrupted (a signal, the window closed mid-session),
// still running, or ended unexpectedly (the document still says running, but the program that
// wrote it is gone: killed, crashed, or the machine lost power).
//
// The writer records the outcome in the document's "lingbot_monitor" section ("outcome",
// "outcome_detail", and while running the writer's process id and host), so a reader can
// tell a session in progress from one whose program died. Documents written before the field
// existed are judged from "complete" and "incomplete_reason".

#include "app/report/session_document.h"

#include <QString>

#include <functional>

namespace lbm::report {

enum class OutcomeKind { Finished, Stopped, Failed, Interrupted, Running, EndedUnexpectedly };

struct SessionOutcome {
    OutcomeKind kind = OutcomeKind::Finished;
    QString detail; // prose: the failure's message, the signal, who stopped it

    // "finished", "stopped", "failed", "interrupted", "running", "ended unexpectedly".
    QString word() const;
    // One sentence for a banner or a report line, e.g. "Stopped by the user after 18 of 24
    // chunks." or "Failed after 3 chunks: No media chunk for 6 s after 3 chunks."
    QString sentence(qsizetype chunks, qint64 expected_chunks) const;
};

// Writes outcome into document's monitor section (and marks it complete only when finished).
void recordOutcome(SessionDocument& document, const SessionOutcome& outcome);
// What tells one process of this machine from a later one given the same id after it died:
// the boot and the process's start time ("<boot id>/<start ticks>", from /proc). Empty where
// the system does not say.
QString processStartMark(qint64 pid);
// Whether the process that had id pid and start_mark (processStartMark when it was recorded)
// still runs. A process now holding that id with another start mark is a different program
// (the id was reused), so the answer is no. An empty start_mark (documents written before it
// was recorded) is judged on the id alone.
bool processRunning(qint64 pid, const QString& start_mark);
// The outcome document records; a "running" one whose writer (this host, pid and start mark)
// is gone reads as ended unexpectedly. process_running is asked about the writer.
SessionOutcome
readOutcome(const SessionDocument& document,
            const std::function<bool(qint64, const QString&)>& process_running = processRunning);

} // namespace lbm::report
