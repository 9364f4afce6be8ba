#include "ui/latency_chart_annotations.h"

#include <QChart>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lbm::ui {

namespace {
// Above the bars (4.5) and the lines (5), below the scatter marks (8), so a mark's tooltip
// still answers the mouse.
constexpr qreal kAnnotationsZ = 6.0;
constexpr qreal kPad = 3.0;
// Between the plot's right edge and a line label.
constexpr qreal kGutterGap = 3.0;
} // namespace

LatencyChartAnnotations::LatencyChartAnnotations(QChart* chart)
    : QGraphicsObject(chart)
    , m_chart(chart) {
    setZValue(kAnnotationsZ);
    setAcceptedMouseButtons(Qt::NoButton);
    connect(chart, &QChart::plotAreaChanged, this, [this] {
        prepareGeometryChange();
        update();
    });
}

void LatencyChartAnnotations::setOutliers(std::vector<Outlier> outliers) {
    m_outliers = std::move(outliers);
    update();
}

void LatencyChartAnnotations::setLineLabels(std::vector<LineLabel> labels) {
    prepareGeometryChange(); // the gutter, part of boundingRect(), follows the labels
    m_lines = std::move(labels);
    update();
}

void LatencyChartAnnotations::setColors(const QColor& text, const QColor& background) {
    m_text = text;
    m_background = background;
    update();
}

QRectF LatencyChartAnnotations::boundingRect() const {
    // The line labels stand in the gutter right of the plot.
    return m_chart->plotArea().adjusted(0, 0, lineLabelGutter(), 0);
}

QFont LatencyChartAnnotations::lineLabelFont() const {
    return m_chart->font();
}

qreal LatencyChartAnnotations::lineLabelGutter() const {
    const QFontMetricsF metrics(lineLabelFont());
    qreal widest = 0.0;
    for (const LineLabel& label : m_lines) {
        widest = std::max(widest, metrics.horizontalAdvance(QStringLiteral("↑ ") + label.text));
    }
    return m_lines.empty() ? 0.0 : std::ceil(widest + 2 * kPad + kGutterGap);
}

void LatencyChartAnnotations::paint(QPainter* painter, const QStyleOptionGraphicsItem* /*option*/,
                                    QWidget* /*widget*/) {
    const QRectF plot = m_chart->plotArea();
    painter->save();
    painter->setClipRect(plot);
    QFont font = painter->font();
    font.setBold(true);
    painter->setFont(font);
    paintOutliers(*painter, plot);
    // The line labels stand right of the plot, off the newest bars (what Follow keeps at the
    // right edge and a viewer reads first).
    painter->setClipRect(boundingRect());
    painter->setFont(lineLabelFont());
    paintLineLabels(*painter, plot);
    painter->restore();
}

void LatencyChartAnnotations::paintOutliers(QPainter& painter, const QRectF& plot) const {
    const QFontMetricsF metrics(painter.font());
    const qreal height = metrics.height() + 2 * kPad;
    // Below the band the interaction marks ride in (the top tenth), clear of the break.
    const qreal label_top = plot.top() + std::max<qreal>(plot.height() * 0.12, 14.0);
    // The chunk in flight's label first, then left to right: a label that would overlap one
    // already placed gives way (its bar's tooltip still names it).
    std::vector<const Outlier*> order;
    for (const Outlier& outlier : m_outliers) {
        order.push_back(&outlier);
    }
    std::stable_partition(order.begin(), order.end(),
                          [](const Outlier* outlier) { return outlier->in_flight; });
    std::vector<QRectF> placed;
    m_drawn_outliers.clear();
    for (const Outlier* outlier : order) {
        const qreal left = m_chart->mapToPosition(QPointF(outlier->x0, 0.0)).x();
        const qreal right = m_chart->mapToPosition(QPointF(outlier->x1, 0.0)).x();
        qreal top = label_top;
        if (outlier->clipped) {
            // The break: two slanted strokes across the bar near the top say "cut here".
            painter.setPen(QPen(m_background, 2.0));
            for (const qreal y : {plot.top() + 6.0, plot.top() + 10.0}) {
                painter.drawLine(QPointF(left - 1.0, y + 2.0), QPointF(right + 1.0, y - 2.0));
            }
        } else {
            // Just above the bar, kept below the marks' band.
            const qreal bar_top =
                m_chart->mapToPosition(QPointF(outlier->x0, outlier->value_ms)).y();
            top = std::max(label_top, bar_top - height - 2.0);
        }
        const qreal width = metrics.horizontalAdvance(outlier->text) + 2 * kPad;
        QRectF box(QPointF((left + right - width) / 2.0, top), QSizeF(width, height));
        box.moveLeft(std::clamp(box.left(), plot.left(), plot.right() - width));
        const QRectF spaced = box.adjusted(-2.0, 0.0, 2.0, 0.0);
        if (std::any_of(placed.cbegin(), placed.cend(),
                        [&](const QRectF& other) { return other.intersects(spaced); })) {
            continue;
        }
        placed.push_back(box);
        m_drawn_outliers.append(outlier->text);
        painter.setPen(QPen(m_text, 1.0));
        painter.setBrush(m_background);
        painter.drawRoundedRect(box, 3.0, 3.0);
        painter.drawText(box, Qt::AlignCenter, outlier->text);
    }
}

void LatencyChartAnnotations::paintLineLabels(QPainter& painter, const QRectF& plot) const {
    if (m_lines.empty()) {
        return;
    }
    const QFontMetricsF metrics(painter.font());
    const qreal height = metrics.height() + 2.0;
    struct Placed {
        const LineLabel* label;
        qreal y; // the label's centre
    };
    std::vector<Placed> placed;
    for (const LineLabel& label : m_lines) {
        const qreal y = m_chart->mapToPosition(QPointF(0.0, label.value_ms)).y();
        // A line above the axis (a p99 a stall pulled up) is named at the top, with an arrow.
        placed.push_back({&label, std::clamp(y, plot.top() + height / 2, plot.bottom())});
    }
    // Top to bottom, each at least a label's height below the one above: lines that lie on
    // each other (the sim's steady chunks sit on the deadline) get a label each.
    std::sort(placed.begin(), placed.end(),
              [](const Placed& a, const Placed& b) { return a.y < b.y; });
    for (std::size_t i = 1; i < placed.size(); ++i) {
        placed[i].y = std::max(placed[i].y, placed[i - 1].y + height);
    }
    // Pushed off the bottom: the stack moves up as a whole.
    const qreal overflow = placed.back().y + height / 2 - plot.bottom();
    if (overflow > 0) {
        for (Placed& p : placed) {
            p.y -= overflow;
        }
    }
    for (const Placed& p : placed) {
        const qreal line_y = m_chart->mapToPosition(QPointF(0.0, p.label->value_ms)).y();
        const QString text =
            line_y < plot.top() ? QStringLiteral("↑ ") + p.label->text : p.label->text;
        const qreal width = metrics.horizontalAdvance(text) + 2 * kPad;
        const QRectF box(plot.right() + kGutterGap, p.y - height / 2, width, height);
        QColor fill = m_background;
        fill.setAlphaF(0.85f);
        painter.setPen(Qt::NoPen);
        painter.setBrush(fill);
        painter.drawRect(box);
        painter.setPen(p.label->color);
        painter.drawText(box, Qt::AlignCenter, text);
    }
}

} // namespace lbm::ui
