#include "ui/latency_chart.h"

#include "ui/chart_report_image.h"
#include "ui/duration_text.h"
#include "ui/latency_chart_annotations.h"
#include "ui/latency_chart_tuning.h"
#include "ui/status_colors.h"

#include <QAreaSeries>
#include <QButtonGroup>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QCursor>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPainter>
#include <QScatterSeries>
#include <QSpinBox>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace lbm::ui {

using namespace chart_tuning;

LatencyChart::LatencyChart(LatencyChartModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model ? model : new LatencyChartModel(this)) {
    connect(m_model, &LatencyChartModel::changed, this, &LatencyChart::scheduleRedraw);
    connect(m_model, &LatencyChartModel::waitingGrew, this, &LatencyChart::updateWaitingBar);
    m_redraw_timer.setSingleShot(true);
    m_redraw_timer.setInterval(kRedrawCoalesceMs);
    connect(&m_redraw_timer, &QTimer::timeout, this, &LatencyChart::redraw);

    m_chart = new QChart();
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_series = std::make_unique<LatencyChartSeries>(m_chart);

    m_axis_x = new QValueAxis(m_chart);
    m_axis_x->setTitleText(tr("chunk (generation index)"));
    m_axis_x->setLabelFormat(QStringLiteral("%d"));
    m_axis_y = new QValueAxis(m_chart);
    m_axis_y->setTitleText(tr("ms"));
    m_axis_y->setLabelFormat(QStringLiteral("%d"));
    m_chart->addAxis(m_axis_x, Qt::AlignBottom);
    m_chart->addAxis(m_axis_y, Qt::AlignLeft);
    for (QAbstractSeries* series : m_series->all()) {
        m_chart->addSeries(series);
        series->attachAxis(m_axis_x);
        series->attachAxis(m_axis_y);
    }
    connect(m_series->bars, &LatencyBarsItem::barHovered, this, &LatencyChart::showBarTooltip);
    connect(m_series->bars, &LatencyBarsItem::hoverLeft, this, [] { QToolTip::hideText(); });
    for (QScatterSeries* marks : m_series->marks()) {
        connect(marks, &QScatterSeries::hovered, this, &LatencyChart::showMarkTooltip);
        connect(marks, &QScatterSeries::clicked, this, [this](const QPointF& point) {
            emit chunkClicked(std::max<qint64>(0, std::llround(std::ceil(point.x()))));
        });
    }

    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    // Low enough that the plot fits whole in the chart dock of a 1280x720 window (a 160 px
    // minimum was cut at the dock's bottom edge there, under its header and legend).
    m_view->setMinimumHeight(120);
    m_view->viewport()->installEventFilter(this);

    m_follow_button = new QToolButton(this);
    m_follow_button->setText(tr("Follow"));
    m_follow_button->setCheckable(true);
    m_follow_button->setToolTip(
        tr("Follow latest: the whole session until it outgrows the window of chunks at the right, "
           "then the newest chunks as they land"));
    m_full_button = new QToolButton(this);
    m_full_button->setText(tr("Whole"));
    m_full_button->setCheckable(true);
    m_full_button->setToolTip(tr("Whole session: every chunk (drag to zoom in, right-click to "
                                 "zoom out)"));
    auto* group = new QButtonGroup(this);
    group->setExclusive(true);
    group->addButton(m_follow_button);
    group->addButton(m_full_button);
    m_follow_button->setChecked(true);
    connect(m_follow_button, &QToolButton::toggled, this, [this](bool on) { setFollow(on); });

    m_window_spin = new QSpinBox(this);
    m_window_spin->setRange(10, 2000);
    m_window_spin->setSingleStep(10);
    m_window_spin->setValue(m_window_chunks);
    m_window_spin->setSuffix(tr(" ch"));
    m_window_spin->setToolTip(tr("How many chunks the followed window shows"));
    connect(m_window_spin, &QSpinBox::valueChanged, this, &LatencyChart::setWindowChunks);

    m_percentile_box = new QCheckBox(tr("p50/95/99"), this);
    m_percentile_box->setToolTip(tr("The session's percentiles, as the counters show them: over "
                                    "the steady chunks, or all chunks until there are some"));
    connect(m_percentile_box, &QCheckBox::toggled, this, &LatencyChart::setPercentilesVisible);

    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    // Wraps under itself rather than running under the buttons beside it when the dock is
    // narrow (a 1280x720 window, a stall's long "late" figure).
    m_summary->setWordWrap(true);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_legend = new QLabel(this);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);

    auto* tools = new QHBoxLayout();
    tools->setContentsMargins(0, 0, 0, 0);
    tools->setSpacing(6);
    tools->addWidget(m_summary, 1);
    tools->addWidget(m_follow_button);
    tools->addWidget(m_full_button);
    tools->addWidget(m_window_spin);
    tools->addWidget(m_percentile_box);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    layout->addLayout(tools);
    layout->addWidget(m_legend);
    layout->addWidget(m_view, 1);

    m_series->applyPalette(palette());
    m_chart->setTheme(isDarkPalette(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    changeEvent(nullptr);
    setPercentilesVisible(false);
    redraw();
}

LatencyChart::~LatencyChart() = default;

QWidget* LatencyChart::chartView() const {
    return m_view;
}

void LatencyChart::setFollow(bool follow) {
    if (m_follow == follow) {
        return;
    }
    m_follow = follow;
    m_follow_button->setChecked(follow);
    m_full_button->setChecked(!follow);
    m_window_spin->setEnabled(follow);
    // Rubber-band zoom only makes sense when every chunk is in the series.
    m_view->setRubberBand(follow ? QChartView::NoRubberBand : QChartView::HorizontalRubberBand);
    emit followChanged(follow);
    scheduleRedraw();
}

void LatencyChart::setWindowChunks(int chunks) {
    m_window_chunks = std::max(1, chunks);
    if (m_window_spin->value() != m_window_chunks) {
        m_window_spin->setValue(m_window_chunks);
    }
    scheduleRedraw();
}

void LatencyChart::setPercentilesVisible(bool visible) {
    m_percentiles_visible = visible;
    if (m_percentile_box->isChecked() != visible) {
        m_percentile_box->setChecked(visible);
    }
    for (QLineSeries* line : {m_series->p50, m_series->p95, m_series->p99}) {
        line->setVisible(visible);
    }
    scheduleRedraw();
}

void LatencyChart::flush() {
    m_redraw_timer.stop();
    redraw();
}

std::pair<double, double> LatencyChart::chunkAxisRange() const {
    return {m_axis_x->min(), m_axis_x->max()};
}

double LatencyChart::valueAxisTopMs() const {
    return m_axis_y->max();
}

QStringList LatencyChart::outlierLabels() const {
    QStringList labels;
    for (const auto& outlier : m_series->annotations->outliers()) {
        labels << outlier.text;
    }
    return labels;
}

QStringList LatencyChart::drawnOutlierLabels() const {
    return m_series->annotations->drawnOutlierLabels();
}

QStringList LatencyChart::lineLabels() const {
    QStringList labels;
    for (const auto& line : m_series->annotations->lineLabels()) {
        labels << line.text;
    }
    return labels;
}

QString LatencyChart::legendText() const {
    return m_legend->text();
}

QString LatencyChart::summaryText() const {
    return m_summary_text;
}

QImage LatencyChart::renderImage(const QSize& size) {
    flush();
    return renderChartView(m_view, size, palette().color(QPalette::Window));
}

QImage LatencyChart::reportImage(const QString& title, const QSize& size) {
    // The whole session; the view the user had afterwards.
    const bool was_following = m_follow;
    setFollow(false);
    m_axis_x->setTitleVisible(true); // the picture has room for it
    flush();
    const QImage image =
        renderChartReport(m_view, {title, m_summary->text(), m_legend->text()}, size,
                          palette().color(QPalette::Base), [this] { flush(); });
    setFollow(was_following);
    m_axis_x->setTitleVisible(height() >= kChunkAxisTitleMinHeight);
    flush();
    return image;
}

QPoint LatencyChart::viewPositionOf(qint64 chunk, double value_ms) const {
    const QPointF scene =
        m_chart->mapToScene(m_chart->mapToPosition(QPointF(static_cast<double>(chunk), value_ms)));
    return m_view->mapFromScene(scene);
}

void LatencyChart::changeEvent(QEvent* event) {
    if (event == nullptr || event->type() == QEvent::PaletteChange) {
        const QPalette pal = palette();
        applyChartPalette(m_chart, pal, {m_axis_x, m_axis_y});
        // The theme resets series colours: ours go on after it.
        m_series->applyPalette(pal);
    }
    if (event) {
        QWidget::changeEvent(event);
    }
}

void LatencyChart::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // A short chart (a 720 px screen) gives the plot the axis title's line: the tick labels
    // are chunk numbers, and the summary above says so.
    m_axis_x->setTitleVisible(height() >= kChunkAxisTitleMinHeight);
}

