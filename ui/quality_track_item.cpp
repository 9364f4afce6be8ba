#include "ui/quality_track_item.h"

#include "ui/quality_signals.h"
#include "ui/quality_style.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsSceneHoverEvent>
#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>

namespace lbm::ui {

namespace {

// Above the grid, below the event marks (Qt Charts draws scatter series at z 8).
constexpr qreal kItemZ = 4.5;
// The gap on each side of a bar, in chunks: the latency chart's, so the bars line up.
constexpr double kBarGap = 0.12;

QColor withAlpha(QColor color, double alpha) {
    color.setAlphaF(static_cast<float>(alpha));
    return color;
}

} // namespace

QualityTrackItem::Column QualityTrackItem::columnOf(const quality::ChunkQuality& chunk,
                                                    const quality::QualityThresholds& thresholds) {
    using quality::QualityFlag;
    Column column;
    column.first_chunk = column.last_chunk = chunk.generation_index;
    column.seam = seamLevel(chunk, thresholds);
    if (chunk.flagged(QualityFlag::Seam)) {
        column.seam_kind = SeamKind::Flagged;
    } else if (column.seam && *column.seam >= 1.0) {
        column.seam_kind = SeamKind::Excused;
    } else if (nearThreshold(QualityFlag::Seam, chunk, thresholds)) {
        column.seam_kind = SeamKind::Near;
    }
    column.freeze = freezeLevel(chunk, thresholds);
    column.blur = blurLevel(chunk, thresholds);
    column.tint = tintLevel(chunk, thresholds);
    column.in_transition = chunk.in_transition;
    column.flags = chunk.flags;
    return column;
}

void QualityTrackItem::merge(Column& a, const Column& b) {
    if (b.seam && (!a.seam || *b.seam > *a.seam)) {
        a.seam = b.seam;
    }
    a.seam_kind = std::max(a.seam_kind, b.seam_kind);
    a.freeze = std::max(a.freeze, b.freeze);
    a.blur = std::max(a.blur, b.blur);
    a.tint = std::max(a.tint, b.tint);
    a.in_transition = a.in_transition || b.in_transition;
    a.flags |= b.flags;
    a.last_chunk = b.last_chunk;
}

QualityTrackItem::QualityTrackItem(QChart* chart)
    : QGraphicsObject(chart)
    , m_chart(chart) {
    setZValue(kItemZ);
    setAcceptHoverEvents(true);
    // Clicks go to the chart view, which asks columnAt().
    setAcceptedMouseButtons(Qt::NoButton);
    connect(chart, &QChart::plotAreaChanged, this, [this] {
        prepareGeometryChange();
        update();
    });
}

void QualityTrackItem::setColumns(std::vector<Column> columns, double cap) {
    m_columns = std::move(columns);
    m_cap = cap;
    update();
}

void QualityTrackItem::setPlayhead(std::optional<double> chunk) {
    m_playhead = chunk;
    update();
}

void QualityTrackItem::applyPalette(const QPalette& palette) {
    m_palette = palette;
    update();
}

double QualityTrackItem::badgeSizePx(double plot_height) {
    return std::clamp(plot_height / 9.0, 8.0, 14.0);
}

double QualityTrackItem::badgeBandPx(double plot_height) {
    // Two rows of badges (blur and tint often come together) and a little air.
    return 2.0 * (badgeSizePx(plot_height) + 2.0) + 4.0;
}

QRectF QualityTrackItem::boundingRect() const {
    return m_chart->plotArea();
}

QPointF QualityTrackItem::at(double x, double level) const {
    return m_transform.map(QPointF(x, level));
}

void QualityTrackItem::updateTransform() const {
    // Both axes are linear: three points give the whole mapping, so painting hundreds of
    // columns does not ask the chart for each of their corners.
    const QPointF origin = m_chart->mapToPosition(QPointF(0.0, 0.0));
    const QPointF x_unit = m_chart->mapToPosition(QPointF(1.0, 0.0)) - origin;
    const QPointF y_unit = m_chart->mapToPosition(QPointF(0.0, 1.0)) - origin;
    m_transform =
        QTransform(x_unit.x(), x_unit.y(), y_unit.x(), y_unit.y(), origin.x(), origin.y());
}

void QualityTrackItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* /*option*/,
                             QWidget* /*widget*/) {
    updateTransform();
    const QRectF plot = m_chart->plotArea();
    painter->save();
    painter->setClipRect(plot);
    // Rectangles on the pixel grid need no antialiasing (and at 800 columns it is most of the
    // cost); lines, marks and badges get it.
    painter->setRenderHint(QPainter::Antialiasing, false);
    paintShades(painter);
    // The baseline the badges hang from.
    painter->setPen(QPen(withAlpha(m_palette.color(QPalette::Text), 0.25), 1.0));
    const double zero_y = at(0.0, 0.0).y();
    painter->drawLine(QPointF(plot.left(), zero_y), QPointF(plot.right(), zero_y));
    paintSeamBars(painter);
    painter->setRenderHint(QPainter::Antialiasing, true);
    // The flag threshold: one line for every signal, over the bars as the deadline is.
    const double threshold_y = at(0.0, 1.0).y();
    painter->setPen(QPen(nearLimitColor(m_palette), 2.0, Qt::DashLine));
    painter->drawLine(QPointF(plot.left(), threshold_y), QPointF(plot.right(), threshold_y));
    paintFreezeMarks(painter);
    paintLine(painter, &Column::blur, blurColor(m_palette));
    paintLine(painter, &Column::tint, tintColor(m_palette));
    paintBadges(painter);
    if (m_playhead) {
        const double x = at(*m_playhead, 0.0).x();
        painter->setPen(QPen(m_palette.color(QPalette::Text), 1.4));
        painter->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    }
    painter->restore();
}

