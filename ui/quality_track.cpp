#include "ui/quality_track.h"

#include "ui/chart_report_image.h"
#include "ui/latency_chart.h"
#include "ui/latency_chart_model.h"
#include "ui/quality_signals.h"
#include "ui/quality_style.h"
#include "ui/quality_track_legend.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QEvent>
#include <QGraphicsLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace lbm::ui {

namespace {

using quality::ChunkQuality;
using quality::QualityFlag;

constexpr int kRedrawCoalesceMs = 40;
// The latency chart's marks, the same shapes and colours, a little smaller on the shorter track.
constexpr qreal kMarkScale = 6.0 / 7.0;
// Above this many visible chunks, neighbours merge into one column (the worst of them).
constexpr int kMaxColumns = 800;
// Pixels above the value band for the interaction marks.
constexpr double kMarkBandPx = 20.0;

} // namespace

QualityTrack::QualityTrack(QWidget* parent)
    : QWidget(parent) {
    m_redraw_timer.setSingleShot(true);
    m_redraw_timer.setInterval(kRedrawCoalesceMs);
    connect(&m_redraw_timer, &QTimer::timeout, this, &QualityTrack::redraw);

    m_chart = new QChart();
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_axis_x = new QValueAxis(m_chart);
    m_axis_x->setTitleText(tr("chunk (generation index)"));
    m_axis_x->setLabelFormat(QStringLiteral("%d"));
    m_axis_y = new QCategoryAxis(m_chart);
    m_axis_y->setTitleText(tr("× flag")); // short: the track is often ~60 px tall
    m_axis_y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_chart->addAxis(m_axis_x, Qt::AlignBottom);
    m_chart->addAxis(m_axis_y, Qt::AlignLeft);

    // The latency chart's marks, the same shapes and colours.
    m_interaction_marks = InteractionMarks::create(m_chart, kMarkScale);
    for (QScatterSeries* series : m_interaction_marks.all()) {
        m_chart->addSeries(series);
        series->attachAxis(m_axis_x);
        series->attachAxis(m_axis_y);
        connect(series, &QScatterSeries::hovered, this, &QualityTrack::showMarkTooltip);
        connect(series, &QScatterSeries::clicked, this, [this](const QPointF& point) {
            emit chunkClicked(std::max<qint64>(0, std::llround(std::ceil(point.x()))));
        });
    }
    m_item = new QualityTrackItem(m_chart);
    connect(m_item, &QualityTrackItem::columnHovered, this, &QualityTrack::showColumnTooltip);
    connect(m_item, &QualityTrackItem::hoverLeft, this, [] { QToolTip::hideText(); });
    connect(m_chart, &QChart::plotAreaChanged, this, [this](const QRectF& area) {
        // The bands are sized in pixels: a new height needs new axis ranges.
        if (std::abs(area.height() - m_last_plot_height) > 1.0) {
            scheduleRedraw();
        }
        alignPlotArea();
    });

    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(100);
    m_view->viewport()->installEventFilter(this);

    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true); // half of the Compare window is narrower than the counts
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_legend = new QLabel(this);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    // The legend wraps to the width it gets; it never widens the window.
    m_legend->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 6);
    layout->setSpacing(2);
    layout->addWidget(m_summary);
    layout->addWidget(m_legend);
    layout->addWidget(m_view, 1);

    changeEvent(nullptr);
    redraw();
}

QualityTrack::~QualityTrack() = default;

QWidget* QualityTrack::chartView() const {
    return m_view;
}

void QualityTrack::setSettings(const quality::QualitySettings& settings) {
    m_settings = settings;
    scheduleRedraw();
}

void QualityTrack::setChunks(std::vector<ChunkQuality> chunks) {
    for (ChunkQuality& chunk : chunks) {
        chunk.dropFrameSignals();
    }
    std::stable_sort(chunks.begin(), chunks.end(), [](const auto& a, const auto& b) {
        return a.generation_index < b.generation_index;
    });
    m_chunks = std::move(chunks);
    scheduleRedraw();
}

void QualityTrack::addChunk(const ChunkQuality& chunk) {
    // Chunks arrive in generation order but for one held back for a transition judgement
    // (which comes after later ones), and a provisional result may be replaced.
    auto at = std::lower_bound(
        m_chunks.begin(), m_chunks.end(), chunk.generation_index,
        [](const ChunkQuality& c, qint64 index) { return c.generation_index < index; });
    if (at != m_chunks.end() && at->generation_index == chunk.generation_index) {
        *at = chunk;
    } else {
        at = m_chunks.insert(at, chunk);
    }
    at->dropFrameSignals();
    scheduleRedraw();
}

