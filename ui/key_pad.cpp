#include "ui/key_pad.h"

#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolButton>

namespace lbm::ui {

KeyPad::KeyPad(QWidget* parent)
    : QWidget(parent) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(3);
    auto* move = new QLabel(tr("Move"), this);
    auto* look = new QLabel(tr("Look"), this);
    move->setAlignment(Qt::AlignCenter);
    look->setAlignment(Qt::AlignCenter);
    grid->addWidget(move, 0, 0, 1, 3);
    grid->addWidget(look, 0, 4, 1, 3);
    grid->addWidget(makeKey(QLatin1Char('w'), tr("Forward (+Z)")), 1, 1);
    grid->addWidget(makeKey(QLatin1Char('a'), tr("Left (-X)")), 2, 0);
    grid->addWidget(makeKey(QLatin1Char('s'), tr("Back (-Z)")), 2, 1);
    grid->addWidget(makeKey(QLatin1Char('d'), tr("Right (+X)")), 2, 2);
    grid->addWidget(makeKey(QLatin1Char('i'), tr("Pitch up")), 1, 5);
    grid->addWidget(makeKey(QLatin1Char('j'), tr("Yaw left")), 2, 4);
    grid->addWidget(makeKey(QLatin1Char('k'), tr("Pitch down")), 2, 5);
    grid->addWidget(makeKey(QLatin1Char('l'), tr("Yaw right")), 2, 6);
    grid->setColumnMinimumWidth(3, 14);
}

QToolButton* KeyPad::makeKey(QChar letter, const QString& tooltip) {
    auto* button = new QToolButton(this);
    button->setText(QString(letter.toUpper()));
    button->setCheckable(true);
    button->setFixedSize(34, 30);
    button->setToolTip(tr("%1 (key %2; click to hold, click again to release)")
                           .arg(tooltip, QString(letter.toUpper())));
    button->setFocusPolicy(Qt::NoFocus);
    connect(button, &QToolButton::toggled, this, [this] { emit keysClicked(held()); });
    m_buttons.insert(letter, button);
    return button;
}

void KeyPad::setHeld(const lbm::protocol::CameraKeys& keys) {
    const QString letters = keys.letters();
    for (auto it = m_buttons.begin(); it != m_buttons.end(); ++it) {
        const QSignalBlocker blocker(it.value());
        it.value()->setChecked(letters.contains(it.key()));
    }
}

lbm::protocol::CameraKeys KeyPad::held() const {
    QString letters;
    for (auto it = m_buttons.begin(); it != m_buttons.end(); ++it) {
        if (it.value()->isChecked()) {
            letters += it.key();
        }
    }
    return lbm::protocol::CameraKeys::fromLetters(letters);
}

} // namespace lbm::ui