void QualityTrackItem::paintShades(QPainter* painter) const {
    // Prompt transitions: changes are expected there, and the lines fade.
    const QRectF plot = m_chart->plotArea();
    painter->setPen(Qt::NoPen);
    painter->setBrush(withAlpha(accentColor(m_palette), 0.10));
    for (const Column& column : m_columns) {
        if (column.in_transition) {
            const double left = at(column.x0, 0.0).x();
            const double right = at(column.x1, 0.0).x();
            painter->drawRect(QRectF(QPointF(left, plot.top()), QPointF(right, plot.bottom())));
        }
    }
}

void QualityTrackItem::paintSeamBars(QPainter* painter) const {
    // By SeamKind: Normal, Near, Excused, Flagged.
    const QColor colors[] = {
        withAlpha(m_palette.color(QPalette::Text), 0.32), nearLimitColor(m_palette),
        withAlpha(m_palette.color(QPalette::Text), 0.45), lateColor(m_palette)};
    QFont font = painter->font();
    font.setPixelSize(10);
    font.setBold(true);
    painter->setFont(font);
    const QFontMetricsF metrics(font);
    for (const Column& column : m_columns) {
        if (!column.seam) {
            continue;
        }
        const auto kind = static_cast<int>(column.seam_kind);
        QRectF bar(at(column.x0 + kBarGap, std::min(*column.seam, m_cap)),
                   at(column.x1 - kBarGap, 0.0));
        bar = bar.normalized();
        if (bar.width() < 1.0) {
            bar.setWidth(1.0);
        }
        if (column.seam_kind == SeamKind::Excused) {
            // Hatched: over the threshold, but explained (QualityAnalyzer::judgeSeam's notes).
            painter->setPen(QPen(colors[kind], 1.0));
            painter->setBrush(QBrush(colors[kind], Qt::BDiagPattern));
        } else {
            painter->setPen(Qt::NoPen);
            painter->setBrush(colors[kind]);
        }
        painter->drawRect(bar);
        const QString value = QString::number(*column.seam, 'f', 1) + QChar(0xd7);
        if (*column.seam > m_cap && metrics.horizontalAdvance(value) + 2 <= bar.width()) {
            // Off the scale: the bar says how far.
            painter->setPen(column.seam_kind == SeamKind::Excused
                                ? m_palette.color(QPalette::Text)
                                : m_palette.color(QPalette::Base));
            painter->drawText(bar.adjusted(0, 2, 0, 0), Qt::AlignHCenter | Qt::AlignTop, value);
        }
    }
}