void QualityTrack::clear() {
    m_chunks.clear();
    m_marks.clear();
    scheduleRedraw();
}

const ChunkQuality* QualityTrack::chunk(qint64 generation_index) const {
    const auto at = std::lower_bound(
        m_chunks.begin(), m_chunks.end(), generation_index,
        [](const ChunkQuality& c, qint64 index) { return c.generation_index < index; });
    return at != m_chunks.end() && at->generation_index == generation_index ? &*at : nullptr;
}

void QualityTrack::setEventMarks(std::vector<ChartEventMark> marks) {
    std::stable_sort(marks.begin(), marks.end(), [](const auto& a, const auto& b) {
        return a.chunk_position < b.chunk_position;
    });
    m_marks = std::move(marks);
    scheduleRedraw();
}

void QualityTrack::addEventMark(const ChartEventMark& mark) {
    const auto at = std::upper_bound(m_marks.begin(), m_marks.end(), mark.chunk_position,
                                     [](double position, const ChartEventMark& other) {
                                         return position < other.chunk_position;
                                     });
    m_marks.insert(at, mark);
    scheduleRedraw();
}

const std::vector<ChartEventMark>& QualityTrack::marks() const {
    return m_sync ? m_sync->model()->events() : m_marks;
}

std::pair<std::size_t, std::size_t> QualityTrack::marksIn(double x0, double x1) const {
    if (m_sync) {
        return m_sync->model()->eventsIn(x0, x1);
    }
    const auto first = std::lower_bound(
        m_marks.begin(), m_marks.end(), x0,
        [](const ChartEventMark& mark, double position) { return mark.chunk_position < position; });
    const auto last =
        std::upper_bound(first, m_marks.end(), x1, [](double position, const ChartEventMark& mark) {
            return position < mark.chunk_position;
        });
    return {static_cast<std::size_t>(first - m_marks.begin()),
            static_cast<std::size_t>(last - m_marks.begin())};
}

void QualityTrack::setVisibleChunkRange(qint64 first, qint64 last) {
    m_range = std::pair{static_cast<double>(first) - 0.5,
                        static_cast<double>(std::max(first, last)) + 0.5};
    scheduleRedraw();
}

void QualityTrack::showWholeSession() {
    m_range.reset();
    scheduleRedraw();
}

void QualityTrack::setPlayheadChunk(std::optional<qint64> chunk) {
    if (m_playhead == chunk) {
        return;
    }
    m_playhead = chunk;
    m_item->setPlayhead(chunk ? std::optional<double>(static_cast<double>(*chunk)) : std::nullopt);
}

void QualityTrack::setFixedLevelCap(std::optional<double> cap) {
    m_fixed_cap = cap ? std::optional<double>(std::max(1.0, *cap)) : std::nullopt;
    scheduleRedraw();
}

void QualityTrack::flush() {
    m_redraw_timer.stop();
    redraw();
}

void QualityTrack::scheduleRedraw() {
    if (!m_redraw_timer.isActive()) {
        m_redraw_timer.start();
    }
}

QString QualityTrack::summaryText() const {
    return m_summary->text();
}

void QualityTrack::setSummaryVisible(bool visible) {
    m_summary->setVisible(visible);
}

QString QualityTrack::legendText() const {
    return m_legend->text();
}

QString QualityTrack::describeChunk(qint64 generation_index) const {
    const ChunkQuality* found = chunk(generation_index);
    return found ? describeChunkQuality(*found, m_settings.thresholds) : QString();
}

