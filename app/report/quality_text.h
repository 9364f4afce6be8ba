#pragma once
// The visual quality analysis in words and columns: the "Visual quality" section printed
// after the benchmark's own report (whose sections stay as they are), and the per-chunk CSV
// columns (quality_flags = the chunk's flags joined by ';', empty when clean, then the
// numeric signals).

#include "app/report/chunk_csv.h"
#include "app/report/quality_json.h"

#include <QString>

#include <utility>
#include <vector>

namespace lbm::report {

// The section for the sessions that were analysed (session_index, analysis), framed by
// 60-wide rulers like the report's, ending with a newline; empty when the list is empty.
// Per flag kind: its threshold and the chunks it flagged; then the worst seam, the longest
// freeze, the lowest sharpness, the largest colour drift and the transitions on time. With
// several sessions each gets a "Session N" heading.
QString formatQualitySection(const std::vector<std::pair<int, SessionQuality>>& sessions);
// The same for every session of a document that carries an analysis (empty when none does).
// Throws ReportError when a stored analysis is malformed.
QString formatQualitySection(const SessionDocument& document);

// "3, 6-9, 12": chunk indices in order, runs of consecutive ones as ranges; "none" if empty.
QString chunkRanges(const std::vector<qint64>& chunks);

// Appends quality_flags, change_median, boundary_change, seam_score, frozen_frames,
// sharpness, sharpness_ratio and chroma_drift; a row whose chunk was not analysed gets
// empty fields.
void addQualityColumns(ChunkCsvTable& table, const std::vector<quality::ChunkQuality>& chunks);

} // namespace lbm::report
