#pragma once
// Every file the program saves (session documents, CSV, workloads, chart PNGs) is written
// here: to a temporary file beside the target, renamed over it only when every byte is on
// disk, so a failed save never leaves a truncated or empty file where a good one was.

#include <QByteArray>
#include <QString>

namespace lbm::report {

// Throws ReportError "Cannot write PATH: REASON. <what to do>" naming the system's reason
// (e.g. "No space left on device"); the target is then untouched.
void writeFileAtomically(const QString& path, const QByteArray& bytes);

} // namespace lbm::report