void QualityTrack::redraw() {
    ++m_redraws;
    const quality::QualityThresholds& thresholds = m_settings.thresholds;
    const qint64 known = m_chunks.empty() ? 0 : m_chunks.back().generation_index + 1;
    if (m_range && !m_report) {
        m_x_min = m_range->first;
        m_x_max = m_range->second;
    } else {
        const double span = m_sync
                                ? std::max(static_cast<double>(known),
                                           static_cast<double>(m_sync->model()->expectedChunks()))
                                : static_cast<double>(known);
        m_x_min = -0.5;
        m_x_max = std::max(1.0, span) - 0.5;
    }

    // The visible chunks, merged into about one column per pixel when there are many.
    const auto first = std::lower_bound(m_chunks.begin(), m_chunks.end(), m_x_min,
                                        [](const ChunkQuality& c, double x) {
                                            return static_cast<double>(c.generation_index) < x;
                                        });
    const auto last =
        std::upper_bound(first, m_chunks.end(), m_x_max, [](double x, const ChunkQuality& c) {
            return x < static_cast<double>(c.generation_index);
        });
    const auto visible = static_cast<int>(last - first);
    const int bucket = std::max(1, (visible + kMaxColumns - 1) / kMaxColumns);
    std::vector<QualityTrackItem::Column> columns;
    columns.reserve(static_cast<size_t>(visible / bucket + 1));
    double top_level = 0.0;
    bool any_transition = false;
    bool any_freeze = false;
    bool any_excused = false;
    for (auto it = first; it != last;) {
        QualityTrackItem::Column column = QualityTrackItem::columnOf(*it, thresholds);
        const auto end = std::min(last, it + bucket);
        for (auto next = it + 1; next != end; ++next) {
            QualityTrackItem::merge(column, QualityTrackItem::columnOf(*next, thresholds));
        }
        it = end;
        column.x0 = static_cast<double>(column.first_chunk) - 0.5;
        column.x1 = static_cast<double>(column.last_chunk) + 0.5;
        top_level = std::max(
            {top_level, column.seam.value_or(0.0), column.freeze, column.blur, column.tint});
        any_transition = any_transition || column.in_transition;
        any_freeze = any_freeze || column.freeze > 0;
        any_excused = any_excused || column.seam_kind == QualityTrackItem::SeamKind::Excused;
        columns.push_back(column);
    }
    // To scale up to 1.5x the threshold at least (so 1 is well inside) and 3x at most (so a
    // 20x seam does not flatten everything else; it is written on its bar).
    m_cap = m_fixed_cap ? *m_fixed_cap : std::clamp(std::ceil(top_level * 2.0) / 2.0, 1.5, 3.0);
    m_item->setColumns(std::move(columns), m_cap);

    // Pixel bands above (marks) and below (badges) the value band, in level units.
    const double plot_height = std::max(60.0, m_chart->plotArea().height());
    m_last_plot_height = m_chart->plotArea().height();
    const double badge_px = QualityTrackItem::badgeBandPx(plot_height);
    const double level_per_px = m_cap / std::max(20.0, plot_height - badge_px - kMarkBandPx);
    const double y_min = -badge_px * level_per_px;
    const double y_max = m_cap + kMarkBandPx * level_per_px;
    m_axis_x->setRange(m_x_min, m_x_max);
    // The value axis changes only with the cap or the plot's height: rebuilding its labels
    // relays the chart out, so not on every chunk.
    if (m_axis_y->min() != y_min || m_axis_y->max() != y_max || m_axis_y->count() == 0) {
        for (const QString& label : m_axis_y->categoriesLabels()) {
            m_axis_y->remove(label);
        }
        m_axis_y->setStartValue(y_min);
        m_axis_y->append(QStringLiteral("0"), 0.0);
        for (int level = 1; level <= static_cast<int>(m_cap); ++level) {
            m_axis_y->append(QStringLiteral("%1%2").arg(level).arg(QChar(0xd7)), level);
        }
        m_axis_y->setRange(y_min, y_max);
    }

    setChunkAxisTicks(m_axis_x, m_x_max - m_x_min);

    // The interaction marks, in the band above the values.
    QList<QPointF> sent, started, completed, camera, failed;
    const double mark_y = m_cap + kMarkBandPx * level_per_px * 0.5;
    const auto [first_mark, last_mark] = marksIn(m_x_min, m_x_max);
    const std::vector<ChartEventMark>& all_marks = marks();
    bool prompt_marks = false;
    bool camera_marks = false;
    for (std::size_t i = first_mark; i < last_mark; ++i) {
        const ChartEventMark& mark = all_marks[i];
        const QPointF point(mark.chunk_position, mark_y);
        if (mark.kind == ChartEventMark::Kind::Failed) {
            failed.append(point);
        } else if (mark.subject == ChartEventMark::Subject::Camera) {
            camera.append(point);
            camera_marks = true;
        } else {
            prompt_marks = true;
            (mark.kind == ChartEventMark::Kind::Sent      ? sent
             : mark.kind == ChartEventMark::Kind::Started ? started
                                                          : completed)
                .append(point);
        }
    }
    m_interaction_marks.prompt_sent->replace(sent);
    m_interaction_marks.prompt_started->replace(started);
    m_interaction_marks.prompt_completed->replace(completed);
    m_interaction_marks.camera_sent->replace(camera);
    m_interaction_marks.failed->replace(failed);
    m_plotted_marks = static_cast<int>(last_mark - first_mark);

    // The summary over the whole session, the legend for what is drawn.
    const QString summary = qualitySummaryText(m_chunks, bucket);
    m_summary->setText(summary);
    m_summary->setToolTip(summary);
    QualityLegendContent legend;
    legend.thresholds = thresholds;
    legend.freeze = any_freeze;
    legend.transition = any_transition;
    legend.excused_seam = any_excused;
    // Under a latency chart the marks are the chart's and so is their legend (one line saved
    // for the plot); a report image stands alone and explains them.
    const bool marks_explained_above = m_sync && !m_report;
    legend.prompt_marks = prompt_marks && !marks_explained_above;
    legend.camera_marks = camera_marks && !marks_explained_above;
    m_legend->setText(qualityLegendHtml(legend, palette()));
}

