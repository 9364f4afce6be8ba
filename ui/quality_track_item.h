#pragma once
// The quality track's drawing, one column per chunk (or per group of chunks when a long
// session is decimated), painted in the chart's scene like the latency chart's bars: the
// prompt-transition shade, the seam-score bar, the freeze mark, the blur and tint lines, the
// flag threshold and a badge per flag under the baseline. Every signal is drawn as a multiple
// of its flag threshold, so one line at 1 is every threshold and "up" is always "worse", as
// in the latency chart above it. Hovering a column asks for its tooltip.

#include "app/quality/chunk_quality.h"
#include "app/quality/quality_settings.h"

#include <QColor>
#include <QGraphicsObject>
#include <QPalette>
#include <QTransform>

#include <optional>
#include <vector>

class QChart;

namespace lbm::ui {

class QualityTrackItem : public QGraphicsObject {
    Q_OBJECT
public:
    // In order of concern: a merged column shows the worst of its chunks.
    enum class SeamKind {
        Normal,  // under kNearThresholdShare of the threshold
        Near,    // at or over it, not flagged
        Excused, // over the threshold, but expected (prompt transition, camera jump, freeze)
        Flagged, // the chunk has the seam flag
    };
    struct Column {
        double x0 = 0.0; // chunk axis: the column's slot (first - 0.5 to last + 0.5)
        double x1 = 0.0;
        qint64 first_chunk = 0; // the chunks the column stands for (several when decimated)
        qint64 last_chunk = 0;
        // Levels: the signal ÷ its threshold (the largest of a group).
        std::optional<double> seam;
        SeamKind seam_kind = SeamKind::Normal;
        double freeze = 0.0;
        double blur = 0.0;
        double tint = 0.0;
        bool in_transition = false;
        quality::QualityFlags flags;
    };

    // A chunk as a column (its slot and x edges left to the caller), and b merged into a
    // (the worst of each signal, every flag, a's first chunk to b's last).
    static Column columnOf(const quality::ChunkQuality& chunk,
                           const quality::QualityThresholds& thresholds);
    static void merge(Column& a, const Column& b);

    explicit QualityTrackItem(QChart* chart);

    // cap: the largest level drawn to scale (bars and lines above it stop at it, a bar with
    // its value written in it).
    void setColumns(std::vector<Column> columns, double cap);
    const std::vector<Column>& columns() const { return m_columns; }
    // The player's chunk as a vertical line; nullopt: none.
    void setPlayhead(std::optional<double> chunk);
    void applyPalette(const QPalette& palette);
    // Height in pixels of the badge band under the baseline, for a plot of plot_height.
    static double badgeBandPx(double plot_height);
    static double badgeSizePx(double plot_height);

    // The column whose slot holds x (item coordinates), or null.
    const Column* columnAt(const QPointF& position) const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

signals:
    void columnHovered(const lbm::ui::QualityTrackItem::Column& column,
                       const QPoint& screen_position);
    void hoverLeft();

protected:
    void hoverMoveEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

private:
    QPointF at(double x, double level) const;
    void updateTransform() const;
    void paintShades(QPainter* painter) const;
    void paintSeamBars(QPainter* painter) const;
    void paintLine(QPainter* painter, double Column::*level, const QColor& color) const;
    void paintFreezeMarks(QPainter* painter) const;
    void paintBadges(QPainter* painter) const;

    QChart* m_chart;
    std::vector<Column> m_columns;
    double m_cap = 1.5;
    std::optional<double> m_playhead;
    QPalette m_palette;
    mutable QTransform m_transform; // chunk axis and level -> item coordinates
};

} // namespace lbm::ui
