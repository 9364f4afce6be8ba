#pragma once
// The interaction marks both charts draw over the chunk axis: prompt sent, started and
// completed, camera velocity sent, and failed. One set of shapes and colours, so the latency
// chart and the Quality track under it read the same; each chart picks the marks' size.

#include <QList>
#include <QScatterSeries>

class QChart;
class QColor;
class QPalette;

namespace lbm::ui {

struct InteractionMarks {
    QScatterSeries* prompt_sent = nullptr;
    QScatterSeries* prompt_started = nullptr;
    QScatterSeries* prompt_completed = nullptr;
    QScatterSeries* camera_sent = nullptr;
    QScatterSeries* failed = nullptr;

    // The five series, owned by chart (not yet added to it), their markers scale times the
    // latency chart's size.
    static InteractionMarks create(QChart* chart, qreal scale);
    // Their colours; the chart theme resets series colours, so after every palette change.
    void applyPalette(const QPalette& palette) const;
    // Camera first, so the prompt marks draw over it.
    QList<QScatterSeries*> all() const {
        return {camera_sent, prompt_started, prompt_sent, prompt_completed, failed};
    }
};

// One mark series, owned by chart (the latency chart's stall stars use it too).
QScatterSeries* makeMarkSeries(QChart* chart, const QString& name,
                               QScatterSeries::MarkerShape shape, qreal size);
// A mark's fill and its darker border.
void styleMarks(QScatterSeries* marks, const QColor& color);

} // namespace lbm::ui