void QualityTrack::showColumnTooltip(const QualityTrackItem::Column& column, const QPoint& screen) {
    QString text;
    if (column.first_chunk == column.last_chunk) {
        text = describeChunk(column.first_chunk) + tr("\nclick to show this chunk");
    } else {
        const QStringList flags = quality::qualityFlagNames(column.flags);
        text = tr("chunks %1-%2 (the worst of them is drawn): %3; zoom in to see each chunk")
                   .arg(column.first_chunk)
                   .arg(column.last_chunk)
                   .arg(flags.isEmpty() ? tr("no flag")
                                        : tr("flags %1").arg(flags.join(QStringLiteral(", "))));
    }
    QToolTip::showText(screen, text);
}

void QualityTrack::showMarkTooltip(const QPointF& point, bool state) {
    if (!state) {
        QToolTip::hideText();
        return;
    }
    QStringList lines;
    const auto [first, last] = marksIn(point.x() - 0.3, point.x() + 0.3);
    const std::vector<ChartEventMark>& all_marks = marks();
    for (std::size_t i = first; i < last; ++i) {
        lines << all_marks[i].label;
    }
    if (!lines.isEmpty()) {
        QToolTip::showText(QCursor::pos(), lines.join(QLatin1Char('\n')));
    }
}

bool QualityTrack::eventFilter(QObject* watched, QEvent* event) {
    // A click (press and release in one place) on a chunk's column asks to show it.
    // Only mouse presses and releases are QMouseEvents: cast after the type says so.
    const bool press_or_release =
        event->type() == QEvent::MouseButtonPress || event->type() == QEvent::MouseButtonRelease;
    if (watched == m_view->viewport() && press_or_release) {
        auto* mouse = static_cast<QMouseEvent*>(event);
        if (event->type() == QEvent::MouseButtonPress && mouse->button() == Qt::LeftButton) {
            m_press_position = mouse->position().toPoint();
        } else if (event->type() == QEvent::MouseButtonRelease &&
                   mouse->button() == Qt::LeftButton &&
                   (mouse->position().toPoint() - m_press_position).manhattanLength() < 4) {
            const QPointF scene = m_view->mapToScene(mouse->position().toPoint());
            if (const auto* column = m_item->columnAt(m_item->mapFromScene(scene))) {
                emit chunkClicked(column->first_chunk);
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

void QualityTrack::changeEvent(QEvent* event) {
    if (event == nullptr || event->type() == QEvent::PaletteChange) {
        const QPalette pal = palette();
        applyChartPalette(m_chart, pal, {m_axis_x, m_axis_y});
        // The theme resets series colours: ours go on after it.
        m_interaction_marks.applyPalette(pal);
        m_item->applyPalette(pal);
        scheduleRedraw();
    }
    if (event) {
        QWidget::changeEvent(event);
    }
}

QImage QualityTrack::renderImage(const QSize& size) {
    flush();
    return renderChartView(m_view, size, palette().color(QPalette::Window));
}

QImage QualityTrack::reportImage(const QString& title, const QSize& size) {
    // The whole session at the image's size, with its own axis title; the view as it was
    // afterwards.
    m_report = true;
    const QMargins margins = m_chart->margins();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_axis_x->setTitleVisible(true);
    flush();
    QImage image = renderChartReport(m_view, {title, m_summary->text(), m_legend->text()}, size,
                                     palette().color(QPalette::Base), [this] { flush(); });
    m_report = false;
    m_chart->setMargins(margins);
    m_axis_x->setTitleVisible(m_sync == nullptr);
    flush();
    return image;
}

QPoint QualityTrack::viewPositionOf(qint64 chunk, double level) const {
    const QPointF scene = m_chart->mapToScene(m_chart->mapToPosition(
        QPointF(static_cast<double>(chunk), level), m_interaction_marks.prompt_sent));
    return m_view->mapFromScene(scene);
}

} // namespace lbm::ui
