#pragma once
// The benchmark's printed report and the lines it prints before connecting, exactly as
// benchmark-cli.md describes them: rows f"{label:<44}{value:>16}", 60-wide rulers with
// centred titles, the one-session sections (Cadence, Real time, Playback continuity) or
// the several-session section (Across sessions). Numbers go through printf with the
// benchmark's %-formats, so rounding is Python's (both round the exact binary value).
// Every function returns text without a trailing newline unless it says otherwise.

#include "app/report/session_document.h"
#include "metrics/chunk_record.h"

#include <QString>

#include <optional>

namespace lbm::report {

// f"{label:<44}{value:>16}": never truncates.
QString reportRow(const QString& label, const QString& value);
// title centred in a 60-wide line of fill (str.center / f"{title:=^60}").
QString reportRuler(const QString& title, QChar fill);
// printf("%.*f", decimals, value).
QString formatFixed(double value, int decimals);
// f"{fps:g}" ("16", "12.5").
QString formatFps(double fps);

// "Connecting to URL".
QString connectingLine(const QString& url);
// "Rollout: N chunks, num_frames=F, S.SSs of video".
QString rolloutLine(long long num_chunks, long long num_frames, double video_seconds);
// "Real-time basis: X fps -> a steady 12-frame chunk is D.D ms of video", with
// " (mux label stays M fps)" when mux_fps_when_target_given is set (--target-fps given).
QString realTimeBasisLine(double target_fps, std::optional<int> mux_fps_when_target_given);
// max(1, warmup_chunks) >= num_chunks - 1: no nonterminal steady chunk can exist.
bool leavesNoSteadyChunk(int warmup_chunks, long long num_chunks);
// "WARNING: --warmup-chunks=W leaves no nonterminal steady-state chunk in a N-chunk
// rollout; steady-state metrics will be empty."
QString noSteadyChunkWarning(int warmup_chunks, long long num_chunks);

// --print-chunks: "  chunk %3d  t=%8.3fs  interval=%8.1fms  frames=%3d  bytes=N".
QString chunkProgressLine(const lbm::ChunkRecord& record);
// After the report: "Saved X streamed bytes -> Y playback bytes at PATH" (--save-video).
QString savedVideoLine(qint64 streamed_bytes, qint64 playback_bytes, const QString& path);
// After the report: "Wrote PATH" (--output-json).
QString wroteLine(const QString& path);

// The whole report for a document whose sessions all carry metrics and whose aggregate is
// set (one session: its sections; several: Across sessions), ending with the closing
// ruler and a newline. The header rows come from document.endpoint, document.workload
// (width, height, num_chunks, num_frames) and document.config (target_fps, mux_fps).
// "Video seconds per session" is num_frames / target_fps, the basis every other number in
// the report uses. Throws ReportError when metrics are missing.
QString formatTextReport(const SessionDocument& document);

} // namespace lbm::report
