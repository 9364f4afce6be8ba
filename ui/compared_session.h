#pragma once
// One side of the side-by-side view, resolved from what the user picked and read: a session
// folder as the window keeps them (stream.m4s and session.json), a session document with its
// recording beside it, or a recording with its document beside it. Everything the side shows
// comes from here: the chunk rows, the stored quality analysis, the interaction marks, the
// chunk layout of the recording and a title. A path that does not lead to a recording and a
// readable document gets an error naming the problem and what to pick instead.

#include "app/report/quality_json.h"
#include "app/report/session_document.h"
#include "metrics/chunk_record.h"
#include "ui/chart_event_mark.h"
#include "ui/prompt_interactions.h"

#include <QJsonArray>
#include <QString>

#include <optional>
#include <vector>

namespace lbm::ui {

struct ComparedSession {
    QString document_path;
    QString recording_path;
    report::SessionDocument document;
    std::vector<lbm::ChunkRecord> chunks; // the first session's rows, by generation index
    std::optional<report::SessionQuality> quality;
    QString quality_problem; // why a stored analysis could not be read, or empty

    // Reads path (see above). nullopt with *error naming the path, the problem and the fix.
    static std::optional<ComparedSession> load(const QString& path, QString* error);

    std::vector<int> chunkFrames() const;
    QJsonArray interactions() const;
    std::vector<PromptInteraction> prompts() const;
    // "run video_stream-3f2a… · simulator fast · 16 chunks · 2026-12-03 13:05 UTC".
    QString title() const;
    // "'The road opens…' K=3 at chunk 5 → 7", one per prompt; empty when none.
    QString promptLine() const;
};

// The interaction marks a document's timeline puts on the chunk axis: prompt started and
// completed at their chunks, failures and camera moves between the chunks they were sent
// after (placed by their sent_s against the chunks' arrivals).
std::vector<ChartEventMark> chartMarksFromInteractions(const QJsonArray& interactions,
                                                       const std::vector<lbm::ChunkRecord>& chunks);

} // namespace lbm::ui
