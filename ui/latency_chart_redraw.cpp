// The latency chart's redraw, step by step: which chunks are in view, their bars, the
// comparison and percentile lines, the value axis from the steady chunks, the marks, the
// warmup shade, the words on the plot and the summary line.

#include "ui/chart_report_image.h"
#include "ui/duration_text.h"
#include "ui/latency_chart.h"
#include "ui/latency_chart_annotations.h"
#include "ui/latency_chart_tuning.h"
#include "ui/unbroken_text.h"

#include <QAreaSeries>
#include <QChart>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace lbm::ui {

using namespace chart_tuning;

void LatencyChart::redraw() {
    ++m_redraws;
    const ChartWindow window = visibleWindow();
    LegendContent legend;
    legend.deadline_ms = m_model->deadlineMs();
    legend.warmup_chunks = m_model->warmupChunks();
    std::vector<LatencyBarsItem::Bar> bars = collectBars(window, legend);
    const QList<QPointF> comparison = drawComparison(window, legend);
    const std::vector<double> percentiles = drawPercentiles(window);
    m_series->deadline->replace({QPointF(window.x_min, m_model->deadlineMs()),
                                 QPointF(window.x_max, m_model->deadlineMs())});

    m_axis_x->setRange(window.x_min, window.x_max);
    setChunkTicks(window.span);
    m_axis_y->setRange(0.0, steadyValueTop(bars, comparison, percentiles) * kHeadroom);
    m_axis_y->applyNiceNumbers();
    // A short plot (Compare at 720 px) cannot fit five value labels: Qt would elide them all.
    if (m_chart->plotArea().height() < kShortPlotHeight) {
        m_axis_y->setTickCount(3);
    }
    const double top = m_axis_y->max();
    m_series->bars->setBars(std::move(bars));
    drawEventMarks(window, top, legend);
    drawStallMarks(window, top, legend);
    drawWarmup(window, top);
    drawAnnotations();

    legend.on_time = legend.on_time || m_model->chunkCount() == 0;
    m_legend->setText(legendHtml(legend, palette()));
    updateSummary();
}

LatencyChart::ChartWindow LatencyChart::visibleWindow() const {
    const LatencyChartModel& model = *m_model;
    const int count = model.chunkCount();
    const int known = count + (model.waiting() ? 1 : 0);
    ChartWindow window;
    // The session as far as it is known: the chunks landed or awaited, the chunks announced,
    // and the comparison's.
    window.span =
        std::max({known, model.expectedChunks(), static_cast<int>(model.comparison().size()),
                  model.expectedChunks() > 0 ? 1 : kMinChunkSpan});
    if (m_follow && window.span > m_window_chunks) {
        // Outgrown the followed window: the newest chunks, scrolling.
        window.first = std::max(0, known - m_window_chunks);
        window.span = m_window_chunks;
    } else if (!m_follow && count > kMaxBars) {
        window.bucket = (count + kMaxBars - 1) / kMaxBars;
    }
    window.x_min = window.first - 0.5;
    window.x_max = window.first + window.span - 0.5;
    return window;
}

