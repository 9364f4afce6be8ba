// The window at the sizes people run it (1280x720 laptops to 1920x1080 projectors): every
// visible control in a dock lies inside it (a form scrolls down, never sideways), and the
// video keeps most of the window.

#include "ui/main_window.h"
#include "ui/video_view.h"

#include <QAbstractButton>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSettings>
#include <QTest>

#include <catch2/catch.hpp>

using lbm::ui::MainWindow;

namespace {

bool isControl(const QWidget* widget) {
    return qobject_cast<const QAbstractButton*>(widget) ||
           qobject_cast<const QAbstractSpinBox*>(widget) ||
           qobject_cast<const QComboBox*>(widget) || qobject_cast<const QLineEdit*>(widget) ||
           qobject_cast<const QPlainTextEdit*>(widget) ||
           qobject_cast<const QAbstractSlider*>(widget);
}

// Controls of dock that stick out of it, "name: rect" each. In a dock that scrolls only the
// horizontal extent is judged (rows below the fold are reached by scrolling down).
QStringList clippedControls(QDockWidget* dock) {
    QStringList clipped;
    const bool scrolls = qobject_cast<QScrollArea*>(dock->widget()) != nullptr;
    const QRect inside = dock->rect();
    for (QWidget* widget : dock->widget()->findChildren<QWidget*>()) {
        // Part of another control (a spin box's line edit, a scroll bar) or not shown.
        if (!isControl(widget) || !widget->isVisible() || isControl(widget->parentWidget()) ||
            qobject_cast<QAbstractSlider*>(widget) &&
                qobject_cast<QAbstractScrollArea*>(widget->parentWidget()->parentWidget())) {
            continue;
        }
        const QRect rect(widget->mapTo(dock, QPoint(0, 0)), widget->size());
        const bool fits = scrolls ? rect.left() >= inside.left() && rect.right() <= inside.right()
                                  : inside.contains(rect);
        if (!fits) {
            clipped << QStringLiteral("%1 (%2) at %3,%4 %5x%6 in %7 wide")
                           .arg(QString::fromLatin1(widget->metaObject()->className()),
                                widget->objectName())
                           .arg(rect.x())
                           .arg(rect.y())
                           .arg(rect.width())
                           .arg(rect.height())
                           .arg(inside.width());
        }
    }
    return clipped;
}

} // namespace

TEST_CASE("every control in the docks lies inside its dock at 1280x720 and 1920x1080",
          "[ui][layout]") {
    for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
        DYNAMIC_SECTION(size.width() << "x" << size.height()) {
            QSettings().clear();
            MainWindow window;
            window.resize(size);
            window.show();
            REQUIRE(QTest::qWaitForWindowExposed(&window));
            QTest::qWait(100); // not a proof: the docks finish their layout before it is measured
            for (QDockWidget* dock : window.docks()) {
                INFO(dock->windowTitle().toStdString() << " dock, " << dock->width() << " px");
                const QStringList clipped = clippedControls(dock);
                INFO(clipped.join(QStringLiteral("\n")).toStdString());
                CHECK(clipped.isEmpty());
            }
            // The video has the largest share of the window.
            const QSize video = window.videoView()->size();
            CHECK(video.width() * video.height() > size.width() * size.height() / 5);
        }
    }
}