bool LatencyChart::eventFilter(QObject* watched, QEvent* event) {
    // A click (press and release in one place, so a rubber-band drag is not one) on a bar
    // column seeks there.
    const bool press = event->type() == QEvent::MouseButtonPress;
    const bool release = event->type() == QEvent::MouseButtonRelease;
    if (watched == m_view->viewport() && (press || release)) {
        const auto* mouse = static_cast<QMouseEvent*>(event); // only now is it one
        if (press && mouse->button() == Qt::LeftButton) {
            m_press_position = mouse->position().toPoint();
        } else if (release && mouse->button() == Qt::LeftButton &&
                   (mouse->position().toPoint() - m_press_position).manhattanLength() < 4) {
            const QPointF scene = m_view->mapToScene(mouse->position().toPoint());
            if (const auto* bar = m_series->bars->barAt(m_series->bars->mapFromScene(scene))) {
                emit chunkClicked(bar->first_chunk);
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

void LatencyChart::updateWaitingBar() {
    const auto& waiting = m_model->waiting();
    const auto& bars = m_series->bars->bars();
    // Everything is redrawn when a redraw is due anyway, when the bar drawn last is not this
    // chunk's, or when the bar would outgrow the value axis (its top leaves room for marks).
    if (m_redraw_timer.isActive() || !waiting || bars.empty() ||
        static_cast<int>(bars.size()) != m_plotted_bars + 1 ||
        bars.back().first_chunk != waiting->index) {
        scheduleRedraw();
        return;
    }
    // The value axis stays: past its top the bar is drawn clipped with its wait written on it.
    LatencyBarsItem::Bar bar = bars.back();
    const bool was_clipped = bar.value_ms > m_axis_y->max();
    bar.value_ms = waiting->waited_ms;
    bar.kind = waitingKind(*waiting, m_model->deadlineMs());
    if (bar.kind != bars.back().kind) {
        scheduleRedraw(); // amber or red from now: the legend says so too
        return;
    }
    m_series->bars->setLastBar(bar);
    // Its label grows with it once it is late (clipped or not).
    if (was_clipped || bar.value_ms > m_axis_y->max() || bar.value_ms > m_model->deadlineMs()) {
        drawAnnotations();
        updateSummary(); // the header names a chunk in flight once it is late
    }
}

void LatencyChart::scheduleRedraw() {
    if (!m_redraw_timer.isActive()) {
        m_redraw_timer.start();
    }
}

void LatencyChart::showBarTooltip(const LatencyBarsItem::Bar& bar, const QPoint& screen_position) {
    if (bar.kind == LatencyBarsItem::Kind::Waiting || bar.kind == LatencyBarsItem::Kind::InFlight ||
        (m_model->waiting() && bar.first_chunk == m_model->waiting()->index)) {
        QToolTip::showText(screen_position, tr("chunk %1 has not arrived: waiting %2 ms so far")
                                                .arg(bar.first_chunk)
                                                .arg(bar.value_ms, 0, 'f', 0));
        return;
    }
    if (bar.first_chunk != bar.last_chunk) {
        QToolTip::showText(screen_position, tr("chunks %1-%2 (tallest shown: %3 ms); zoom in "
                                               "with a drag, right-click to zoom out")
                                                .arg(bar.first_chunk)
                                                .arg(bar.last_chunk)
                                                .arg(bar.value_ms, 0, 'f', 1));
        return;
    }
    for (int i = 0; i < m_model->chunkCount(); ++i) {
        if (m_model->record(i).index == bar.first_chunk) {
            QToolTip::showText(screen_position, m_model->describeChunk(i));
            return;
        }
    }
}

void LatencyChart::showMarkTooltip(const QPointF& point, bool state) {
    if (!state) {
        QToolTip::hideText();
        return;
    }
    QStringList lines;
    const auto nearest = static_cast<int>(std::llround(point.x()));
    if (nearest >= 0 && nearest < m_model->chunkCount() && m_model->stallMs(nearest) > 0 &&
        std::abs(nearest - point.x()) < 0.3) {
        lines << tr("simulated viewer stalled %1 ms waiting for chunk %2")
                     .arg(m_model->stallMs(nearest), 0, 'f', 1)
                     .arg(m_model->record(nearest).index);
    }
    const auto [first, last] = m_model->eventsIn(point.x() - 0.3, point.x() + 0.3);
    for (std::size_t e = first; e < last; ++e) {
        lines << m_model->events()[e].label;
    }
    if (!lines.isEmpty()) {
        QToolTip::showText(QCursor::pos(), lines.join(QLatin1Char('\n')));
    }
}

} // namespace lbm::ui
