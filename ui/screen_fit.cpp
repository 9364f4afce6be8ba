#include "ui/screen_fit.h"

#include <QGuiApplication>
#include <QKeySequence>
#include <QScreen>
#include <QShortcut>
#include <QWidget>

#include <algorithm>

namespace lbm::ui {

namespace {
// What a window manager usually adds around a window before it is shown and the real frame is
// known: a title bar and thin borders.
constexpr QSize kFrameGuess(8, 36);
} // namespace

QRect fittedGeometry(const QSize& preferred, const QRect& available, const QSize& frame) {
    // The frame (title bar above, borders around) counts against the screen too.
    QRect outer(QPoint(0, 0), (preferred + frame).boundedTo(available.size()));
    outer.moveCenter(available.center());
    const QSize client = (outer.size() - frame).expandedTo(QSize(1, 1));
    const int border = frame.width() / 2;
    return QRect(outer.topLeft() + QPoint(border, frame.height() - border), client);
}

void fitOnScreen(QWidget* window, const QSize& preferred) {
    QScreen* screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    if (screen == nullptr) {
        window->resize(preferred);
        return;
    }
    // Known once the window has been shown; a guess before.
    const QSize frame = window->isVisible()
                            ? window->frameGeometry().size() - window->geometry().size()
                            : kFrameGuess;
    window->setGeometry(fittedGeometry(preferred, screen->availableGeometry(), frame));
}

QSize preferredMainWindowSize(const QScreen* screen) {
    const QSize minimum(1280, 800);
    return screen ? (screen->availableGeometry().size() * 0.9).expandedTo(minimum) : minimum;
}

void closeWithEscape(QWidget* window) {
    for (const QKeySequence& keys :
         {QKeySequence(Qt::Key_Escape), QKeySequence(QKeySequence::Close)}) {
        auto* shortcut = new QShortcut(keys, window);
        shortcut->setContext(Qt::WindowShortcut);
        QObject::connect(shortcut, &QShortcut::activated, window, &QWidget::close);
    }
}

} // namespace lbm::ui
