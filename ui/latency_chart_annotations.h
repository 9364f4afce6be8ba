#pragma once
// The words drawn on the latency chart's plot: the value of every bar too tall for the value
// axis (the first chunk's TTFC, a stall, the chunk in flight), drawn clipped at the top with a
// break, the wait of a late chunk in flight wherever its bar stands, and the name and value of each
// horizontal line (deadline, p50, p95, p99) in a gutter right of the plot, level with its line
// and spread apart when the lines lie on top of each other so each stays readable.

#include <QColor>
#include <QFont>
#include <QGraphicsObject>
#include <QString>
#include <QStringList>

#include <vector>

class QChart;

namespace lbm::ui {

class LatencyChartAnnotations : public QGraphicsObject {
    Q_OBJECT
public:
    struct Outlier {
        double x0 = 0.0; // the bar's edges on the chunk axis
        double x1 = 0.0;
        QString text; // its value, as every surface writes it
        // Past the value axis's top: drawn with a break and labelled near the top. Otherwise (a
        // late chunk in flight still inside the axis) labelled just above the bar.
        bool clipped = true;
        double value_ms = 0.0;
        // The chunk in flight's wait: the live figure, placed before the others, so when
        // labels would overlap (a narrow plot, a TTFC label beside it) it is the one shown.
        bool in_flight = false;
    };
    struct LineLabel {
        double value_ms = 0.0;
        QString text;
        QColor color;
    };

    explicit LatencyChartAnnotations(QChart* chart);

    void setOutliers(std::vector<Outlier> outliers);
    void setLineLabels(std::vector<LineLabel> labels);
    void setColors(const QColor& text, const QColor& background);
    const std::vector<Outlier>& outliers() const { return m_outliers; }
    // The outlier labels the last paint drew (an overlapping one gives way): what is on screen.
    const QStringList& drawnOutlierLabels() const { return m_drawn_outliers; }
    const std::vector<LineLabel>& lineLabels() const { return m_lines; }
    // How wide the gutter right of the plot must be for the line labels (the chart's right
    // margin); 0 without lines.
    qreal lineLabelGutter() const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    void paintOutliers(QPainter& painter, const QRectF& plot) const;
    void paintLineLabels(QPainter& painter, const QRectF& plot) const;
    QFont lineLabelFont() const;

    QChart* m_chart;
    std::vector<Outlier> m_outliers;
    mutable QStringList m_drawn_outliers;
    std::vector<LineLabel> m_lines;
    QColor m_text;
    QColor m_background;
};

} // namespace lbm::ui
