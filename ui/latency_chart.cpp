#include "ui/latency_chart.h"

#include "app/report/atomic_file.h"
#include "ui/latency_bars_item.h"
#include "ui/status_colors.h"

#include <QAreaSeries>
#include <QBuffer>
#include <QButtonGroup>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QCursor>
#include <QEvent>
#include <QHBoxLayout>
#include <QImageWriter>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
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

namespace {

// ~25 Hz: fast enough to feel live, slow enough that a burst of chunks is one redraw.
constexpr int kRedrawCoalesceMs = 40;
// Above this many chunks the whole-session view merges neighbours into one bar (the
// tallest of them, so a late chunk never disappears).
constexpr int kMaxBars = 800;
constexpr double kBarGap = 0.12;

QLineSeries* makeLine(QChart* chart, const QString& name) {
    auto* series = new QLineSeries(chart);
    series->setName(name);
    return series;
}

QScatterSeries* makeMarks(QChart* chart, const QString& name, QScatterSeries::MarkerShape shape,
                          qreal size) {
    auto* series = new QScatterSeries(chart);
    series->setName(name);
    series->setMarkerShape(shape);
    series->setMarkerSize(size);
    return series;
}

QAreaSeries* makeBars(QChart* chart, const QString& name) {
    auto* upper = new QLineSeries(chart);
    auto* series = new QAreaSeries(upper);
    series->setParent(chart);
    series->setName(name);
    return series;
}

} // namespace

LatencyChart::LatencyChart(LatencyChartModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model ? model : new LatencyChartModel(this)) {
    connect(m_model, &LatencyChartModel::changed, this, &LatencyChart::scheduleRedraw);
    m_redraw_timer.setSingleShot(true);
    m_redraw_timer.setInterval(kRedrawCoalesceMs);
    connect(&m_redraw_timer, &QTimer::timeout, this, &LatencyChart::redraw);

    m_chart = new QChart();
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));

    m_warmup = makeBars(m_chart, tr("warmup chunks"));
    m_deadline = makeLine(m_chart, tr("deadline"));
    m_p50 = makeLine(m_chart, tr("p50"));
    m_p95 = makeLine(m_chart, tr("p95"));
    m_p99 = makeLine(m_chart, tr("p99"));
    m_comparison_line = makeLine(m_chart, tr("comparison"));
    m_comparison_line->setPointsVisible(true);
    m_sent = makeMarks(m_chart, tr("interaction sent"), QScatterSeries::MarkerShapeTriangle, 11);
    m_started = makeMarks(m_chart, tr("started"), QScatterSeries::MarkerShapeRectangle, 9);
    m_completed =
        makeMarks(m_chart, tr("completed"), QScatterSeries::MarkerShapeRotatedRectangle, 11);
    m_failed = makeMarks(m_chart, tr("failed"), QScatterSeries::MarkerShapeCircle, 10);
    m_stall_series =
        makeMarks(m_chart, tr("simulated viewer stall"), QScatterSeries::MarkerShapeStar, 14);

    m_axis_x = new QValueAxis(m_chart);
    m_axis_x->setTitleText(tr("chunk (generation index)"));
    m_axis_x->setLabelFormat(QStringLiteral("%d"));
    m_axis_y = new QValueAxis(m_chart);
    m_axis_y->setTitleText(tr("inter-arrival (ms)"));
    m_axis_y->setLabelFormat(QStringLiteral("%d"));
    m_chart->addAxis(m_axis_x, Qt::AlignBottom);
    m_chart->addAxis(m_axis_y, Qt::AlignLeft);

    const QList<QAbstractSeries*> all = {m_warmup,    m_deadline,        m_p50,         m_p95,
                                         m_p99,       m_comparison_line, m_sent,        m_started,
                                         m_completed, m_failed,          m_stall_series};
    for (QAbstractSeries* series : all) {
        m_chart->addSeries(series);
        series->attachAxis(m_axis_x);
        series->attachAxis(m_axis_y);
    }
    m_bars = new LatencyBarsItem(m_chart);
    connect(m_bars, &LatencyBarsItem::barHovered, this, &LatencyChart::showBarTooltip);
    connect(m_bars, &LatencyBarsItem::hoverLeft, this, [] { QToolTip::hideText(); });
    for (QScatterSeries* marks : {m_sent, m_started, m_completed, m_failed, m_stall_series}) {
        connect(marks, &QScatterSeries::hovered, this, &LatencyChart::showMarkTooltip);
    }
    m_comparison_line->setVisible(false);

    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(200);

    m_follow_button = new QToolButton(this);
    m_follow_button->setText(tr("Follow latest"));
    m_follow_button->setCheckable(true);
    m_follow_button->setToolTip(tr("Show the last chunks as they land (End)"));
    m_full_button = new QToolButton(this);
    m_full_button->setText(tr("Whole session"));
    m_full_button->setCheckable(true);
    m_full_button->setToolTip(tr("Show every chunk of the session (Home)"));
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
    m_window_spin->setSuffix(tr(" chunks"));
    m_window_spin->setToolTip(tr("How many chunks the followed window shows"));
    connect(m_window_spin, &QSpinBox::valueChanged, this, &LatencyChart::setWindowChunks);

    m_percentile_box = new QCheckBox(tr("p50 / p95 / p99"), this);
    m_percentile_box->setToolTip(
        tr("Percentile lines over the steady chunks (after the warmup), or all chunks until "
           "then"));
    connect(m_percentile_box, &QCheckBox::toggled, this, &LatencyChart::setPercentilesVisible);

    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    m_legend = new QLabel(this);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);

    auto* tools = new QHBoxLayout();
    tools->setContentsMargins(0, 0, 0, 0);
    tools->setSpacing(6);
    tools->addWidget(m_summary, 1);
    tools->addWidget(m_follow_button);
    tools->addWidget(m_full_button);
    tools->addWidget(new QLabel(tr("Window:"), this));
    tools->addWidget(m_window_spin);
    tools->addWidget(m_percentile_box);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addLayout(tools);
    layout->addWidget(m_legend);
    layout->addWidget(m_view, 1);

    applyPalette();
    setPercentilesVisible(false);
    redraw();
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
    m_p50->setVisible(visible);
    m_p95->setVisible(visible);
    m_p99->setVisible(visible);
    scheduleRedraw();
}

