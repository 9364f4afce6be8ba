#pragma once
// The picture of a chart for a report, shared by the latency chart and the Quality track: the
// chart re-laid out at the image's own size (not the on-screen view scaled into a corner of
// it), under a header of its title, its summary line and its legend, on the palette's base
// colour. The view gets its size back afterwards.

#include <QColor>
#include <QImage>
#include <QSize>
#include <QString>

#include <functional>
#include <initializer_list>

class QAbstractAxis;
class QChart;
class QChartView;
class QPalette;
class QValueAxis;

namespace lbm::ui {

struct ReportHeader {
    QString title;       // plain text: run, endpoint, model, profile, date
    QString summary;     // plain text
    QString legend_html; // the chart's own legend
};

// Renders view at size (the chart area; the header goes above it). redraw runs once the view
// has the new size, so a chart that places its marks from its plot area places them for it.
QImage renderChartReport(QChartView* view, const ReportHeader& header, const QSize& size,
                         const QColor& background, const std::function<void()>& redraw);
// The view as it is on screen, scaled into an image of size (tests, thumbnails).
QImage renderChartView(QChartView* view, const QSize& size, const QColor& background);
// A 1-2-5 tick step on the chunk axis giving about ten labelled chunks across span chunks,
// anchored at chunk 0 (both charts, so their labels line up).
void setChunkAxisTicks(QValueAxis* axis, double span);
// Both charts' look under palette: the light or dark theme, the base colour behind, and axes
// with the text colour, a faint grid and no minor grid. The theme resets series colours, so
// each chart sets its own after this.
void applyChartPalette(QChart* chart, const QPalette& palette,
                       std::initializer_list<QAbstractAxis*> axes);

} // namespace lbm::ui
