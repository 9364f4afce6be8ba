#include "ui/banner.h"

#include "ui/status_colors.h"

#include <QEvent>

namespace lbm::ui {

Banner::Banner(QWidget* parent)
    : QLabel(parent) {
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setMargin(8);
    hide();
}

void Banner::paint(bool error) {
    const QColor color = error ? lateColor(palette()) : nearLimitColor(palette());
    // Opaque (it lies over the picture): the status colour faintly over the base colour.
    const QColor fill = mixedOver(color, palette().color(QPalette::Base), 40);
    setStyleSheet(
        QStringLiteral("QLabel { border: 1px solid %1; border-radius: 4px; background: %2; }")
            .arg(color.name(), fill.name()));
}

void Banner::overlay(QWidget* host) {
    setParent(host);
    host->installEventFilter(this);
    place();
}

bool Banner::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize) {
        place();
    }
    return QLabel::eventFilter(watched, event);
}

void Banner::place() {
    if (QWidget* host = parentWidget()) {
        const int width = host->width();
        setGeometry(0, 0, width, heightForWidth(width));
        raise();
    }
}

void Banner::showMessage(const QString& text, bool error) {
    paint(error);
    setText(text);
    place();
    show();
    m_stall = false;
}

void Banner::showStall(const QString& text) {
    if (isVisible() && !m_stall) {
        return; // a message the user has not dismissed stays
    }
    paint(true);
    setText(text);
    place();
    show();
    m_stall = true;
}

void Banner::clearStall() {
    if (m_stall) {
        dismiss();
    }
}

void Banner::dismiss() {
    hide();
    m_stall = false;
}

QString Banner::shownText() const {
    return isHidden() ? QString() : text();
}

} // namespace lbm::ui
