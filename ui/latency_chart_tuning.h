#pragma once
// The latency chart's numbers, shared by its widget (latency_chart.cpp) and its redraw
// (latency_chart_redraw.cpp): how often it redraws, when bars merge, where marks ride, when a
// bar is an outlier, and the chunk in flight's colour rule.

#include "ui/latency_bars_item.h"
#include "ui/latency_chart_model.h"

namespace lbm::ui::chart_tuning {

// ~25 Hz: fast enough to feel live, slow enough that a burst of chunks is one redraw.
inline constexpr int kRedrawCoalesceMs = 40;
// Above this many chunks the whole-session view merges neighbours into one bar (the
// tallest of them, so a late chunk never disappears).
inline constexpr int kMaxBars = 800;
inline constexpr double kBarGap = 0.12;
// Marks ride above the bars, in the top tenth of the plot.
inline constexpr double kMarkBand = 0.94;
// The value axis reaches this much above the tallest bar, so the marks stay clear of it.
inline constexpr double kHeadroom = 1.22;
// A chunk this many times the steady median (or the deadline, if larger) is an outlier: drawn
// clipped and labelled instead of setting the value axis.
inline constexpr double kOutlierFactor = 3.0;
// The chunk axis of a session of unknown length shows at least this many chunks, so its
// first bars are not each a quarter of the plot wide.
inline constexpr int kMinChunkSpan = 8;
// Below this plot height the value axis has three labels.
inline constexpr double kShortPlotHeight = 130.0;
// Below this height the chunk axis goes without its title.
inline constexpr int kChunkAxisTitleMinHeight = 300;

// The chunk in flight: amber near its deadline and red past it (the first chunk has no
// deadline: its wait is the TTFC).
inline LatencyBarsItem::Kind waitingKind(const LatencyChartModel::Waiting& waiting,
                                         double deadline_ms) {
    const bool has_deadline = waiting.index > 0;
    return has_deadline && waiting.waited_ms > deadline_ms         ? LatencyBarsItem::Kind::Late
           : has_deadline && waiting.waited_ms > 0.8 * deadline_ms ? LatencyBarsItem::Kind::InFlight
                                                                   : LatencyBarsItem::Kind::Waiting;
}

} // namespace lbm::ui::chart_tuning
