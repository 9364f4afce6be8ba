#include "ui/latency_bars_item.h"

#include <QChart>
#include <QGraphicsSceneHoverEvent>
#include <QPainter>

#include <algorithm>

namespace lbm::ui {

namespace {
// Above the grid and the warmup shade, below the deadline and percentile lines and the event
// marks (Qt Charts draws line series at z 5 and scatter series at z 8).
constexpr qreal kBarsZ = 4.5;
} // namespace

LatencyBarsItem::LatencyBarsItem(QChart* chart)
    : QGraphicsObject(chart)
    , m_chart(chart) {
    setZValue(kBarsZ);
    setAcceptHoverEvents(true);
    // Clicks go to the chart view (rubber-band zoom, seeking), which asks barAt().
    setAcceptedMouseButtons(Qt::NoButton);
    connect(chart, &QChart::plotAreaChanged, this, [this] {
        prepareGeometryChange();
        update();
    });
}

void LatencyBarsItem::setBars(std::vector<Bar> bars) {
    m_bars = std::move(bars);
    update();
}

void LatencyBarsItem::setLastBar(const Bar& bar) {
    if (m_bars.empty()) {
        return;
    }
    const QRectF dirty = rectOf(m_bars.back()).united(rectOf(bar)).adjusted(-1, -1, 1, 1);
    m_bars.back() = bar;
    update(dirty);
}

void LatencyBarsItem::setColor(Kind kind, const QColor& color) {
    m_colors[static_cast<int>(kind)] = color;
    update();
}

QRectF LatencyBarsItem::boundingRect() const {
    return m_chart->plotArea();
}

QRectF LatencyBarsItem::rectOf(const Bar& bar) const {
    const QPointF top_left = m_chart->mapToPosition(QPointF(bar.x0, bar.value_ms));
    const QPointF bottom_right = m_chart->mapToPosition(QPointF(bar.x1, 0.0));
    return QRectF(top_left, bottom_right).normalized();
}

void LatencyBarsItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* /*option*/,
                            QWidget* /*widget*/) {
    const QRectF plot = m_chart->plotArea();
    painter->save();
    painter->setClipRect(plot);
    painter->setPen(Qt::NoPen);
    std::vector<QRectF> rects[5];
    for (const Bar& bar : m_bars) {
        QRectF rect = rectOf(bar);
        // A bar narrower than a pixel still shows (one per pixel column at most).
        if (rect.width() < 1.0) {
            rect.setWidth(1.0);
        }
        rects[static_cast<int>(bar.kind)].push_back(rect.intersected(plot));
    }
    for (int kind = 0; kind < 5; ++kind) {
        if (rects[kind].empty()) {
            continue;
        }
        painter->setBrush(m_colors[kind]);
        painter->drawRects(rects[kind].data(), static_cast<int>(rects[kind].size()));
    }
    painter->restore();
}

const LatencyBarsItem::Bar* LatencyBarsItem::barAt(const QPointF& position) const {
    for (const Bar& bar : m_bars) {
        const QRectF rect = rectOf(bar);
        // The whole column counts: short bars are easy to hit.
        if (position.x() >= rect.left() - 1.0 && position.x() <= rect.right() + 1.0) {
            return &bar;
        }
    }
    return nullptr;
}

void LatencyBarsItem::hoverMoveEvent(QGraphicsSceneHoverEvent* event) {
    if (const Bar* bar = barAt(event->pos())) {
        emit barHovered(*bar, event->screenPos());
    } else {
        emit hoverLeft();
    }
}

void LatencyBarsItem::hoverLeaveEvent(QGraphicsSceneHoverEvent* /*event*/) {
    emit hoverLeft();
}

} // namespace lbm::ui