void LatencyChart::flush() {
    m_redraw_timer.stop();
    redraw();
}

QImage LatencyChart::renderImage(const QSize& size) {
    flush();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(palette().color(QPalette::Window));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    m_view->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)));
    return image;
}

bool LatencyChart::exportPng(const QString& path, QString* error) {
    const QSize size = m_view->size().width() >= 640 ? m_view->size() : QSize(1280, 480);
    const QImage image = renderImage(size);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    if (!writer.write(image)) {
        if (error) {
            *error = tr("Cannot encode the chart as PNG: %1.").arg(writer.errorString());
        }
        return false;
    }
    try {
        lbm::report::writeFileAtomically(path, png);
    } catch (const std::exception& failure) {
        if (error) {
            *error = QString::fromUtf8(failure.what());
        }
        return false;
    }
    return true;
}

void LatencyChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
    }
    QWidget::changeEvent(event);
}

void LatencyChart::scheduleRedraw() {
    if (!m_redraw_timer.isActive()) {
        m_redraw_timer.start();
    }
}

void LatencyChart::redraw() {
    ++m_redraws;
    const LatencyChartModel& model = *m_model;
    const int count = model.chunkCount();
    const double deadline_ms = model.deadlineMs();
    const int warmup_chunks = model.warmupChunks();
    const auto& comparison_records = model.comparison();
    int first = 0;
    int span =
        std::max({count, model.expectedChunks(), static_cast<int>(comparison_records.size()), 1});
    m_bucket = 1;
    if (m_follow) {
        first = std::max(0, count - m_window_chunks);
        span = m_window_chunks;
    } else if (count > kMaxBars) {
        m_bucket = (count + kMaxBars - 1) / kMaxBars;
    }
    const double x_min = first - 0.5;
    const double x_max = first + span - 0.5;
    m_view_first = x_min;
    m_view_last = x_max;

    std::vector<LatencyBarsItem::Bar> bar_list;
    bool any_on_time = false;
    bool any_late = false;
    bool any_first = false;
    double y_top = deadline_ms;
    int plotted_chunks = 0;
    int bars = 0;
    for (int start = first; start < count; start += m_bucket) {
        const int end = std::min(count, start + m_bucket);
        double value = 0.0;
        bool is_first = false;
        for (int i = start; i < end; ++i) {
            value = std::max(value, model.record(i).interArrivalMs());
            is_first = is_first || model.record(i).index == 0;
        }
        plotted_chunks += end - start;
        ++bars;
        y_top = std::max(y_top, value);
        LatencyBarsItem::Bar bar;
        bar.x0 = start - 0.5 + kBarGap;
        bar.x1 = end - 0.5 - kBarGap;
        bar.value_ms = value;
        bar.first_chunk = model.record(start).index;
        bar.last_chunk = model.record(end - 1).index;
        if (is_first && m_bucket == 1) {
            bar.kind = LatencyBarsItem::Kind::First;
            any_first = true;
        } else if (value > deadline_ms) {
            bar.kind = LatencyBarsItem::Kind::Late;
            any_late = true;
        } else {
            bar.kind = LatencyBarsItem::Kind::OnTime;
            any_on_time = true;
        }
        bar_list.push_back(bar);
    }
    m_plotted_chunks = plotted_chunks;
    m_plotted_bars = bars;

    QList<QPointF> comparison;
    const int comparison_end =
        std::min(static_cast<int>(comparison_records.size()), static_cast<int>(std::ceil(x_max)));
    for (int i = std::max(0, first); i < comparison_end; i += m_bucket) {
        const double value = comparison_records[static_cast<size_t>(i)].interArrivalMs();
        comparison.append(QPointF(comparison_records[static_cast<size_t>(i)].index, value));
        y_top = std::max(y_top, value);
    }

    // The session's percentiles as the counters show them: over the steady chunks once
    // there are some, so the TTFC and the warmup ramp do not pull them up.
    QLineSeries* const lines[] = {m_p50, m_p95, m_p99};
    const double fractions[] = {0.50, 0.95, 0.99};
    const char* const names[] = {"p50", "p95", "p99"};
    for (int i = 0; i < 3; ++i) {
        QList<QPointF> points;
        const auto percentile = model.percentileMs(fractions[i]);
        if (m_percentiles_visible && percentile) {
            const double value = *percentile;
            points = {QPointF(x_min, value), QPointF(x_max, value)};
            lines[i]->setName(
                QStringLiteral("%1 %2 ms").arg(QLatin1String(names[i])).arg(value, 0, 'f', 0));
            y_top = std::max(y_top, value);
        }
        lines[i]->replace(points);
    }

    y_top *= 1.15;
    const double mark_y = y_top * 0.025;

    m_bars->setBars(std::move(bar_list));
    m_comparison_line->replace(comparison);
    m_comparison_line->setVisible(!comparison_records.empty());
    m_comparison_line->setName(model.comparisonLabel());
    m_deadline->replace({QPointF(x_min, deadline_ms), QPointF(x_max, deadline_ms)});

    QList<QPointF> sent;
    QList<QPointF> started;
    QList<QPointF> completed;
    QList<QPointF> failed;
    const auto [first_event, last_event] = model.eventsIn(x_min, x_max);
    for (std::size_t e = first_event; e < last_event; ++e) {
        const ChartEventMark& mark = model.events()[e];
        const QPointF point(mark.chunk_position, mark_y);
        switch (mark.kind) {
        case ChartEventMark::Kind::Sent:
            sent.append(point);
            break;
        case ChartEventMark::Kind::Started:
            started.append(point);
            break;
        case ChartEventMark::Kind::Completed:
            completed.append(point);
            break;
        case ChartEventMark::Kind::Failed:
            failed.append(point);
            break;
        }
    }
    m_sent->replace(sent);
    m_started->replace(started);
    m_completed->replace(completed);
    m_failed->replace(failed);

    // One star per bar that holds a stall (a decimated bar may stand for several).
    QList<QPointF> stalls;
    for (int start = first; start < count; start += m_bucket) {
        const int end = std::min(count, start + m_bucket);
        for (int i = start; i < end; ++i) {
            if (model.stallMs(i) > 0) {
                double bar = 0.0;
                for (int j = start; j < end; ++j) {
                    bar = std::max(bar, model.record(j).interArrivalMs());
                }
                const double x = m_bucket == 1 ? static_cast<double>(model.record(i).index)
                                               : (start + end - 1) / 2.0;
                stalls.append(QPointF(x, bar + y_top * 0.04));
                break;
            }
        }
    }
    m_stall_series->replace(stalls);

    m_axis_x->setRange(x_min, x_max);
    m_axis_y->setRange(0.0, y_top);
    // A 1-2-5 step giving about ten labelled chunks across the view.
    const double raw_step = std::max(1.0, span / 10.0);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw_step)));
    double step = magnitude;
    for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
        step = factor * magnitude;
        if (step >= raw_step) {
            break;
        }
    }
    m_axis_x->setTickType(QValueAxis::TicksDynamic);
    m_axis_x->setTickAnchor(0.0);
    m_axis_x->setTickInterval(step);
    m_axis_y->applyNiceNumbers();
    // The warmup shade fills the plot's full height, whatever the nice axis maximum is.
    QList<QPointF> warmup;
    const double warmup_end = std::min<double>(warmup_chunks - 0.5, x_max);
    if (warmup_chunks > 0 && warmup_end > x_min) {
        warmup = {QPointF(std::max(x_min, -0.5), m_axis_y->max()),
                  QPointF(warmup_end, m_axis_y->max())};
    }
    m_warmup->upperSeries()->replace(warmup);

    // A compact legend naming only what is on screen (Qt's legend would list every
    // category, empty or not, and take the plot's height).
    const QPalette pal = palette();
    const auto swatch = [](const QColor& color, const QString& glyph, const QString& text) {
        return QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
            .arg(color.name(), glyph, text.toHtmlEscaped());
    };
    QStringList legend;
    if (any_on_time || count == 0) {
        legend << swatch(onTimeColor(pal), QStringLiteral("&#9632;"), tr("on time"));
    }
    if (any_late) {
        legend << swatch(lateColor(pal), QStringLiteral("&#9632;"), tr("late"));
    }
    if (any_first) {
        legend << swatch(accentColor(pal), QStringLiteral("&#9632;"), tr("first chunk (TTFC)"));
    }
    legend << swatch(nearLimitColor(pal), QStringLiteral("&#9473;&#9473;"),
                     tr("deadline %1 ms").arg(deadline_ms, 0, 'f', 1));
    if (warmup_chunks > 0) {
        legend << swatch(mutedColor(pal), QStringLiteral("&#9617;"),
                         tr("warmup (%1 chunks)").arg(warmup_chunks));
    }
    if (model.stallMarkCount() > 0) {
        legend << swatch(stallColor(pal), QStringLiteral("&#9733;"), tr("simulated viewer stall"));
    }
    if (!model.events().empty()) {
        legend << swatch(accentColor(pal), QStringLiteral("&#9650;"), tr("sent"))
               << swatch(nearLimitColor(pal), QStringLiteral("&#9632;"), tr("started"))
               << swatch(onTimeColor(pal), QStringLiteral("&#9670;"), tr("completed"));
    }
    if (!comparison_records.empty()) {
        legend << swatch(accentColor(pal), QStringLiteral("&#9679;&#9473;"),
                         model.comparisonLabel());
    }
    if (m_percentiles_visible && model.percentileMs(0.5)) {
        for (QLineSeries* line : lines) {
            legend << swatch(mutedColor(pal), QStringLiteral("&#8943;"), line->name());
        }
    }
    m_legend->setText(legend.join(QStringLiteral("&nbsp;&nbsp;&nbsp;")));

    const int late_count = model.lateChunkCount();
    QString summary;
    if (!model.primaryLabel().isEmpty()) {
        summary = model.primaryLabel() + QStringLiteral(" · ");
    }
    summary += tr("%n chunk(s)", "", count);
    if (model.expectedChunks() > 0) {
        summary += QStringLiteral(" / %1").arg(model.expectedChunks());
    }
    const int judged = std::max(0, count - 1);
    summary += tr(" · late %1 of %2 (%3%)")
                   .arg(late_count)
                   .arg(judged)
                   .arg(judged > 0 ? 100.0 * late_count / judged : 0.0, 0, 'f', 1);
    summary += tr(" · deadline %1 ms").arg(deadline_ms, 0, 'f', 1);
    if (m_bucket > 1) {
        summary += tr(" · %1 chunks per bar").arg(m_bucket);
    }
    m_summary->setText(summary);
}

