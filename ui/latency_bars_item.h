#pragma once
// The latency chart's bars, drawn as plain rectangles in the chart's scene. Qt Charts' area
// series clips and strokes one path through every bar, which costs 240 ms a paint at 800 bars
// (measured with benchmarks/ui); filling rectangles costs about the same at 800 bars as at
// 50, so the whole-session view stays live. Hovering a bar asks for its tooltip.

#include <QColor>
#include <QGraphicsObject>

#include <vector>

class QChart;

namespace lbm::ui {

class LatencyBarsItem : public QGraphicsObject {
    Q_OBJECT
public:
    // InFlight: the chunk awaited, past 80 % of its deadline; Waiting: awaited, in time.
    enum class Kind { OnTime, Late, First, InFlight, Waiting };
    struct Bar {
        double x0 = 0.0; // chunk axis, left and right edge
        double x1 = 0.0;
        double value_ms = 0.0;
        Kind kind = Kind::OnTime;
        qint64 first_chunk = 0; // the chunks the bar stands for (several when decimated)
        qint64 last_chunk = 0;
    };

    explicit LatencyBarsItem(QChart* chart);

    void setBars(std::vector<Bar> bars);
    // Replaces the last bar (the chunk in flight) and repaints only where it was and is.
    void setLastBar(const Bar& bar);
    const std::vector<Bar>& bars() const { return m_bars; }
    void setColor(Kind kind, const QColor& color);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

signals:
    void barHovered(const lbm::ui::LatencyBarsItem::Bar& bar, const QPoint& screen_position);
    void hoverLeft();

protected:
    void hoverMoveEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

public:
    // The bar whose column holds position (item coordinates), or null.
    const Bar* barAt(const QPointF& position) const;

private:
    QRectF rectOf(const Bar& bar) const;

    QChart* m_chart;
    std::vector<Bar> m_bars;
    QColor m_colors[5];
};

} // namespace lbm::ui
