#pragma once
// The Quality track: the session's visual quality per chunk, drawn under the latency chart on
// the same chunk axis. Every signal is shown as a multiple of its flag threshold (so one
// dashed line at 1 is every threshold, and up is worse, as latency is above): the seam score
// as a bar per chunk, the sharpness loss (blur) and the chroma drift (tint) as lines, the
// longest run of repeated frames as a square; a badge per flag under the baseline (S seam,
// F freeze, B blur, T tint, P prompt transition off its K); prompt transitions shaded (changes
// are expected there, and the lines fade); prompt and camera marks as the latency chart draws
// them. Hovering a chunk explains it with its real numbers; clicking it asks to show it.
//
// It is fed live, one chunk at a time, for sessions of thousands of chunks: a change arms one
// ~40 ms single-shot timer, and each redraw reads only the visible chunks (decimated to about
// one column per pixel when a whole long session is shown).

#include "app/quality/chunk_quality.h"
#include "app/quality/quality_settings.h"
#include "ui/chart_event_mark.h"
#include "ui/interaction_marks.h"
#include "ui/quality_track_item.h"

#include <QImage>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

class QCategoryAxis;
class QChart;
class QChartView;
class QLabel;
class QScatterSeries;
class QValueAxis;

namespace lbm::ui {

class LatencyChart;
class LatencyChartModel;

class QualityTrack : public QWidget {
    Q_OBJECT
public:
    explicit QualityTrack(QWidget* parent = nullptr);
    ~QualityTrack() override;

    // The thresholds the levels are relative to (the analysis's own settings).
    void setSettings(const quality::QualitySettings& settings);
    const quality::QualitySettings& settings() const { return m_settings; }
    // Replaces every chunk (a document, a finished session). Per-frame signals are dropped.
    void setChunks(std::vector<quality::ChunkQuality> chunks);
    // One chunk as it is analysed: appended, or replacing the result for the same index.
    void addChunk(const quality::ChunkQuality& chunk);
    void clear();
    int chunkCount() const { return static_cast<int>(m_chunks.size()); }
    const std::vector<quality::ChunkQuality>& chunks() const { return m_chunks; }
    const quality::ChunkQuality* chunk(qint64 generation_index) const;

    // The interaction marks, when not synced to a latency chart (which then provides them).
    void setEventMarks(std::vector<ChartEventMark> marks);
    void addEventMark(const ChartEventMark& mark);

    // Chunks first..last (inclusive) across the plot; until set (or synced), the whole session.
    void setVisibleChunkRange(qint64 first, qint64 last);
    void showWholeSession();
    // The chunk axis as drawn: [first - 0.5, last + 0.5].
    std::pair<double, double> visibleAxisRange() const { return {m_x_min, m_x_max}; }
    // Keeps this track under chart: the same chunk range whatever chart shows (the followed
    // window, the whole session, a rubber-band zoom), its plot area's left and right edges
    // over the chart's when they share a column of the screen, and the chart's interaction
    // marks. nullptr stops following.
    void syncWith(LatencyChart* chart);
    // The chunk the player shows, drawn as a vertical line; nullopt hides it.
    void setPlayheadChunk(std::optional<qint64> chunk);

    // Redraws now instead of at the next coalescing tick (tests, export).
    void flush();
    int redrawCount() const { return m_redraws; }
    // Columns drawn by the last redraw (each may stand for several chunks when decimated).
    int plottedColumnCount() const { return static_cast<int>(m_item->columns().size()); }
    const std::vector<QualityTrackItem::Column>& plottedColumns() const {
        return m_item->columns();
    }
    // The marks drawn by the last redraw.
    int plottedEventMarkCount() const { return m_plotted_marks; }
    // The largest level drawn to scale (the value axis's top, in multiples of a threshold):
    // from what is visible (1.5 to 3), unless fixed, e.g. to give two tracks one scale.
    double levelCap() const { return m_cap; }
    void setFixedLevelCap(std::optional<double> cap);
    QString summaryText() const;
    // The summary line over the plot (shown by default); the window hides it because its
    // quality counters say the same, and the plot gets the line.
    void setSummaryVisible(bool visible);
    QString legendText() const;
    // The tooltip for chunk (empty when it was not analysed).
    QString describeChunk(qint64 generation_index) const;

    // The chart alone at size; for a report, the whole session under a title line, the summary
    // and the legend (the view the user had is restored afterwards).
    QImage renderImage(const QSize& size);
    QImage reportImage(const QString& title, const QSize& size);

    QChart* chart() const { return m_chart; }
    QWidget* chartView() const;
    // Where (chunk, level) is in the chart view's coordinates (tests click there).
    QPoint viewPositionOf(qint64 chunk, double level) const;
    // The plot area's left and right edges in global screen coordinates.
    std::pair<double, double> plotEdgesGlobal() const;

signals:
    // The user clicked a chunk's column or a mark (the window seeks the recording there).
    void chunkClicked(qint64 chunk);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void scheduleRedraw();
    void redraw();
    void alignPlotArea();
    void followAxis(qreal min, qreal max);
    void showColumnTooltip(const QualityTrackItem::Column& column, const QPoint& screen);
    void showMarkTooltip(const QPointF& point, bool state);
    std::pair<std::size_t, std::size_t> marksIn(double x0, double x1) const;
    const std::vector<ChartEventMark>& marks() const;

    quality::QualitySettings m_settings;
    std::vector<quality::ChunkQuality> m_chunks; // by generation index
    std::vector<ChartEventMark> m_marks;         // by position
    QPointer<LatencyChart> m_sync;
    QMetaObject::Connection m_sync_connections[4];
    std::optional<std::pair<double, double>> m_range; // axis units; nullopt: whole session
    std::optional<qint64> m_playhead;
    double m_x_min = -0.5;
    double m_x_max = 0.5;
    double m_cap = 1.5;
    std::optional<double> m_fixed_cap;
    int m_redraws = 0;
    int m_plotted_marks = 0;
    double m_last_plot_height = 0.0;
    bool m_report = false; // reportImage(): the whole session whatever is followed
    QPoint m_press_position;

    QTimer m_redraw_timer;
    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QValueAxis* m_axis_x = nullptr;
    QCategoryAxis* m_axis_y = nullptr;
    QualityTrackItem* m_item = nullptr;
    InteractionMarks m_interaction_marks;
    QLabel* m_summary = nullptr;
    QLabel* m_legend = nullptr;
};

} // namespace lbm::ui
