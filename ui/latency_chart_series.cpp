#include "ui/latency_chart_series.h"

#include "ui/duration_text.h"
#include "ui/latency_bars_item.h"
#include "ui/latency_chart_annotations.h"
#include "ui/status_colors.h"

#include <QAreaSeries>
#include <QChart>
#include <QCoreApplication>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>

namespace lbm::ui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("LatencyChart", text);
}

QLineSeries* makeLine(QChart* chart, const QString& name) {
    auto* series = new QLineSeries(chart);
    series->setName(name);
    return series;
}

// The colours of the percentile lines: distinct from the bars and from each other.
QColor p50Color(const QPalette& pal) {
    return accentColor(pal);
}
QColor p95Color(const QPalette& pal) {
    return stallColor(pal);
}
QColor p99Color(const QPalette& pal) {
    return isDarkPalette(pal) ? QColor(0xff, 0x9e, 0xd8) : QColor(0xb0, 0x1d, 0x7a);
}
QColor cameraColor(const QPalette& pal) {
    return mutedColor(pal);
}

// The chunk in flight while it is not yet near its deadline: the text colour, faint, over the
// base, opaque so the legend's swatch (rich text takes no alpha) is the bar's colour.
QColor waitingColor(const QPalette& pal) {
    return mixedOver(pal.color(QPalette::Text), pal.color(QPalette::Base), 77); // 30 %
}

} // namespace

LatencyChartSeries::LatencyChartSeries(QChart* chart) {
    auto* upper = new QLineSeries(chart);
    warmup = new QAreaSeries(upper);
    warmup->setParent(chart);
    warmup->setName(tr("warmup chunks"));
    deadline = makeLine(chart, tr("deadline"));
    p50 = makeLine(chart, tr("p50"));
    p95 = makeLine(chart, tr("p95"));
    p99 = makeLine(chart, tr("p99"));
    comparison = makeLine(chart, tr("comparison"));
    comparison->setPointsVisible(true);
    comparison->setVisible(false);
    interactions = InteractionMarks::create(chart, 1.0);
    stalls =
        makeMarkSeries(chart, tr("simulated viewer stall"), QScatterSeries::MarkerShapeStar, 15);
    bars = new LatencyBarsItem(chart);
    annotations = new LatencyChartAnnotations(chart);
}

QList<QAbstractSeries*> LatencyChartSeries::all() const {
    QList<QAbstractSeries*> series{warmup, deadline, p50, p95, p99, comparison};
    for (QScatterSeries* marks : this->marks()) {
        series.append(marks);
    }
    return series;
}

QList<QScatterSeries*> LatencyChartSeries::marks() const {
    return interactions.all() << stalls;
}

void LatencyChartSeries::applyPalette(const QPalette& pal) {
    const bool dark = isDarkPalette(pal);
    QColor shade = pal.color(QPalette::Text);
    shade.setAlphaF(dark ? 0.08f : 0.06f);
    warmup->setBrush(shade);
    warmup->setPen(Qt::NoPen);
    bars->setColor(LatencyBarsItem::Kind::OnTime, onTimeColor(pal));
    bars->setColor(LatencyBarsItem::Kind::Late, lateColor(pal));
    bars->setColor(LatencyBarsItem::Kind::First, accentColor(pal));
    bars->setColor(LatencyBarsItem::Kind::InFlight, nearLimitColor(pal));
    bars->setColor(LatencyBarsItem::Kind::Waiting, waitingColor(pal));
    annotations->setColors(pal.color(QPalette::Text), pal.color(QPalette::Base));

    deadline->setPen(QPen(nearLimitColor(pal), 2.0, Qt::DashLine));
    p50->setPen(QPen(p50Color(pal), 1.6, Qt::SolidLine));
    p95->setPen(QPen(p95Color(pal), 1.6, Qt::DashLine));
    p99->setPen(QPen(p99Color(pal), 2.0, Qt::DotLine));
    comparison->setPen(QPen(accentColor(pal), 1.6));
    comparison->setColor(accentColor(pal));

    interactions.applyPalette(pal);
    styleMarks(stalls, stallColor(pal));
}

QString legendHtml(const LegendContent& c, const QPalette& pal) {
    const auto swatch = [](const QColor& color, const QString& glyph, const QString& text) {
        return QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
            .arg(color.name(), glyph,
                 // An entry never breaks inside itself ("warmup (6 / chunks)"); the legend
                 // wraps between entries.
                 text.toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
    };
    QStringList legend;
    if (c.on_time) {
        legend << swatch(onTimeColor(pal), QStringLiteral("&#9632;"), tr("on time"));
    }
    if (c.late) {
        legend << swatch(lateColor(pal), QStringLiteral("&#9632;"), tr("late"));
    }
    if (c.first) {
        legend << swatch(accentColor(pal), QStringLiteral("&#9632;"), tr("first chunk (TTFC)"));
    }
    switch (c.waiting) {
    case LegendContent::Waiting::None:
        break;
    case LegendContent::Waiting::Waiting:
        legend << swatch(waitingColor(pal), QStringLiteral("&#9632;"), tr("chunk in flight"));
        break;
    case LegendContent::Waiting::NearDeadline:
        legend << swatch(nearLimitColor(pal), QStringLiteral("&#9632;"),
                         tr("chunk in flight, near the deadline"));
        break;
    case LegendContent::Waiting::Late:
        legend << swatch(lateColor(pal), QStringLiteral("&#9632;"), tr("chunk in flight, late"));
        break;
    }
    legend << swatch(nearLimitColor(pal), QStringLiteral("&#9473;&#9473;"),
                     tr("deadline %1").arg(durationText(c.deadline_ms)));
    if (c.warmup_chunks > 0) {
        legend << swatch(mutedColor(pal), QStringLiteral("&#9617;"),
                         tr("warmup (%1 chunks)").arg(c.warmup_chunks));
    }
    if (c.stalls) {
        legend << swatch(stallColor(pal), QStringLiteral("&#9733;"), tr("simulated viewer stall"));
    }
    if (c.prompt_marks) {
        legend << swatch(accentColor(pal), QStringLiteral("&#9650;"), tr("prompt sent"))
               << swatch(nearLimitColor(pal), QStringLiteral("&#9632;"), tr("started"))
               << swatch(onTimeColor(pal), QStringLiteral("&#9670;"), tr("completed"));
    }
    if (c.camera_marks) {
        legend << swatch(cameraColor(pal), QStringLiteral("&#9679;"), tr("camera sent"));
    }
    if (c.failures) {
        legend << swatch(lateColor(pal), QStringLiteral("&#11039;"), tr("failed"));
    }
    if (!c.comparison_label.isEmpty()) {
        legend << swatch(accentColor(pal), QStringLiteral("&#9679;&#9473;"), c.comparison_label);
    }
    return legend.join(QStringLiteral("&nbsp;&nbsp; ")); // breaks only between entries
}

} // namespace lbm::ui
