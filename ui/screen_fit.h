#pragma once
// Every top-level window the program opens fits the screen it opens on: never larger than the
// screen's available area (a 1280x720 laptop loses its taskbar and title bar to that), and
// placed inside it.

#include <QRect>
#include <QSize>

class QScreen;
class QWidget;

namespace lbm::ui {

// preferred shrunk to available (less frame, the title bar and borders the window manager
// adds) and centred in it.
QRect fittedGeometry(const QSize& preferred, const QRect& available, const QSize& frame = {});
// Resizes and places window (a top-level widget, before it is shown) on the screen it will open
// on: preferred where the screen has room, the available area where it has not.
void fitOnScreen(QWidget* window, const QSize& preferred);
// The main window's first size on screen: nine tenths of its available area, at least
// 1280x800 (fitOnScreen then shrinks that to a smaller screen).
QSize preferredMainWindowSize(const QScreen* screen);
// Esc and Ctrl+W close window, like any dialog (for top-level windows that are not a QDialog).
void closeWithEscape(QWidget* window);

} // namespace lbm::ui
