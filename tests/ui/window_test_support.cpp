#include "window_test_support.h"

#include "ui/main_window.h"

#include <QDir>
#include <QGuiApplication>
#include <QPixmap>
#include <QScreen>

namespace lbm::ui::test {

QImage grabWindowWithVideo(lbm::ui::MainWindow& window) {
    if (QGuiApplication::platformName() == QLatin1String("xcb")) {
        QScreen* screen = window.screen();
        const QRect frame = window.frameGeometry();
        return screen->grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height()).toImage();
    }
    // The video view is an ordinary widget (its HUD included), so the widget grab has it.
    return window.grab().toImage();
}

QString saveScreenshot(lbm::ui::MainWindow& window, const QString& name) {
    const QString dir = QStringLiteral(LBM_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    const QString path = dir + QLatin1Char('/') + name + QStringLiteral(".png");
    grabWindowWithVideo(window).save(path);
    return path;
}

} // namespace lbm::ui::test