std::vector<LatencyBarsItem::Bar> LatencyChart::collectBars(const ChartWindow& window,
                                                            LegendContent& legend) {
    const LatencyChartModel& model = *m_model;
    const int count = model.chunkCount();
    const double deadline_ms = model.deadlineMs();
    m_bucket = window.bucket;
    std::vector<LatencyBarsItem::Bar> bars;
    int plotted_chunks = 0;
    for (int start = window.first; start < count; start += window.bucket) {
        const int end = std::min(count, start + window.bucket);
        LatencyBarsItem::Bar bar;
        for (int i = start; i < end; ++i) {
            bar.value_ms = std::max(bar.value_ms, model.record(i).interArrivalMs());
        }
        const bool is_first = model.record(start).index == 0 && window.bucket == 1;
        plotted_chunks += end - start;
        bar.x0 = start - 0.5 + kBarGap;
        bar.x1 = end - 0.5 - kBarGap;
        bar.first_chunk = model.record(start).index;
        bar.last_chunk = model.record(end - 1).index;
        bar.kind = is_first                     ? LatencyBarsItem::Kind::First
                   : bar.value_ms > deadline_ms ? LatencyBarsItem::Kind::Late
                                                : LatencyBarsItem::Kind::OnTime;
        legend.first = legend.first || is_first;
        legend.late = legend.late || bar.kind == LatencyBarsItem::Kind::Late;
        legend.on_time = legend.on_time || bar.kind == LatencyBarsItem::Kind::OnTime;
        bars.push_back(bar);
    }
    m_plotted_chunks = plotted_chunks;
    m_plotted_bars = static_cast<int>(bars.size());
    if (const auto& waiting = model.waiting()) {
        // The chunk in flight: a bar that grows with the wait, amber near the deadline and
        // red past it (the first chunk has no deadline: its wait is the TTFC).
        LatencyBarsItem::Bar bar;
        bar.x0 = count - 0.5 + kBarGap;
        bar.x1 = count + 0.5 - kBarGap;
        bar.value_ms = waiting->waited_ms;
        bar.first_chunk = bar.last_chunk = waiting->index;
        bar.kind = waitingKind(*waiting, deadline_ms);
        bars.push_back(bar);
        legend.waiting = bar.kind == LatencyBarsItem::Kind::Late ? LegendContent::Waiting::Late
                         : bar.kind == LatencyBarsItem::Kind::InFlight
                             ? LegendContent::Waiting::NearDeadline
                             : LegendContent::Waiting::Waiting;
    }
    return bars;
}

QList<QPointF> LatencyChart::drawComparison(const ChartWindow& window, LegendContent& legend) {
    const auto& records = m_model->comparison();
    QList<QPointF> points;
    const int end =
        std::min(static_cast<int>(records.size()), static_cast<int>(std::ceil(window.x_max)));
    for (int i = std::max(0, window.first); i < end; i += window.bucket) {
        const auto& record = records[static_cast<size_t>(i)];
        points.append(QPointF(static_cast<double>(record.index), record.interArrivalMs()));
    }
    m_series->comparison->replace(points);
    m_series->comparison->setVisible(!records.empty());
    m_series->comparison->setName(m_model->comparisonLabel());
    legend.comparison_label = m_model->comparisonLabel();
    return points;
}

std::vector<double> LatencyChart::drawPercentiles(const ChartWindow& window) {
    // The session's percentiles as the counters show them.
    QLineSeries* const lines[] = {m_series->p50, m_series->p95, m_series->p99};
    const double fractions[] = {0.50, 0.95, 0.99};
    const char* const names[] = {"p50", "p95", "p99"};
    std::vector<double> shown;
    for (int i = 0; i < 3; ++i) {
        QList<QPointF> points;
        const auto percentile = m_model->percentileMs(fractions[i]);
        if (m_percentiles_visible && percentile) {
            points = {QPointF(window.x_min, *percentile), QPointF(window.x_max, *percentile)};
            lines[i]->setName(
                QStringLiteral("%1 %2").arg(QLatin1String(names[i]), durationText(*percentile)));
            shown.push_back(*percentile);
        }
        lines[i]->replace(points);
    }
    return shown;
}

double LatencyChart::steadyValueTop(const std::vector<LatencyBarsItem::Bar>& bars,
                                    const QList<QPointF>& comparison,
                                    const std::vector<double>& percentiles) const {
    // The steady chunks set the scale: not the first chunk (its TTFC is seconds, a compiled
    // deploy's minutes), not the chunk in flight (a stall grows it without bound). What lies
    // far above them is an outlier, drawn clipped at the top with its value written on it, so
    // one 100 s stall does not flatten every other bar to a line.
    std::vector<double> steady;
    // The landed chunks' bars come first; the chunk in flight's, if any, after them.
    for (std::size_t i = 0; i < bars.size() && i < static_cast<std::size_t>(m_plotted_bars); ++i) {
        const auto& bar = bars[i];
        if (bar.kind == LatencyBarsItem::Kind::OnTime || bar.kind == LatencyBarsItem::Kind::Late) {
            steady.push_back(bar.value_ms);
        }
    }
    for (const QPointF& point : comparison) {
        if (point.x() > 0) {
            steady.push_back(point.y());
        }
    }
    const double deadline_ms = m_model->deadlineMs();
    if (steady.empty()) {
        return deadline_ms;
    }
    const auto middle = steady.begin() + static_cast<std::ptrdiff_t>(steady.size() / 2);
    std::nth_element(steady.begin(), middle, steady.end());
    const double outlier_above = kOutlierFactor * std::max(*middle, deadline_ms);
    double top = deadline_ms;
    for (const double value : steady) {
        if (value <= outlier_above) {
            top = std::max(top, value);
        }
    }
    for (const double value : percentiles) {
        if (value <= outlier_above) {
            top = std::max(top, value);
        }
    }
    return top;
}

