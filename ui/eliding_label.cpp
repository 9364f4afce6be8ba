#include "ui/eliding_label.h"

#include <QFontMetrics>

#include <algorithm>

namespace lbm::ui {

ElidingLabel::ElidingLabel(QWidget* parent)
    : QLabel(parent) {
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
    // As wide as the layout gives, never wider than that because of the text.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void ElidingLabel::setFullText(const QString& text) {
    if (text == m_full && !text.isEmpty()) {
        return;
    }
    m_full = text;
    elide();
}

void ElidingLabel::setNote(const QString& note) {
    m_note = note;
    elide();
}

QSize ElidingLabel::minimumSizeHint() const {
    return QSize(fontMetrics().horizontalAdvance(QStringLiteral("…")) * 4,
                 QLabel::minimumSizeHint().height());
}

void ElidingLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    elide();
}

void ElidingLabel::elide() {
    const QString shown =
        fontMetrics().elidedText(m_full, Qt::ElideMiddle, std::max(0, contentsRect().width()));
    if (shown != text()) {
        setText(shown);
    }
    setToolTip(shown == m_full    ? m_note
               : m_note.isEmpty() ? m_full
                                  : m_full + QLatin1Char('\n') + m_note);
}

} // namespace lbm::ui
