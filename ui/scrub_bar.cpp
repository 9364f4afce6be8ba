#include "ui/scrub_bar.h"

#include "ui/status_colors.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QToolButton>
#include <QVBoxLayout>

namespace lbm::ui {

namespace {
constexpr int kMarkStrip = 8; // px above the slider for ticks and marks
}

ScrubBar::ScrubBar(QWidget* parent)
    : QWidget(parent) {
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setRange(0, 0);
    m_slider->setToolTip(tr("Scrub the recording (Left / Right step one frame)"));
    m_previous = new QToolButton(this);
    m_previous->setText(QStringLiteral("◀"));
    m_previous->setToolTip(tr("Previous frame (Left)"));
    m_previous->setAutoRepeat(true);
    m_next = new QToolButton(this);
    m_next->setText(QStringLiteral("▶"));
    m_next->setToolTip(tr("Next frame (Right)"));
    m_next->setAutoRepeat(true);
    m_label = new QLabel(this);
    m_label->setMinimumWidth(220);
    connect(m_previous, &QToolButton::clicked, this,
            [this] { m_slider->setValue(m_slider->value() - 1); });
    connect(m_next, &QToolButton::clicked, this,
            [this] { m_slider->setValue(m_slider->value() + 1); });
    connect(m_slider, &QSlider::valueChanged, this, &ScrubBar::positionChanged);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, kMarkStrip, 0, 0);
    layout->addWidget(m_previous);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_next);
    layout->addWidget(m_label);
}

void ScrubBar::setFrames(int count, const QList<int>& chunk_starts,
                         const QList<int>& event_frames) {
    m_count = count;
    m_chunk_starts = chunk_starts;
    m_event_frames = event_frames;
    m_slider->setRange(0, std::max(0, count - 1));
    update();
}

void ScrubBar::setPosition(int frame) {
    m_slider->setValue(frame);
}

int ScrubBar::position() const {
    return m_slider->value();
}

void ScrubBar::setLabel(const QString& text) {
    m_label->setText(text);
}

void ScrubBar::paintEvent(QPaintEvent* event) {
    QWidget::paintEvent(event);
    if (m_count < 2) {
        return;
    }
    QStyleOptionSlider option;
    option.initFrom(m_slider);
    option.orientation = Qt::Horizontal;
    option.minimum = 0;
    option.maximum = m_count - 1;
    const QRect groove = m_slider->style()->subControlRect(QStyle::CC_Slider, &option,
                                                           QStyle::SC_SliderGroove, m_slider);
    const int left = m_slider->x() + groove.left() + 6;
    const int width = groove.width() - 12;
    const auto x_of = [&](int frame) {
        return left + static_cast<int>(static_cast<double>(width) * frame / (m_count - 1));
    };
    QPainter painter(this);
    painter.setPen(QPen(mutedColor(palette()), 1));
    for (const int frame : std::as_const(m_chunk_starts)) {
        painter.drawLine(x_of(frame), 1, x_of(frame), kMarkStrip - 1);
    }
    painter.setPen(Qt::NoPen);
    painter.setBrush(accentColor(palette()));
    for (const int frame : std::as_const(m_event_frames)) {
        painter.drawEllipse(QPoint(x_of(frame), kMarkStrip / 2), 3, 3);
    }
}

} // namespace lbm::ui
