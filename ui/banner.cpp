#include "ui/banner.h"

#include "ui/status_colors.h"

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
    setStyleSheet(
        QStringLiteral("QLabel { border: 1px solid %1; border-radius: 4px; background: %2; }")
            .arg(color.name(),
                 QColor(color.red(), color.green(), color.blue(), 40).name(QColor::HexArgb)));
}

void Banner::showMessage(const QString& text, bool error) {
    paint(error);
    setText(text);
    show();
    m_stall = false;
}

void Banner::showStall(const QString& text) {
    if (isVisible() && !m_stall) {
        return; // a message the user has not dismissed stays
    }
    paint(true);
    setText(text);
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
