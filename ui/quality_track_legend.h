#pragma once
// The words around the quality track: its one-line summary (chunks analysed, flagged, the
// count per flag) and its legend, naming only what is drawn, in the latency chart's style.

#include "app/quality/chunk_quality.h"
#include "app/quality/quality_settings.h"

#include <QPalette>
#include <QString>

#include <vector>

namespace lbm::ui {

struct QualityLegendContent {
    quality::QualityThresholds thresholds;
    bool freeze = false;       // a freeze mark is drawn
    bool transition = false;   // a prompt transition is shaded
    bool excused_seam = false; // a hatched seam bar: over the threshold, explained, not flagged
    bool prompt_marks = false; // prompt sent / started / completed marks
    bool camera_marks = false;
};

QString qualityLegendHtml(const QualityLegendContent& content, const QPalette& palette);
// "Visual quality: 24 chunks analysed · 12 flagged · seam 1 · freeze 1 · ..."; chunks_per_column
// above 1 says the view is decimated.
QString qualitySummaryText(const std::vector<quality::ChunkQuality>& chunks, int chunks_per_column);

} // namespace lbm::ui
