#include "ui/chart_report_image.h"

#include "ui/status_colors.h"

#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QPainter>
#include <QTextDocument>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace lbm::ui {

QImage renderChartReport(QChartView* view, const ReportHeader& header, const QSize& size,
                         const QColor& background, const std::function<void()>& redraw) {
    const QSize view_size = view->size();
    view->resize(size);
    // The chart lays itself out on a posted request: now, so the plot fills the new size.
    if (view->chart()->layout()) {
        view->chart()->layout()->activate();
    }
    redraw();

    QTextDocument text;
    text.setTextWidth(size.width() - 24);
    text.setHtml(
        QStringLiteral("<div style=\"font-size:17px\"><b>%1</b></div>"
                       "<div style=\"font-size:13px\">%2</div>"
                       "<div style=\"font-size:13px\">%3</div>")
            .arg(header.title.toHtmlEscaped(), header.summary.toHtmlEscaped(), header.legend_html));
    const int header_height = static_cast<int>(std::ceil(text.size().height())) + 16;
    QImage image(size.width(), size.height() + header_height, QImage::Format_ARGB32_Premultiplied);
    image.fill(background);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.translate(12, 8);
    text.drawContents(&painter);
    painter.resetTransform();
    view->render(&painter, QRectF(0, header_height, size.width(), size.height()),
                 QRect(QPoint(0, 0), size));
    painter.end();

    view->resize(view_size);
    if (view->chart()->layout()) {
        view->chart()->layout()->activate();
    }
    redraw();
    return image;
}

QImage renderChartView(QChartView* view, const QSize& size, const QColor& background) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(background);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    view->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)));
    return image;
}

void setChunkAxisTicks(QValueAxis* axis, double span) {
    const double raw_step = std::max(1.0, span / 10.0);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw_step)));
    double step = magnitude;
    for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
        step = factor * magnitude;
        if (step >= raw_step) {
            break;
        }
    }
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(step);
}

void applyChartPalette(QChart* chart, const QPalette& palette,
                       std::initializer_list<QAbstractAxis*> axes) {
    chart->setTheme(isDarkPalette(palette) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setBackgroundRoundness(4);
    chart->setPlotAreaBackgroundVisible(false);
    const QColor text = palette.color(QPalette::Text);
    QColor grid = text;
    grid.setAlphaF(0.12f);
    for (QAbstractAxis* axis : axes) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setGridLineColor(grid);
        axis->setLinePenColor(mutedColor(palette));
        axis->setMinorGridLineVisible(false);
    }
}

} // namespace lbm::ui