void LatencyChart::applyPalette() {
    const QPalette pal = palette();
    const bool dark = isDarkPalette(pal);
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundBrush(pal.color(QPalette::Base));
    m_chart->setBackgroundRoundness(4);
    m_chart->setPlotAreaBackgroundVisible(false);
    const QColor text = pal.color(QPalette::Text);
    QColor grid = text;
    grid.setAlphaF(0.12f);
    for (QValueAxis* axis : {m_axis_x, m_axis_y}) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setGridLineColor(grid);
        axis->setLinePenColor(mutedColor(pal));
        axis->setMinorGridLineVisible(false);
    }

    const auto style_bars = [](QAreaSeries* bars, QColor color) {
        bars->setBrush(color);
        bars->setPen(Qt::NoPen);
    };
    m_bars->setColor(LatencyBarsItem::Kind::OnTime, onTimeColor(pal));
    m_bars->setColor(LatencyBarsItem::Kind::Late, lateColor(pal));
    m_bars->setColor(LatencyBarsItem::Kind::First, accentColor(pal));
    m_bars->setColor(LatencyBarsItem::Kind::InFlight, nearLimitColor(pal));
    QColor shade = text;
    shade.setAlphaF(dark ? 0.08f : 0.06f);
    style_bars(m_warmup, shade);

    QPen deadline(nearLimitColor(pal), 2.0, Qt::DashLine);
    m_deadline->setPen(deadline);
    const QColor percentile_color = mutedColor(pal);
    m_p50->setPen(QPen(percentile_color, 1.2, Qt::DotLine));
    m_p95->setPen(QPen(percentile_color, 1.2, Qt::DashDotLine));
    m_p99->setPen(QPen(percentile_color, 1.2, Qt::DashDotDotLine));
    m_comparison_line->setPen(QPen(accentColor(pal), 1.6));
    m_comparison_line->setColor(accentColor(pal));

    const auto style_marks = [](QScatterSeries* marks, QColor color) {
        marks->setColor(color);
        marks->setBorderColor(color.darker(130));
    };
    style_marks(m_sent, accentColor(pal));
    style_marks(m_started, nearLimitColor(pal));
    style_marks(m_completed, onTimeColor(pal).lighter(115));
    style_marks(m_failed, lateColor(pal));
    style_marks(m_stall_series, stallColor(pal));
}