void LatencyChart::drawEventMarks(const ChartWindow& window, double top, LegendContent& legend) {
    const double mark_y = top * kMarkBand;
    QList<QPointF> prompt_sent, prompt_started, prompt_completed, camera_sent, failed;
    const auto [first_event, last_event] = m_model->eventsIn(window.x_min, window.x_max);
    for (std::size_t e = first_event; e < last_event; ++e) {
        const ChartEventMark& mark = m_model->events()[e];
        const QPointF point(mark.chunk_position, mark_y);
        if (mark.kind == ChartEventMark::Kind::Failed) {
            failed.append(point);
            legend.failures = true;
        } else if (mark.subject == ChartEventMark::Subject::Camera) {
            camera_sent.append(QPointF(mark.chunk_position, top * (kMarkBand - 0.07)));
            legend.camera_marks = true;
        } else {
            legend.prompt_marks = true;
            (mark.kind == ChartEventMark::Kind::Sent      ? prompt_sent
             : mark.kind == ChartEventMark::Kind::Started ? prompt_started
                                                          : prompt_completed)
                .append(point);
        }
    }
    const InteractionMarks& marks = m_series->interactions;
    marks.prompt_sent->replace(prompt_sent);
    marks.prompt_started->replace(prompt_started);
    marks.prompt_completed->replace(prompt_completed);
    marks.camera_sent->replace(camera_sent);
    marks.failed->replace(failed);
}

void LatencyChart::drawStallMarks(const ChartWindow& window, double top, LegendContent& legend) {
    // One star per bar that holds a stall (a decimated bar may stand for several), above the
    // bar.
    const LatencyChartModel& model = *m_model;
    const int count = model.chunkCount();
    QList<QPointF> stalls;
    for (int start = window.first; start < count; start += window.bucket) {
        const int end = std::min(count, start + window.bucket);
        for (int i = start; i < end; ++i) {
            if (model.stallMs(i) > 0) {
                double bar = 0.0;
                for (int j = start; j < end; ++j) {
                    bar = std::max(bar, model.record(j).interArrivalMs());
                }
                const double x = window.bucket == 1 ? static_cast<double>(model.record(i).index)
                                                    : (start + end - 1) / 2.0;
                legend.stalls = true;
                // A clipped bar's star is in its value label (drawn over the bars).
                if (bar <= top) {
                    stalls.append(QPointF(x, bar + top * 0.04));
                }
                break;
            }
        }
    }
    m_series->stalls->replace(stalls);
}

void LatencyChart::setChunkTicks(int span) {
    setChunkAxisTicks(m_axis_x, span);
}

void LatencyChart::drawWarmup(const ChartWindow& window, double top) {
    // The warmup shade fills the plot's full height, whatever the nice axis maximum is.
    QList<QPointF> warmup;
    const double warmup_end = std::min<double>(m_model->warmupChunks() - 0.5, window.x_max);
    if (m_model->warmupChunks() > 0 && warmup_end > window.x_min) {
        warmup = {QPointF(std::max(window.x_min, -0.5), top), QPointF(warmup_end, top)};
    }
    m_series->warmup->upperSeries()->replace(warmup);
}

