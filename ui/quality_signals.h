#pragma once
// The visual quality analysis as the window reads it: each per-chunk signal as a multiple of
// its flag threshold (1 = flagged, whatever the unit: a seam score, repeated frames, a
// sharpness loss, levels of chroma drift), the "near its threshold" rule the counters colour
// amber by, a chunk described for a tooltip, and the scrub-bar marks for flagged chunks.

#include "app/quality/chunk_quality.h"
#include "app/quality/quality_settings.h"
#include "ui/recording_player.h"
#include "ui/scrub_bar.h"

#include <QList>
#include <QPalette>
#include <QString>

#include <optional>
#include <vector>

namespace lbm::ui {

// A signal at this share of its threshold is near it (amber), as a buffer nearly dry is.
inline constexpr double kNearThresholdShare = 0.75;

// seam_score ÷ the seam threshold; nullopt for the first chunk (no boundary before it).
std::optional<double> seamLevel(const quality::ChunkQuality& chunk,
                                const quality::QualityThresholds& thresholds);
// Longest run of repeated frames ÷ the frames a freeze needs.
double freezeLevel(const quality::ChunkQuality& chunk,
                   const quality::QualityThresholds& thresholds);
// The sharpness lost against the reference ÷ the loss a blur flag allows (1 − blur_ratio):
// 0 while as sharp as the reference (or sharper), 1 at the threshold.
double blurLevel(const quality::ChunkQuality& chunk, const quality::QualityThresholds& thresholds);
// chroma_drift ÷ the tint threshold.
double tintLevel(const quality::ChunkQuality& chunk, const quality::QualityThresholds& thresholds);

// Whether the chunk's signal for flag is at kNearThresholdShare of its threshold or more
// (flagged or not). Seam, blur and tint inside a prompt transition are expected and never
// near; a transition has no continuous signal and is never near.
bool nearThreshold(quality::QualityFlag flag, const quality::ChunkQuality& chunk,
                   const quality::QualityThresholds& thresholds);

// For a tooltip: the chunk's flags, each signal against its threshold, the transition and
// the notes, one per line.
QString describeChunkQuality(const quality::ChunkQuality& chunk,
                             const quality::QualityThresholds& thresholds);
// One line for a flagged chunk: "chunk 6: seam (score 20.6, flag at 3.0)".
QString describeChunkFlags(const quality::ChunkQuality& chunk,
                           const quality::QualityThresholds& thresholds);

// A Flag mark for every flagged chunk, at its first frame and spanning its frames, in the
// colour of its first flag, its tooltip naming the flags and their numbers.
// first_frame_of_chunk[i] is where generation chunk i starts in the recording (frame index);
// chunks past its end are left out.
QList<ScrubMark> qualityScrubMarks(const std::vector<quality::ChunkQuality>& chunks,
                                   const std::vector<int>& first_frame_of_chunk,
                                   const quality::QualityThresholds& thresholds,
                                   const QPalette& palette);
// The same as RecordingPlayer::open() takes them (it places each at its chunk's first frame
// and spans the chunk).
QList<ChunkMark> qualityChunkMarks(const std::vector<quality::ChunkQuality>& chunks,
                                   const quality::QualityThresholds& thresholds,
                                   const QPalette& palette);

} // namespace lbm::ui