QString LatencyChart::chunkDescription(qint64 index) const {
    if (index < 0 || index >= m_model->chunkCount()) {
        return {};
    }
    const auto& record = m_model->record(static_cast<int>(index));
    const double deadline_ms = m_model->deadlineMs();
    const double ms = record.interArrivalMs();
    QString text =
        tr("chunk %1: %2 ms after the previous chunk").arg(record.index).arg(ms, 0, 'f', 1);
    if (record.index == 0) {
        text = tr("chunk 0: first chunk after %1 ms (TTFC)").arg(ms, 0, 'f', 1);
    } else if (ms > deadline_ms) {
        text += tr(", late by %1 ms").arg(ms - deadline_ms, 0, 'f', 1);
    } else {
        text += tr(", %1 ms to spare").arg(deadline_ms - ms, 0, 'f', 1);
    }
    text += tr("\narrived at %1 s · %2 frames · %3 KiB")
                .arg(record.arrival_s, 0, 'f', 3)
                .arg(record.num_frames)
                .arg(static_cast<double>(record.byte_length) / 1024.0, 0, 'f', 1);
    if (record.index < m_model->warmupChunks()) {
        text += tr("\nwarmup chunk (not in the steady statistics)");
    }
    return text;
}

void LatencyChart::showBarTooltip(const LatencyBarsItem::Bar& bar, const QPoint& screen_position) {
    if (bar.first_chunk != bar.last_chunk) {
        QToolTip::showText(screen_position, tr("chunks %1-%2 (tallest shown: %3 ms); zoom in "
                                               "with a drag, right-click to zoom out")
                                                .arg(bar.first_chunk)
                                                .arg(bar.last_chunk)
                                                .arg(bar.value_ms, 0, 'f', 1));
        return;
    }
    QToolTip::showText(screen_position, chunkDescription(bar.first_chunk));
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