void LatencyChart::drawAnnotations() {
    const double top = m_axis_y->max();
    std::vector<LatencyChartAnnotations::Outlier> outliers;
    const auto& waiting = m_model->waiting();
    for (const auto& bar : m_series->bars->bars()) {
        // A late chunk in flight is labelled with its wait even inside the axis: the figure
        // the title, banner and HUD show.
        const bool late_in_flight = waiting && bar.first_chunk == waiting->index &&
                                    waiting->waited_ms > m_model->deadlineMs();
        if (bar.value_ms <= top && !late_in_flight) {
            continue;
        }
        const QString value = durationText(bar.value_ms);
        QString text = value;
        if (waiting && bar.first_chunk == waiting->index) {
            text = waiting->ended ? tr("waited %1, none came").arg(value)
                                  : tr("waiting %1").arg(value);
        } else if (bar.first_chunk == 0 && bar.last_chunk == 0) {
            text = tr("TTFC %1").arg(value);
        } else if (holdsStall(bar)) {
            text = QStringLiteral("\u2605 ") + value; // the stall star of the legend
        }
        const bool in_flight = waiting && bar.first_chunk == waiting->index;
        outliers.push_back({bar.x0, bar.x1, text, bar.value_ms > top, bar.value_ms, in_flight});
    }
    m_series->annotations->setOutliers(std::move(outliers));

    std::vector<LatencyChartAnnotations::LineLabel> lines;
    lines.push_back({m_model->deadlineMs(),
                     tr("deadline %1").arg(durationText(m_model->deadlineMs())),
                     m_series->deadline->pen().color()});
    for (QLineSeries* line : {m_series->p50, m_series->p95, m_series->p99}) {
        if (m_percentiles_visible && line->count() > 0) {
            lines.push_back({line->at(0).y(), line->name(), line->pen().color()});
        }
    }
    m_series->annotations->setLineLabels(std::move(lines));
    // Room for them right of the plot (set only when it changes: a new margin lays the chart
    // out again).
    const int gutter = static_cast<int>(m_series->annotations->lineLabelGutter());
    const QMargins margins(4, 4, 4 + gutter, 4);
    if (m_chart->margins() != margins) {
        m_chart->setMargins(margins);
    }
}

bool LatencyChart::holdsStall(const LatencyBarsItem::Bar& bar) const {
    // The rows a bar stands for, from its edges (collectBars puts row r at r - 0.5 + gap).
    const auto first = static_cast<int>(std::lround(bar.x0 - kBarGap + 0.5));
    const auto end =
        std::min(static_cast<int>(std::lround(bar.x1 + kBarGap + 0.5)), m_model->chunkCount());
    for (int row = std::max(0, first); row < end; ++row) {
        if (m_model->stallMs(row) > 0) {
            return true;
        }
    }
    return false;
}

void LatencyChart::updateSummary() {
    const LatencyChartModel& model = *m_model;
    const int count = model.chunkCount();
    const int late_count = model.lateChunkCount();
    QString summary;
    // Named only beside a comparison, which is what the name tells apart.
    if (!model.primaryLabel().isEmpty() && !model.comparison().empty()) {
        summary = model.primaryLabel() + QStringLiteral(" · ");
    }
    summary += model.expectedChunks() > 0
                   ? tr("%1/%2 chunks").arg(count).arg(model.expectedChunks())
                   : (count == 1 ? tr("1 chunk") : tr("%1 chunks").arg(count));
    const int judged = std::max(0, count - 1);
    // "after chunk 0": the chart judges every chunk but the first (warmup included); the SLO
    // attainment counter judges the steady chunks only, so the two shares differ on purpose.
    const QString late = tr("late %1 of %2 (%3%)")
                             .arg(late_count)
                             .arg(judged)
                             .arg(judged > 0 ? 100.0 * late_count / judged : 0.0, 0, 'f', 1);
    const QString after_first = tr("after chunk 0");
    summary += tr(" · %1 %2").arg(late, after_first);
    // A chunk still in flight is not counted above until it lands; once it is past the
    // deadline it is late whatever happens, and the summary says so instead of "late 0".
    if (const auto& waiting = model.waiting();
        waiting && waiting->index > 0 && waiting->waited_ms > model.deadlineMs()) {
        summary += waiting->ended ? tr(" · chunk %1 never came").arg(waiting->index)
                                  : tr(" · chunk %1 late, in flight").arg(waiting->index);
    }
    // The deadline is in the legend: left out here so the late share fits at 1280 px.
    if (m_bucket > 1) {
        summary += tr(" · %1 chunks per bar").arg(m_bucket);
    }
    // On screen the share stays beside its count and the chunk number beside its word (no
    // break inside "late 3 of 15 (20.0%)" or "after chunk 0"), so a narrow dock wraps between
    // the two rather than leaving "(20.0%)" or "0" alone on a line.
    m_summary_text = summary;
    m_summary->setText(QString(summary)
                           .replace(late, unbrokenText(late))
                           .replace(after_first, unbrokenText(after_first)));
    m_summary->setToolTip(summary);
}

} // namespace lbm::ui
