#pragma once
// Helpers for the window tests: a picture of the window as a person sees it. On a real
// display (xcb, e.g. under Xvfb) the screen itself is grabbed; on the offscreen platform the
// video's native window cannot be grabbed, so the frame its QVideoSink holds is painted into
// the video's place, aspect-correct, as QVideoWidget shows it.

#include <QImage>
#include <QString>

namespace lbm::ui {
class MainWindow;
}

namespace lbm::ui::test {

QImage grabWindowWithVideo(lbm::ui::MainWindow& window);
// Saves under LBM_BINARY_DIR/screenshots/NAME.png; returns the path.
QString saveScreenshot(lbm::ui::MainWindow& window, const QString& name);

} // namespace lbm::ui::test
