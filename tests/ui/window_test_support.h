#pragma once
// Helpers for the window tests: a picture of the window as a person sees it. On a real
// display (xcb, e.g. under Xvfb) the screen itself is grabbed; on the offscreen platform the
// window's own grab (the video view is an ordinary widget, HUD included).

#include <QImage>
#include <QString>

namespace lbm::ui {
class MainWindow;
}
class QWidget;

namespace lbm::ui::test {

QImage grabWindowWithVideo(lbm::ui::MainWindow& window);
// Saves under LBM_BINARY_DIR/screenshots/NAME.png; returns the path.
QString saveScreenshot(lbm::ui::MainWindow& window, const QString& name);
// The same for any top-level widget (a panel shown on its own, the side-by-side window).
QImage grabWidget(QWidget& widget);
QString saveWidgetScreenshot(QWidget& widget, const QString& name);

} // namespace lbm::ui::test
