// The main window at the sizes people run it (1280x720 laptops to 1920x1080 projectors): it
// keeps the size it is given (its docks ask for no more), nothing scrolls sideways, every
// visible control lies inside its dock (a form scrolls down, never sideways), no label is
// cut, the live counters read whole without scrolling even with a stall's long figures, the
// Quality track sits under the chart from 900 px of height (a tab below it, the prompt
// transitions then a tab beside the camera pad) also after the window is resized across that
// height, and the video keeps the largest share.

#include "metrics/playback_result.h"
#include "ui/counters_panel.h"
#include "ui/main_window.h"
#include "ui/video_view.h"
#include "ui/window_layout.h"
#include "window_test_support.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QGraphicsView>
#include <QGuiApplication>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTest>

#include <catch2/catch.hpp>

using lbm::ui::CountersPanel;
using lbm::ui::MainWindow;

namespace {

bool isControl(const QWidget* widget) {
    return qobject_cast<const QAbstractButton*>(widget) ||
           qobject_cast<const QAbstractSpinBox*>(widget) ||
           qobject_cast<const QComboBox*>(widget) || qobject_cast<const QLineEdit*>(widget) ||
           qobject_cast<const QPlainTextEdit*>(widget) ||
           qobject_cast<const QAbstractSlider*>(widget) ||
           qobject_cast<const QGraphicsView*>(widget); // a plot, whole or not at all
}

QString describe(const QWidget* widget, const QRect& rect) {
    return QStringLiteral("%1 (%2) at %3,%4 %5x%6")
        .arg(QString::fromLatin1(widget->metaObject()->className()), widget->objectName())
        .arg(rect.x())
        .arg(rect.y())
        .arg(rect.width())
        .arg(rect.height());
}

// Controls of dock that stick out of it. In a dock that scrolls only the horizontal extent is
// judged (rows below the fold are reached by scrolling down).
QStringList clippedControls(QDockWidget* dock) {
    QStringList clipped;
    const bool scrolls = qobject_cast<QScrollArea*>(dock->widget()) != nullptr;
    const QRect inside = dock->rect();
    for (QWidget* widget : dock->widget()->findChildren<QWidget*>()) {
        // Part of another control (a spin box's line edit, a scroll bar) or not shown.
        if (!isControl(widget) || !widget->isVisible() || isControl(widget->parentWidget()) ||
            (qobject_cast<QAbstractSlider*>(widget) &&
             qobject_cast<QAbstractScrollArea*>(widget->parentWidget()->parentWidget()))) {
            continue;
        }
        const QRect rect(widget->mapTo(dock, QPoint(0, 0)), widget->size());
        const bool fits = scrolls ? rect.left() >= inside.left() && rect.right() <= inside.right()
                                  : inside.contains(rect);
        if (!fits) {
            clipped << describe(widget, rect) + QStringLiteral(" in %1 wide").arg(inside.width());
        }
    }
    return clipped;
}

// "class (object name)" for every visible horizontal scroll bar under root.
QStringList sidewaysScrollBars(QWidget* root) {
    QStringList found;
    for (QAbstractScrollArea* area : root->findChildren<QAbstractScrollArea*>()) {
        if (area->isVisible() && area->horizontalScrollBar()->isVisible()) {
            found << describe(area, area->geometry());
        }
    }
    return found;
}

QDockWidget* dockNamed(MainWindow& window, const QString& name) {
    for (QDockWidget* dock : window.docks()) {
        if (dock->objectName() == name) {
            return dock;
        }
    }
    FAIL("no dock " << name.toStdString());
    return nullptr;
}

// The counters as they read during a stall, their longest: an underrun in progress, the
// stream's wait beside the simulated viewer's, a long request id.
void showStallFigures(CountersPanel& counters) {
    lbm::PlaybackResult result;
    result.underrun_count = 12;
    result.total_stall_s = 104.5;
    result.playback_span_s = 118.2;
    result.first_underrun_chunk = 1;
    counters.showSimulatedPlayback(result, 0.0, true, lbm::ProvisionalUnderrun{118, 98.2}, 100.4,
                                   false);
    counters.showConnection(QStringLiteral("streaming"),
                            QStringLiteral("video_stream-0962bf01bd774f2bad3fe594a4653db9"));
}

void checkLayout(MainWindow& window, const QSize& size) {
    // The docks ask for no more than the screen: the window is the size it was given.
    INFO("the window is " << window.width() << "x" << window.height());
    CHECK(window.size() == size);
    CHECK(window.minimumSizeHint().height() <= size.height());
    const QStringList sideways = sidewaysScrollBars(&window);
    INFO(sideways.join(QLatin1Char('\n')).toStdString());
    CHECK(sideways.isEmpty());
    for (QDockWidget* dock : window.docks()) {
        INFO(dock->windowTitle().toStdString() << " dock, " << dock->width() << " px");
        const QStringList clipped = clippedControls(dock);
        INFO(clipped.join(QStringLiteral("\n")).toStdString());
        CHECK(clipped.isEmpty());
    }
    const QStringList cut = lbm::ui::test::cutLabels(&window);
    INFO(cut.join(QLatin1Char('\n')).toStdString());
    CHECK(cut.isEmpty());
    // The model id reads whole in the form (it wraps in its box rather than being cut).
    auto* model = window.findChild<QPlainTextEdit*>(QStringLiteral("form_model"));
    REQUIRE(model);
    CHECK(model->verticalScrollBar()->maximum() == 0);

    // The counters, stall figures and visual quality rows included, read without scrolling.
    QDockWidget* counters = dockNamed(window, QStringLiteral("CountersDock"));
    auto* scroll = qobject_cast<QScrollArea*>(counters->widget());
    REQUIRE(scroll);
    INFO("counters: " << scroll->widget()->height() << " px of rows in a "
                      << scroll->viewport()->height() << " px column");
    CHECK_FALSE(scroll->verticalScrollBar()->isVisible());

    // The Quality track is under the chart from 900 px of height, a tab below (and the prompt
    // transitions then a tab beside the camera pad, under the counters above).
    const bool compact = size.height() < lbm::ui::kQualityUnderChartHeight;
    QDockWidget* chart = dockNamed(window, QStringLiteral("ChartDock"));
    QDockWidget* quality = dockNamed(window, QStringLiteral("QualityDock"));
    QDockWidget* prompts = dockNamed(window, QStringLiteral("PromptDock"));
    QDockWidget* camera = dockNamed(window, QStringLiteral("CameraDock"));
    CHECK(window.tabifiedDockWidgets(chart).contains(quality) == compact);
    CHECK(window.tabifiedDockWidgets(camera).contains(prompts) == compact);
    CHECK(window.dockWidgetArea(prompts) ==
          (compact ? Qt::LeftDockWidgetArea : Qt::RightDockWidgetArea));
    if (!compact) {
        CHECK(quality->isVisible());
        CHECK(quality->geometry().top() >= chart->geometry().bottom());
        // The latency plot keeps a readable height above it.
        CHECK(chart->height() >= 240);
    }

    // The picture has the largest share of the window: more than any dock.
    const QRect picture = window.videoView()->pictureRect();
    INFO("the picture is " << picture.width() << "x" << picture.height());
    for (QDockWidget* dock : window.docks()) {
        if (dock->isVisible() && !dock->visibleRegion().isEmpty()) {
            INFO(dock->windowTitle().toStdString()
                 << " is " << dock->width() << "x" << dock->height());
            CHECK(picture.width() * picture.height() > dock->width() * dock->height() * 2 / 3);
        }
    }
}

} // namespace

