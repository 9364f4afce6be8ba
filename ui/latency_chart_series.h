#pragma once
// The Qt Charts pieces of the latency chart and how they look: the warmup shade, the deadline
// and percentile lines (p50 solid, p95 dashed, p99 dotted, each its own colour), the
// comparison trace, and the marks drawn above the bars (prompt sent / started / completed,
// camera velocities sent, failures, simulated viewer stalls), each kind its own symbol. Also
// the legend, listing only what is on screen. The bars are a scene item (LatencyBarsItem), and
// so are the words on the plot (LatencyChartAnnotations).

#include "ui/interaction_marks.h"

#include <QPalette>
#include <QString>
#include <QStringList>

class QAreaSeries;
class QChart;
class QLineSeries;
class QScatterSeries;
class QAbstractSeries;

namespace lbm::ui {

class LatencyBarsItem;
class LatencyChartAnnotations;

struct LatencyChartSeries {
    // Creates every series in chart (owned by it) and the bar item.
    explicit LatencyChartSeries(QChart* chart);

    QList<QAbstractSeries*> all() const;
    QList<QScatterSeries*> marks() const;
    void applyPalette(const QPalette& palette);

    QAreaSeries* warmup = nullptr;
    QLineSeries* deadline = nullptr;
    QLineSeries* p50 = nullptr;
    QLineSeries* p95 = nullptr;
    QLineSeries* p99 = nullptr;
    QLineSeries* comparison = nullptr;
    InteractionMarks interactions;
    QScatterSeries* stalls = nullptr;
    LatencyBarsItem* bars = nullptr;
    LatencyChartAnnotations* annotations = nullptr;
};

// What the legend names: one entry per kind of thing drawn.
struct LegendContent {
    bool on_time = false;
    bool late = false;
    bool first = false;
    // The chunk in flight, drawn grey while it waits, amber near its deadline and red past it:
    // its entry has the bar's colour.
    enum class Waiting { None, Waiting, NearDeadline, Late };
    Waiting waiting = Waiting::None;
    double deadline_ms = 0.0;
    int warmup_chunks = 0;
    bool stalls = false;
    bool prompt_marks = false;
    bool camera_marks = false;
    bool failures = false;
    QString comparison_label; // empty: none
    // The percentile lines have no entry: each is named, in its colour, where it meets the
    // plot's right edge, and a third legend line cost a 720 px window its chunk axis.
};

QString legendHtml(const LegendContent& content, const QPalette& palette);

} // namespace lbm::ui
