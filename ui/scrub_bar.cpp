#include "ui/scrub_bar.h"

#include "ui/status_colors.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lbm::ui {

namespace {
constexpr int kMarkStrip = 12; // px above the slider for marks
constexpr int kHitPx = 4;      // how close the pointer must be to a mark
} // namespace

ScrubBar::ScrubBar(QWidget* parent)
    : QWidget(parent) {
    setMouseTracking(true);
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setRange(0, 0);
    m_slider->setToolTip(
        tr("The recording: drag to scrub (Left / Right: a frame, Shift: a chunk)"));
    m_play = new QToolButton(this);
    m_play->setText(QStringLiteral("▶"));
    m_play->setToolTip(tr("Play or pause the recording (Space)"));
    m_previous = new QToolButton(this);
    m_previous->setText(QStringLiteral("◀|"));
    m_previous->setToolTip(tr("Previous frame (Left)"));
    m_previous->setAutoRepeat(true);
    m_next = new QToolButton(this);
    m_next->setText(QStringLiteral("|▶"));
    m_next->setToolTip(tr("Next frame (Right)"));
    m_next->setAutoRepeat(true);
    m_label = new QLabel(this);
    m_label->setTextFormat(Qt::PlainText);
    connect(m_play, &QToolButton::clicked, this, &ScrubBar::playToggled);
    connect(m_previous, &QToolButton::clicked, this, [this] { emit stepRequested(-1); });
    connect(m_next, &QToolButton::clicked, this, [this] { emit stepRequested(1); });
    connect(m_slider, &QSlider::valueChanged, this, &ScrubBar::positionChanged);
    auto* row = new QHBoxLayout();
    row->setContentsMargins(0, kMarkStrip, 0, 0);
    row->addWidget(m_play);
    row->addWidget(m_previous);
    row->addWidget(m_slider, 1);
    row->addWidget(m_next);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(row);
    layout->addWidget(m_label);
}

void ScrubBar::setFrames(int count, const QList<ScrubMark>& marks) {
    m_count = count;
    m_marks = marks;
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

QString ScrubBar::label() const {
    return m_label->text();
}

void ScrubBar::setPlaying(bool playing) {
    m_play->setText(playing ? QStringLiteral("❚❚") : QStringLiteral("▶"));
}

int ScrubBar::xOfFrame(int frame) const {
    QStyleOptionSlider option;
    option.initFrom(m_slider);
    option.orientation = Qt::Horizontal;
    option.minimum = 0;
    option.maximum = std::max(1, m_count - 1);
    const QRect groove = m_slider->style()->subControlRect(QStyle::CC_Slider, &option,
                                                           QStyle::SC_SliderGroove, m_slider);
    const int left = m_slider->x() + groove.left() + 6;
    const int width = groove.width() - 12;
    return left + static_cast<int>(
                      std::lround(static_cast<double>(width) * frame / std::max(1, m_count - 1)));
}

int ScrubBar::markAt(int x) const {
    int best = -1;
    int best_distance = kHitPx + 1;
    for (int i = 0; i < m_marks.size(); ++i) {
        const ScrubMark& mark = m_marks[i];
        int distance = std::abs(xOfFrame(mark.frame) - x);
        // A flag's band covers its chunk: anywhere over it is on the mark.
        if (mark.kind == ScrubMark::Kind::Flag && mark.span_frames > 1 &&
            x >= xOfFrame(mark.frame) && x <= xOfFrame(mark.frame + mark.span_frames - 1)) {
            distance = 0;
        }
        // Events and flags win over chunk ticks at the same place.
        if (distance < best_distance || (distance == best_distance && best >= 0 &&
                                         m_marks[best].kind == ScrubMark::Kind::Chunk)) {
            best = i;
            best_distance = distance;
        }
    }
    return best;
}

void ScrubBar::paintEvent(QPaintEvent* event) {
    QWidget::paintEvent(event);
    if (m_count < 2) {
        return;
    }
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    // Chunk ticks first, flags over them, events on top: a prompt mark at a flagged chunk's
    // first frame stays visible above the flag's band.
    for (const ScrubMark::Kind kind :
         {ScrubMark::Kind::Chunk, ScrubMark::Kind::Flag, ScrubMark::Kind::Event}) {
        for (const ScrubMark& mark : std::as_const(m_marks)) {
            if (mark.kind == kind) {
                paintMark(painter, mark);
            }
        }
    }
}

void ScrubBar::paintMark(QPainter& painter, const ScrubMark& mark) const {
    const int x = xOfFrame(mark.frame);
    switch (mark.kind) {
    case ScrubMark::Kind::Chunk:
        painter.setPen(QPen(mutedColor(palette()), 1));
        painter.drawLine(x, kMarkStrip - 5, x, kMarkStrip - 1);
        break;
    case ScrubMark::Kind::Event:
        painter.setPen(Qt::NoPen);
        painter.setBrush(accentColor(palette()));
        painter.drawPolygon(QPolygon({QPoint(x - 4, 1), QPoint(x + 4, 1), QPoint(x, 8)}));
        break;
    case ScrubMark::Kind::Flag: {
        // A tick at the chunk's start in its first flag's colour, and over the frames it spans
        // a band of one stripe per flag, stacked from the bottom: a flag marks a whole chunk,
        // and a chunk with two flags shows both.
        const QColor color = mark.color.isValid() ? mark.color : lateColor(palette());
        const QList<QColor> stripes = mark.stripes.isEmpty() ? QList<QColor>{color} : mark.stripes;
        painter.setPen(Qt::NoPen);
        painter.setBrush(color);
        const int end = mark.span_frames > 1 ? xOfFrame(mark.frame + mark.span_frames - 1) : x;
        painter.drawRect(QRect(QPoint(x - 1, 2), QPoint(x + 1, kMarkStrip - 1)));
        constexpr int kBandRoom = kMarkStrip - 2; // rows 2 .. kMarkStrip - 1
        const int stripe = std::clamp(kBandRoom / static_cast<int>(stripes.size()), 1, 3);
        for (int i = 0; i < stripes.size() && (i + 1) * stripe <= kBandRoom; ++i) {
            painter.setBrush(stripes[i]);
            const int bottom = kMarkStrip - 1 - i * stripe;
            painter.drawRect(
                QRect(QPoint(x - 1, bottom - stripe + 1), QPoint(std::max(x + 1, end), bottom)));
        }
        break;
    }
    }
}

void ScrubBar::mouseMoveEvent(QMouseEvent* event) {
    const int mark =
        event->position().y() <= kMarkStrip ? markAt(event->position().toPoint().x()) : -1;
    if (mark >= 0) {
        QToolTip::showText(event->globalPosition().toPoint(), m_marks[mark].tooltip, this);
    } else {
        QToolTip::hideText();
    }
    QWidget::mouseMoveEvent(event);
}

void ScrubBar::mousePressEvent(QMouseEvent* event) {
    const int mark = markAt(event->position().toPoint().x());
    if (event->position().y() <= kMarkStrip && mark >= 0) {
        setPosition(m_marks[mark].frame);
        event->accept();
        return;
    }
    QWidget::mousePressEvent(event);
}

} // namespace lbm::ui