TEST_CASE("at 1280x720 and 1920x1080 nothing in the window is clipped, cut or scrolls sideways",
          "[ui][layout]") {
    for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
        DYNAMIC_SECTION(size.width() << "x" << size.height()) {
            QSettings().clear();
            MainWindow window;
            window.resize(size);
            window.show();
            REQUIRE(QTest::qWaitForWindowExposed(&window));
            showStallFigures(*window.countersPanel());
            // Layouts settle in posted events; measured once they have.
            QCoreApplication::processEvents();
            QCoreApplication::processEvents();
            checkLayout(window, size);
        }
    }
}

TEST_CASE("a window resized across 900 px of height takes that height's layout", "[ui][layout]") {
    QSettings().clear();
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    QCoreApplication::processEvents();
    window.resize(1920, 1080);
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    checkLayout(window, QSize(1920, 1080));
    // Made shorter, it stops at the tall layout's minimum height the first time (below 900
    // px, so the docks are placed for a short window) and reaches the size the next.
    window.resize(1280, 720);
    QCoreApplication::processEvents();
    CHECK(window.height() < lbm::ui::kQualityUnderChartHeight);
    window.resize(1280, 720);
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    checkLayout(window, QSize(1280, 720));
}

TEST_CASE("a dock layout is restored on a screen of the size it was left on, and only there",
          "[ui][layout]") {
    // Made on a 1080p monitor, a layout is taller than a 1280x720 projector: each screen size
    // keeps its own (the key names the screen's available size).
    QSettings().clear();
    const QSize screen = QGuiApplication::primaryScreen()->availableGeometry().size();
    const QString here =
        QStringLiteral("window/state-%1x%2").arg(screen.width()).arg(screen.height());
    const QString elsewhere =
        QStringLiteral("window/state-%1x%2").arg(screen.width() + 640).arg(screen.height() + 360);
    QString hidden_title;
    {
        MainWindow window;
        lbm::ui::test::showAt(window, QSize(1280, 720));
        for (QDockWidget* dock : window.docks()) {
            if (dock->isVisible()) {
                hidden_title = dock->windowTitle();
                dock->hide();
                break;
            }
        }
        REQUIRE_FALSE(hidden_title.isEmpty());
        window.close(); // saves the settings
    }
    const auto dockShown = [&hidden_title](MainWindow& window) {
        for (QDockWidget* dock : window.docks()) {
            if (dock->windowTitle() == hidden_title) {
                return dock->isVisible();
            }
        }
        return false;
    };
    const auto reopen = [&](const auto& check) {
        MainWindow window;
        lbm::ui::test::showAt(window, QSize(1280, 720));
        QCoreApplication::processEvents();
        check(window);
        window.close();
    };
    {
        QSettings settings;
        REQUIRE(settings.contains(here));
        CHECK_FALSE(settings.contains(QStringLiteral("window/state")));
    }
    // Kept for this screen's size: restored, the dock stays hidden.
    reopen([&](MainWindow& window) { CHECK_FALSE(dockShown(window)); });
    // Left on a larger screen only: this one gets the layout fitted to it.
    {
        QSettings settings;
        settings.setValue(elsewhere, settings.value(here));
        settings.remove(here);
    }
    reopen([&](MainWindow& window) { CHECK(dockShown(window)); });
}