void QualityTrackItem::paintLine(QPainter* painter, double Column::*level,
                                 const QColor& color) const {
    if (m_columns.size() < 1) {
        return;
    }
    // Segment by segment: a segment touching a prompt transition is faint (expected there).
    const QPen solid(color, 2.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    const QPen faint(withAlpha(color, 0.35), 1.4, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    const auto point = [&](const Column& column) {
        return at((column.x0 + column.x1) / 2.0, std::min(column.*level, m_cap));
    };
    // Runs of segments of one kind go out as one polyline each.
    QList<QPolygonF> solid_runs;
    QList<QPolygonF> faint_runs;
    bool previous_faint = false;
    for (size_t i = 0; i + 1 < m_columns.size(); ++i) {
        const Column& a = m_columns[i];
        const Column& b = m_columns[i + 1];
        const bool is_faint = a.in_transition || b.in_transition;
        QList<QPolygonF>& runs = is_faint ? faint_runs : solid_runs;
        if (i == 0 || is_faint != previous_faint) {
            runs.append(QPolygonF{point(a)});
        }
        runs.last().append(point(b));
        previous_faint = is_faint;
    }
    painter->setBrush(Qt::NoBrush);
    painter->setPen(faint);
    for (const QPolygonF& run : std::as_const(faint_runs)) {
        painter->drawPolyline(run);
    }
    painter->setPen(solid);
    for (const QPolygonF& run : std::as_const(solid_runs)) {
        painter->drawPolyline(run);
    }
    // Points where there is room for them, so a single chunk shows too.
    const double width = at(m_columns.front().x1, 0).x() - at(m_columns.front().x0, 0).x();
    if (width >= 6.0 || m_columns.size() == 1) {
        painter->setPen(Qt::NoPen);
        for (const Column& column : m_columns) {
            painter->setBrush(column.in_transition ? withAlpha(color, 0.35) : color);
            const QPointF centre = point(column);
            if (column.*level > m_cap) {
                // Off the scale: a chevron pointing up instead of a dot.
                painter->drawPolygon(
                    QPolygonF({centre + QPointF(-4.0, 2.0), centre + QPointF(0.0, -4.0),
                               centre + QPointF(4.0, 2.0)}));
            } else {
                painter->drawEllipse(centre, 2.5, 2.5);
            }
        }
    }
}

void QualityTrackItem::paintFreezeMarks(QPainter* painter) const {
    // A freeze has no line to follow: a square at the longest repeated run's level, hollow
    // under the threshold.
    const QColor color = freezeColor(m_palette);
    for (const Column& column : m_columns) {
        if (column.freeze <= 0.0) {
            continue;
        }
        const QPointF centre = at((column.x0 + column.x1) / 2.0, std::min(column.freeze, m_cap));
        const QRectF square(centre - QPointF(4.5, 4.5), QSizeF(9.0, 9.0));
        painter->setPen(QPen(color, 1.6));
        painter->setBrush(column.freeze >= 1.0 ? QBrush(color) : QBrush(Qt::NoBrush));
        painter->drawRect(square);
    }
}

void QualityTrackItem::paintBadges(QPainter* painter) const {
    const QRectF plot = m_chart->plotArea();
    const double size = badgeSizePx(plot.height());
    const double top = at(0.0, 0.0).y() + 3.0;
    QFont font = painter->font();
    font.setPixelSize(static_cast<int>(std::lround(size * 0.8)));
    font.setBold(true);
    painter->setFont(font);
    for (const Column& column : m_columns) {
        if (!column.flags) {
            continue;
        }
        const double left = at(column.x0 + kBarGap, 0.0).x();
        const double right = at(column.x1 - kBarGap, 0.0).x();
        const double centre = (left + right) / 2.0;
        const bool room = right - left >= size * 0.75;
        int row = 0;
        const QStringList names = quality::qualityFlagNames(column.flags);
        for (const quality::QualityFlag flag : quality::allQualityFlags()) {
            if (!column.flags.testFlag(flag)) {
                continue;
            }
            const QColor color = qualityFlagColor(flag, m_palette);
            const double y = top + row * (size + 2.0);
            if (!room) {
                // Too narrow for a letter: a coloured tick per flag.
                painter->setPen(Qt::NoPen);
                painter->setBrush(color);
                painter->drawRect(QRectF(centre - std::max(1.0, (right - left) / 2.0), y,
                                         std::max(2.0, right - left), size));
            } else {
                const QRectF badge(centre - size / 2.0, y, size, size);
                painter->setPen(Qt::NoPen);
                painter->setBrush(color);
                painter->drawRoundedRect(badge, 2.5, 2.5);
                painter->setPen(isDarkPalette(m_palette) ? QColor(0x10, 0x10, 0x10) : Qt::white);
                const bool more = row == 1 && names.size() > 2;
                painter->drawText(badge, Qt::AlignCenter,
                                  more ? QStringLiteral("+") : QString(qualityFlagLetter(flag)));
            }
            if (++row == 2) {
                break;
            }
        }
    }
}

const QualityTrackItem::Column* QualityTrackItem::columnAt(const QPointF& position) const {
    updateTransform();
    // Columns are in x order and fill their slots: the first whose right edge is not left of
    // position holds it, unless position is left of it (before the first, or in a gap of
    // chunks that were not analysed).
    const auto it = std::lower_bound(
        m_columns.begin(), m_columns.end(), position.x(),
        [this](const Column& column, double x) { return at(column.x1, 0.0).x() < x; });
    if (it == m_columns.end()) {
        return nullptr;
    }
    return at(it->x0, 0.0).x() <= position.x() ? &*it : nullptr;
}

void QualityTrackItem::hoverMoveEvent(QGraphicsSceneHoverEvent* event) {
    if (const Column* column = columnAt(event->pos())) {
        emit columnHovered(*column, event->screenPos());
    } else {
        emit hoverLeft();
    }
}

void QualityTrackItem::hoverLeaveEvent(QGraphicsSceneHoverEvent* /*event*/) {
    emit hoverLeft();
}

} // namespace lbm::ui
