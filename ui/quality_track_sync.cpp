// QualityTrack, the part that keeps it under a latency chart: the same chunk range whatever
// the chart shows, and its plot edges over the chart's.

#include "ui/latency_chart.h"
#include "ui/latency_chart_model.h"
#include "ui/quality_track.h"

#include <QChart>
#include <QChartView>
#include <QValueAxis>

namespace lbm::ui {

void QualityTrack::followAxis(qreal min, qreal max) {
    if (!m_range || m_range->first != min || m_range->second != max) {
        m_range = std::pair{min, max};
        scheduleRedraw();
    }
}

void QualityTrack::syncWith(LatencyChart* chart) {
    for (QMetaObject::Connection& connection : m_sync_connections) {
        disconnect(connection);
    }
    m_sync = chart;
    // Under the chart its axis title says it already.
    m_axis_x->setTitleVisible(chart == nullptr);
    if (!chart) {
        m_range.reset();
        m_chart->setMargins(QMargins(4, 4, 4, 4));
        scheduleRedraw();
        return;
    }
    auto* axis = qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Horizontal).value(0));
    if (axis) {
        m_sync_connections[0] =
            connect(axis, &QValueAxis::rangeChanged, this, &QualityTrack::followAxis);
        followAxis(axis->min(), axis->max());
    }
    m_sync_connections[1] =
        connect(chart->chart(), &QChart::plotAreaChanged, this, &QualityTrack::alignPlotArea);
    m_sync_connections[2] =
        connect(chart->model(), &LatencyChartModel::changed, this, &QualityTrack::scheduleRedraw);
    m_sync_connections[3] =
        connect(chart, &QObject::destroyed, this, [this] { syncWith(nullptr); });
    alignPlotArea();
    scheduleRedraw();
}

std::pair<double, double> QualityTrack::plotEdgesGlobal() const {
    const QRectF area = m_chart->plotArea();
    const QPoint left =
        m_view->viewport()->mapToGlobal(m_view->mapFromScene(m_chart->mapToScene(area.topLeft())));
    const QPoint right =
        m_view->viewport()->mapToGlobal(m_view->mapFromScene(m_chart->mapToScene(area.topRight())));
    return {left.x(), right.x()};
}

void QualityTrack::alignPlotArea() {
    if (!m_sync || m_report) {
        return;
    }
    auto* other_view = qobject_cast<QChartView*>(m_sync->chartView());
    if (!other_view) {
        return;
    }
    QChart* other = m_sync->chart();
    const QRectF other_area = other->plotArea();
    const auto global = [&](const QPointF& chart_point) {
        return other_view->viewport()->mapToGlobal(
            other_view->mapFromScene(other->mapToScene(chart_point)));
    };
    const auto [left, right] = plotEdgesGlobal();
    const int delta_left = global(other_area.topLeft()).x() - static_cast<int>(left);
    const int delta_right = static_cast<int>(right) - global(other_area.topRight()).x();
    if (delta_left == 0 && delta_right == 0) {
        return;
    }
    // Move our edges by the margins (the axis labels keep the room they need inside them);
    // a chart in another column of the screen is not ours to follow.
    QMargins margins = m_chart->margins();
    const int new_left = margins.left() + delta_left;
    const int new_right = margins.right() + delta_right;
    if (new_left < 0 || new_right < 0 || new_left > width() / 2 || new_right > width() / 2) {
        return;
    }
    margins.setLeft(new_left);
    margins.setRight(new_right);
    m_chart->setMargins(margins);
}

} // namespace lbm::ui
