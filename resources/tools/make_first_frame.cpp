// Draws the bundled 832x480 first frame at build time, so the project ships a conditioning
// image it made itself (nothing downloaded) and every session has one even when the user
// gives none. The scene is deliberately rich in edges and colour so that the simulator's
// pans, zooms and turns are visible.

#include <QGuiApplication>
#include <QImage>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QRadialGradient>
#include <QRandomGenerator>

#include <cstdio>

namespace {

void drawSky(QPainter& painter, const QRectF& area) {
    QLinearGradient sky(area.topLeft(), area.bottomLeft());
    sky.setColorAt(0.0, QColor(38, 84, 160));
    sky.setColorAt(0.7, QColor(238, 170, 120));
    sky.setColorAt(1.0, QColor(250, 214, 160));
    painter.fillRect(area, sky);

    QRadialGradient sun(QPointF(area.width() * 0.72, area.height() * 0.78), 70);
    sun.setColorAt(0.0, QColor(255, 250, 220));
    sun.setColorAt(0.35, QColor(255, 226, 150));
    sun.setColorAt(1.0, QColor(255, 200, 140, 0));
    painter.setPen(Qt::NoPen);
    painter.setBrush(sun);
    painter.drawEllipse(QPointF(area.width() * 0.72, area.height() * 0.78), 70, 70);
}

void drawMountains(QPainter& painter, double horizon, double width, QRandomGenerator& random) {
    const QColor layers[] = {QColor(120, 110, 150), QColor(90, 84, 124), QColor(64, 62, 96)};
    for (int layer = 0; layer < 3; ++layer) {
        QPainterPath ridge;
        ridge.moveTo(0, horizon);
        double height = 60.0 - layer * 15.0;
        for (double x = 0; x <= width + 40; x += 40) {
            height += random.bounded(41) - 20;
            height = std::clamp(height, 10.0, 110.0 - layer * 25.0);
            ridge.lineTo(x, horizon - height);
        }
        ridge.lineTo(width, horizon);
        ridge.closeSubpath();
        painter.setBrush(layers[layer]);
        painter.drawPath(ridge);
    }
}

void drawGround(QPainter& painter, double horizon, double width, double height) {
    QLinearGradient field(QPointF(0, horizon), QPointF(0, height));
    field.setColorAt(0.0, QColor(96, 128, 70));
    field.setColorAt(1.0, QColor(40, 80, 36));
    painter.fillRect(QRectF(0, horizon, width, height - horizon), field);

    // A road to a vanishing point makes forward motion and yaw read at a glance.
    const QPointF vanishing(width * 0.5, horizon);
    QPainterPath road;
    road.moveTo(vanishing);
    road.lineTo(width * 0.18, height);
    road.lineTo(width * 0.82, height);
    road.closeSubpath();
    painter.setBrush(QColor(70, 70, 76));
    painter.drawPath(road);

    painter.setBrush(QColor(240, 230, 180));
    for (int dash = 0; dash < 9; ++dash) {
        const double near = 1.0 - dash / 9.0;
        const double far = near - 0.06;
        const double yNear = horizon + (height - horizon) * near * near;
        const double yFar = horizon + (height - horizon) * far * far;
        const double halfNear = 5.0 * near;
        const double halfFar = 5.0 * far;
        QPolygonF stripe;
        stripe << QPointF(width * 0.5 - halfNear, yNear) << QPointF(width * 0.5 + halfNear, yNear)
               << QPointF(width * 0.5 + halfFar, yFar) << QPointF(width * 0.5 - halfFar, yFar);
        painter.drawPolygon(stripe);
    }

    // Fence posts on both sides, receding.
    painter.setPen(QPen(QColor(120, 84, 50), 2));
    for (int post = 1; post < 14; ++post) {
        const double depth = post / 14.0;
        const double y = horizon + (height - horizon) * depth * depth;
        const double postHeight = 4 + 46 * depth * depth;
        const double offset = (width * 0.40) * depth * depth + 8;
        painter.drawLine(QPointF(width * 0.5 - offset - 10, y),
                         QPointF(width * 0.5 - offset - 10, y - postHeight));
        painter.drawLine(QPointF(width * 0.5 + offset + 10, y),
                         QPointF(width * 0.5 + offset + 10, y - postHeight));
    }
}

void drawHouses(QPainter& painter, double horizon, QRandomGenerator& random) {
    painter.setPen(QPen(QColor(30, 30, 40), 1));
    const double xs[] = {70, 150, 250, 560, 640, 730};
    for (double x : xs) {
        const double w = 40 + random.bounded(30);
        const double h = 30 + random.bounded(40);
        const QColor wall = QColor::fromHsv(random.bounded(360), 90, 200);
        painter.setBrush(wall);
        painter.drawRect(QRectF(x, horizon + 8 - h, w, h));
        QPolygonF roof;
        roof << QPointF(x - 4, horizon + 8 - h) << QPointF(x + w / 2, horizon - 14 - h)
             << QPointF(x + w + 4, horizon + 8 - h);
        painter.setBrush(QColor(150, 50, 40));
        painter.drawPolygon(roof);
        painter.setBrush(QColor(255, 236, 150));
        painter.drawRect(QRectF(x + 6, horizon - h + 16, 8, 8));
        painter.drawRect(QRectF(x + w - 14, horizon - h + 16, 8, 8));
    }
}

} // namespace

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_first_frame OUTPUT.png\n");
        return 2;
    }
    constexpr int kWidth = 832;
    constexpr int kHeight = 480;
    QImage image(kWidth, kHeight, QImage::Format_RGB32);
    QRandomGenerator random(20261202); // fixed: the bundled frame is the same on every build
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        const double horizon = kHeight * 0.55;
        drawSky(painter, QRectF(0, 0, kWidth, horizon));
        painter.setPen(Qt::NoPen);
        drawMountains(painter, horizon, kWidth, random);
        drawGround(painter, horizon, kWidth, kHeight);
        drawHouses(painter, horizon, random);
    }
    if (!image.save(QString::fromLocal8Bit(argv[1]), "PNG")) {
        std::fprintf(stderr, "make_first_frame: cannot write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
