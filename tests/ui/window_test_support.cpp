#include "window_test_support.h"

#include "ui/main_window.h"

#include <QDir>
#include <QGuiApplication>
#include <QPixmap>
#include <QScreen>
#include <QWidget>

namespace lbm::ui::test {

QImage grabWindowWithVideo(lbm::ui::MainWindow& window) {
    return grabWidget(window);
}

QImage grabWidget(QWidget& widget) {
    if (QGuiApplication::platformName() == QLatin1String("xcb")) {
        QScreen* screen = widget.screen();
        const QRect frame = widget.frameGeometry();
        return screen->grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height()).toImage();
    }
    // The video view is an ordinary widget (its HUD included), so the widget grab has it.
    return widget.grab().toImage();
}

QString saveScreenshot(lbm::ui::MainWindow& window, const QString& name) {
    const QString dir = QStringLiteral(LBM_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    const QString path = dir + QLatin1Char('/') + name + QStringLiteral(".png");
    grabWindowWithVideo(window).save(path);
    return path;
}

QString saveWidgetScreenshot(QWidget& widget, const QString& name) {
    const QString dir = QStringLiteral(LBM_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    const QString path = dir + QLatin1Char('/') + name + QStringLiteral(".png");
    grabWidget(widget).save(path);
    return path;
}

} // namespace lbm::ui::test
