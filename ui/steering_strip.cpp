#include "ui/steering_strip.h"

#include "ui/count_text.h"
#include "ui/latency_chart.h"
#include "ui/quality_style.h"

#include <QChart>
#include <QChartView>
#include <QPainter>
#include <QValueAxis>

#include <algorithm>

namespace lbm::ui {
namespace {

constexpr int kStripHeight = 40;
constexpr int kLabelWidth = 44; // room for the row names when no chart lends its margin

} // namespace

SteeringStrip::SteeringStrip(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("SteeringStrip"));
    setMinimumHeight(kStripHeight);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(tr("Steering: the camera command in force (top) and the share of frames that "
                  "moved its way (bottom); red A: the picture ignored, reversed or lagged it; "
                  "tick: a command's first response"));
}

QSize SteeringStrip::sizeHint() const {
    return {400, kStripHeight};
}

void SteeringStrip::syncWith(LatencyChart* chart) {
    m_chart = chart;
    if (chart == nullptr) {
        update();
        return;
    }
    if (auto* axis = qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Horizontal).value(0))) {
        connect(axis, &QValueAxis::rangeChanged, this, [this] { update(); });
    }
    connect(chart->chart(), &QChart::plotAreaChanged, this, [this] { update(); });
    update();
}

void SteeringStrip::setChunks(const std::vector<quality::ChunkQuality>& chunks) {
    clear();
    for (const quality::ChunkQuality& chunk : chunks) {
        addChunk(chunk);
    }
}

void SteeringStrip::addChunk(const quality::ChunkQuality& chunk) {
    Column column;
    column.keys = chunk.steering_keys;
    column.moves = chunk.steering_moves;
    column.following = chunk.following;
    column.action = chunk.flagged(quality::QualityFlag::Action);
    column.responded = !chunk.responses.empty();
    if (m_columns.count(chunk.generation_index) == 0) {
        m_summary.add(chunk);
    }
    m_columns[chunk.generation_index] = column;
    update();
}

void SteeringStrip::clear() {
    m_columns.clear();
    m_summary.clear();
    update();
}

QString SteeringStrip::lastResponseText() const {
    const auto last = m_summary.last();
    if (!last) {
        return {};
    }
    const qint64 chunks = last->responseChunks().value_or(0);
    const QString keys = last->keys.isEmpty() ? tr("camera") : tr("key '%1'").arg(last->keys);
    return last->response_ms ? tr("%1 answered in %2 ms (%3)")
                                   .arg(keys)
                                   .arg(*last->response_ms, 0, 'f', 0)
                                   .arg(chunkCountText(chunks))
                             : tr("%1 answered after %2").arg(keys, chunkCountText(chunks));
}

std::pair<double, double> SteeringStrip::chunkRange() const {
    if (m_chart) {
        if (auto* axis =
                qobject_cast<QValueAxis*>(m_chart->chart()->axes(Qt::Horizontal).value(0))) {
            return {axis->min(), axis->max()};
        }
    }
    const double newest = m_columns.empty() ? 1.0 : static_cast<double>(m_columns.rbegin()->first);
    return {-0.5, newest + 0.5};
}

std::pair<int, int> SteeringStrip::plotEdges() const {
    if (m_chart) {
        if (auto* view = qobject_cast<QChartView*>(m_chart->chartView())) {
            const QRectF area = m_chart->chart()->plotArea();
            const auto local = [&](const QPointF& point) {
                return mapFromGlobal(view->viewport()->mapToGlobal(
                    view->mapFromScene(m_chart->chart()->mapToScene(point))));
            };
            const int left = local(area.topLeft()).x();
            const int right = local(area.topRight()).x();
            if (right > left + 10 && left >= 0 && right <= width()) {
                return {left, right};
            }
        }
    }
    return {kLabelWidth, width() - 4};
}

void SteeringStrip::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QPalette& colors = palette();
    const QColor steering = steeringColor(colors);
    const QColor flag = lateColor(colors);
    const auto [left, right] = plotEdges();
    const auto [low, high] = chunkRange();
    const int row = (height() - 4) / 2;
    const int command_top = 1;
    const int motion_top = command_top + row + 2;
    painter.setPen(mutedColor(colors));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    painter.setFont(small);
    painter.drawText(QRect(0, command_top, left - 4, row), Qt::AlignRight | Qt::AlignVCenter,
                     tr("keys"));
    painter.drawText(QRect(0, motion_top, left - 4, row), Qt::AlignRight | Qt::AlignVCenter,
                     tr("moved"));
    painter.drawLine(left, motion_top + row, right, motion_top + row);
    if (high <= low || m_columns.empty()) {
        return;
    }
    const double scale = (right - left) / (high - low);
    const auto x = [&](double chunk) { return left + (chunk - low) * scale; };
    painter.setClipRect(QRect(left, 0, right - left + 1, height()));
    for (const auto& [index, column] : m_columns) {
        const double from = x(static_cast<double>(index) - 0.5);
        const double to = x(static_cast<double>(index) + 0.5);
        const QRectF cell(from + 0.5, 0, std::max(1.0, to - from - 1.0), row);
        if (column.moves) {
            QColor fill = steering;
            fill.setAlpha(90);
            painter.fillRect(cell.translated(0, command_top), fill);
            if (cell.width() >= 10) {
                painter.setPen(colors.color(QPalette::WindowText));
                painter.drawText(cell.translated(0, command_top), Qt::AlignCenter,
                                 column.keys.toUpper());
            }
        }
        if (column.following) {
            const double height_share = std::clamp(*column.following, 0.0, 1.0);
            const QRectF bar(cell.left(), motion_top + row * (1.0 - height_share), cell.width(),
                             row * height_share);
            painter.fillRect(bar, steering);
        }
        if (column.action) {
            const QRectF mark(cell.left(), motion_top, cell.width(), row);
            QColor fill = flag;
            fill.setAlpha(140);
            painter.fillRect(mark, fill);
            if (cell.width() >= 8) {
                painter.setPen(Qt::white);
                painter.drawText(mark, Qt::AlignCenter, QStringLiteral("A"));
            }
        }
        if (column.responded) {
            painter.setPen(QPen(colors.color(QPalette::WindowText), 2));
            painter.drawLine(QPointF(from + 1, motion_top - 1),
                             QPointF(from + 1, motion_top + row));
        }
    }
}

} // namespace lbm::ui
