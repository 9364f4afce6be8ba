#pragma once
// One kept session at a glance, read from its document: when, where, what it ran (profile,
// faults), how far it got, how it ended, how often the simulated viewer stalled. What File ▸
// Recent Sessions lists and what the window offers to reopen after a crash.

#include "app/engine/session_archive.h"
#include "app/report/session_outcome.h"

#include <QString>

#include <optional>

namespace lbm::ui {

struct SessionSummary {
    lbm::engine::ArchivedSession archived;
    bool readable = false;
    QString problem; // why the document could not be read
    QString endpoint;
    QString profile; // the simulator's, empty for a real server
    QString faults;  // "stall@5 seam@6", empty for none
    qsizetype chunks = 0;
    qint64 expected_chunks = 0;
    lbm::report::SessionOutcome outcome;
    std::optional<int> underruns; // the simulated viewer's, when the metrics were stored
    // The visual quality flags raised ("seam 1, blur 10"); empty: clean or not analysed.
    QString quality_flags;
    bool quality_analysed = false;
    // Chunks with a quality result; fewer than chunks while the analysis was still running
    // when the document was written, or when the session ended before it finished.
    qsizetype quality_chunks = 0;
    // "clean", "seam 1, freeze 1", with "(3 of 4 chunks analysed)" when not every chunk was.
    QString qualityText() const;

    // "2026-12-03 23:48 · h200-sp4 · 18/24 chunks · stopped" for a menu.
    QString label() const;
    // The rest, for a tooltip: endpoint, faults, underruns, how it ended, the folder.
    QString details() const;
};

SessionSummary readSessionSummary(const lbm::engine::ArchivedSession& archived);

} // namespace lbm::ui
