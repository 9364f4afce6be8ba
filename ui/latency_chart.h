#pragma once
// The latency chart's view (its data is a LatencyChartModel): one bar per chunk for its
// inter-arrival latency, green when within the steady chunk deadline and red when late,
// against a horizontal deadline line; warmup chunks shaded; interaction marks on the chunk
// axis; marks where the simulated viewer stalled; optional p50/p95/p99 lines; a second
// session as a comparison trace.
//
// A model change arms one ~40 ms single-shot timer, so a burst of chunks costs one redraw.
// Each redraw reads only what is visible (the followed window, or the whole session
// decimated to about one bar per pixel) and hands each series a prepared point list with
// QXYSeries::replace; percentiles and counts come ready from the model.

#include "ui/latency_bars_item.h"
#include "ui/latency_chart_model.h"
#include "ui/latency_chart_series.h"

#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QChart;
class QChartView;
class QCheckBox;
class QLabel;
class QSpinBox;
class QToolButton;
class QValueAxis;

namespace lbm::ui {

class LatencyChart : public QWidget {
    Q_OBJECT
public:
    // Shows model (not owned), or a model of its own when none is given.
    explicit LatencyChart(LatencyChartModel* model = nullptr, QWidget* parent = nullptr);
    ~LatencyChart() override;

    LatencyChartModel* model() const { return m_model; }

    // Follow: the last windowChunks() chunks; otherwise the whole session.
    void setFollow(bool follow);
    bool follow() const { return m_follow; }
    void setWindowChunks(int chunks);
    int windowChunks() const { return m_window_chunks; }
    void setPercentilesVisible(bool visible);
    bool percentilesVisible() const { return m_percentiles_visible; }

    // Redraws now instead of at the next coalescing tick (tests, export).
    void flush();
    // The axes as the last redraw set them: the chunk range and the value axis's top.
    std::pair<double, double> chunkAxisRange() const;
    double valueAxisTopMs() const;
    // The words on the plot: the values of the clipped bars, the names of the lines.
    QStringList outlierLabels() const;
    // The outlier labels the last paint put on screen (where two would overlap, one gives way).
    QStringList drawnOutlierLabels() const;
    QStringList lineLabels() const;
    // Chunks drawn by the last redraw (each bar may stand for several when decimated).
    int plottedChunkCount() const { return m_plotted_chunks; }
    // Bars in the series after the last redraw (<= plottedChunkCount()).
    int plottedBarCount() const { return m_plotted_bars; }
    // The bars as drawn, the chunk in flight last when one is awaited.
    const std::vector<LatencyBarsItem::Bar>& drawnBars() const { return m_series->bars->bars(); }
    int redrawCount() const { return m_redraws; }
    // A coalesced redraw is scheduled.
    bool redrawPending() const { return m_redraw_timer.isActive(); }
    int chunkCount() const { return m_model->chunkCount(); }
    int lateChunkCount() const { return m_model->lateChunkCount(); }
    int stallMarkCount() const { return m_model->stallMarkCount(); }
    int eventMarkCount() const { return static_cast<int>(m_model->events().size()); }
    double deadlineMs() const { return m_model->deadlineMs(); }
    // The legend as it was last drawn (HTML).
    QString legendText() const;
    // The header line above the plot (chunk count, late share, a late chunk in flight).
    QString summaryText() const;

    // Renders the chart alone (no toolbar) at the given size.
    QImage renderImage(const QSize& size);
    // For a report: the whole session under a title line (run id, endpoint, date) and the
    // legend, the view the user had restored afterwards.
    QImage reportImage(const QString& title, const QSize& size);

    QChart* chart() const { return m_chart; }
    // Where chunk sits in the chart view's coordinates (tests click there).
    QPoint viewPositionOf(qint64 chunk, double value_ms) const;
    QWidget* chartView() const;

signals:
    void followChanged(bool follow);
    // The user clicked a bar or a mark at chunk (the window seeks the recording there).
    void chunkClicked(qint64 chunk);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void scheduleRedraw();
    // The chunks in view: [first, first + span), bucket chunks to a bar.
    struct ChartWindow {
        int first = 0;
        int span = 1;
        int bucket = 1;
        double x_min = -0.5;
        double x_max = 0.5;
    };
    // The redraw, step by step.
    void redraw();
    ChartWindow visibleWindow() const;
    std::vector<LatencyBarsItem::Bar> collectBars(const ChartWindow& window, LegendContent& legend);
    QList<QPointF> drawComparison(const ChartWindow& window, LegendContent& legend);
    std::vector<double> drawPercentiles(const ChartWindow& window);
    // The value the axis must show (before headroom): the steady chunks, the deadline and the
    // lines, not the outliers.
    double steadyValueTop(const std::vector<LatencyBarsItem::Bar>& bars,
                          const QList<QPointF>& comparison,
                          const std::vector<double>& percentiles) const;
    void drawEventMarks(const ChartWindow& window, double top, LegendContent& legend);
    void drawStallMarks(const ChartWindow& window, double top, LegendContent& legend);
    void setChunkTicks(int span);
    void drawWarmup(const ChartWindow& window, double top);
    void drawAnnotations();
    bool holdsStall(const LatencyBarsItem::Bar& bar) const;
    void updateSummary();
    // The chunk in flight's bar alone, when nothing else changed (see waitingGrew).
    void updateWaitingBar();
    void showBarTooltip(const LatencyBarsItem::Bar& bar, const QPoint& screen_position);
    void showMarkTooltip(const QPointF& point, bool state);

    LatencyChartModel* m_model = nullptr;
    bool m_follow = true;
    int m_window_chunks = 120;
    bool m_percentiles_visible = false;
    int m_plotted_chunks = 0;
    int m_plotted_bars = 0;
    int m_redraws = 0;
    int m_bucket = 1;
    QPoint m_press_position;

    QTimer m_redraw_timer;
    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QValueAxis* m_axis_x = nullptr;
    QValueAxis* m_axis_y = nullptr;
    std::unique_ptr<LatencyChartSeries> m_series;
    QToolButton* m_follow_button = nullptr;
    QToolButton* m_full_button = nullptr;
    QSpinBox* m_window_spin = nullptr;
    QCheckBox* m_percentile_box = nullptr;
    QLabel* m_summary = nullptr;
    QString m_summary_text; // as written, without the on-screen no-break spaces
    QLabel* m_legend = nullptr;
};

} // namespace lbm::ui
