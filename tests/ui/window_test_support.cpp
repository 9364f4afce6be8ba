#include "window_test_support.h"

#include "ui/main_window.h"

#include <QDir>
#include <QGuiApplication>
#include <QPainter>
#include <QPixmap>
#include <QScreen>
#include <QVideoFrame>
#include <QVideoSink>
#include <QVideoWidget>

namespace lbm::ui::test {

QImage grabWindowWithVideo(lbm::ui::MainWindow& window) {
    if (QGuiApplication::platformName() == QLatin1String("xcb")) {
        QScreen* screen = window.screen();
        const QRect frame = window.frameGeometry();
        return screen->grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height()).toImage();
    }
    QImage image = window.grab().toImage();
    QVideoWidget* video = window.videoWidget();
    const QImage frame = video->videoSink()->videoFrame().toImage();
    if (!frame.isNull() && video->isVisible()) {
        QPainter painter(&image);
        const QRect area(video->mapTo(&window, QPoint(0, 0)), video->size());
        painter.fillRect(area, Qt::black);
        QSize fitted = frame.size().scaled(area.size(), Qt::KeepAspectRatio);
        const QRect target(area.center() - QPoint(fitted.width() / 2, fitted.height() / 2), fitted);
        painter.setRenderHint(QPainter::SmoothPixmapTransform);
        painter.drawImage(target, frame);
    }
    return image;
}

QString saveScreenshot(lbm::ui::MainWindow& window, const QString& name) {
    const QString dir = QStringLiteral(LBM_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    const QString path = dir + QLatin1Char('/') + name + QStringLiteral(".png");
    grabWindowWithVideo(window).save(path);
    return path;
}

} // namespace lbm::ui::test
