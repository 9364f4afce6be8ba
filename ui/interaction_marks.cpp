#include "ui/interaction_marks.h"

#include "ui/status_colors.h"

#include <QChart>
#include <QCoreApplication>

namespace lbm::ui {

namespace {

QString markName(const char* text) {
    return QCoreApplication::translate("lbm::ui::InteractionMarks", text);
}

} // namespace

QScatterSeries* makeMarkSeries(QChart* chart, const QString& name,
                               QScatterSeries::MarkerShape shape, qreal size) {
    auto* series = new QScatterSeries(chart);
    series->setName(name);
    series->setMarkerShape(shape);
    series->setMarkerSize(size);
    return series;
}

void styleMarks(QScatterSeries* marks, const QColor& color) {
    marks->setColor(color);
    marks->setBorderColor(color.darker(140));
}

InteractionMarks InteractionMarks::create(QChart* chart, qreal scale) {
    const auto make = [&](const char* name, QScatterSeries::MarkerShape shape, qreal size) {
        return makeMarkSeries(chart, markName(name), shape, qRound(size * scale));
    };
    InteractionMarks marks;
    marks.prompt_sent = make(QT_TR_NOOP("prompt sent"), QScatterSeries::MarkerShapeTriangle, 14);
    marks.prompt_started =
        make(QT_TR_NOOP("prompt started"), QScatterSeries::MarkerShapeRectangle, 12);
    marks.prompt_completed =
        make(QT_TR_NOOP("prompt completed"), QScatterSeries::MarkerShapeRotatedRectangle, 14);
    marks.camera_sent =
        make(QT_TR_NOOP("camera velocity sent"), QScatterSeries::MarkerShapeCircle, 7);
    marks.failed = make(QT_TR_NOOP("failed"), QScatterSeries::MarkerShapePentagon, 14);
    return marks;
}

void InteractionMarks::applyPalette(const QPalette& palette) const {
    styleMarks(prompt_sent, accentColor(palette));
    styleMarks(prompt_started, nearLimitColor(palette));
    styleMarks(prompt_completed, onTimeColor(palette));
    styleMarks(camera_sent, mutedColor(palette)); // quiet: they come every key press
    styleMarks(failed, lateColor(palette));
}

} // namespace lbm::ui
