#include "ui/window_layout.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QScrollArea>
#include <QScrollBar>

#include <algorithm>

namespace lbm::ui {
namespace {

QDockWidget* addDock(QMainWindow* window, QMenu* view_menu, const QString& title,
                     const QString& name, QWidget* content, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(name);
    dock->setWidget(content);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    window->addDockWidget(area, dock);
    view_menu->addAction(dock->toggleViewAction());
    return dock;
}

// A panel that scrolls down when it is taller than its dock and is never wider than it:
// the panel itself wraps (form rows, counter values) instead.
QScrollArea* vertical(QMainWindow* window, QWidget* content) {
    auto* scroll = new QScrollArea(window);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return scroll;
}

} // namespace

DockSet buildDocks(QMainWindow* window, QMenu* view_menu, const DockContents& contents) {
    // Side columns run the window's full height; the chart sits under the video only.
    window->setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    window->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    DockSet docks;
    docks.session =
        addDock(window, view_menu, QMainWindow::tr("Session"), QStringLiteral("SessionDock"),
                vertical(window, contents.form), Qt::LeftDockWidgetArea);
    docks.counters =
        addDock(window, view_menu, QMainWindow::tr("Live counters"), QStringLiteral("CountersDock"),
                vertical(window, contents.counters), Qt::RightDockWidgetArea);
    docks.camera = addDock(window, view_menu, QMainWindow::tr("Camera"),
                           QStringLiteral("CameraDock"), contents.camera, Qt::LeftDockWidgetArea);
    docks.prompts =
        addDock(window, view_menu, QMainWindow::tr("Prompt transitions"),
                QStringLiteral("PromptDock"), contents.prompts, Qt::RightDockWidgetArea);
    docks.chart = addDock(window, view_menu, QMainWindow::tr("Latency"),
                          QStringLiteral("ChartDock"), contents.chart, Qt::BottomDockWidgetArea);
    docks.quality =
        addDock(window, view_menu, QMainWindow::tr("Visual quality"), QStringLiteral("QualityDock"),
                contents.quality_track, Qt::BottomDockWidgetArea);
    docks.filmstrip =
        addDock(window, view_menu, QMainWindow::tr("Transitions"), QStringLiteral("FilmstripDock"),
                contents.filmstrip, Qt::BottomDockWidgetArea);
    window->splitDockWidget(docks.session, docks.camera, Qt::Vertical);
    window->splitDockWidget(docks.counters, docks.prompts, Qt::Vertical);
    window->splitDockWidget(docks.chart, docks.quality, Qt::Vertical);
    window->tabifyDockWidget(docks.quality, docks.filmstrip);
    docks.quality->raise();
    return docks;
}

void fitDocks(QMainWindow* window, const DockSet& docks) {
    const int width = window->width();
    const int height = window->height();
    const int side = std::clamp(width / 6, 290, 380);
    window->resizeDocks({docks.session, docks.counters}, {side, side}, Qt::Horizontal);
    if (height < kQualityUnderChartHeight) {
        // Too short for the video to keep most of the window with two plots under it: the
        // Quality track and the filmstrip become tabs beside the latency chart.
        window->tabifyDockWidget(docks.chart, docks.quality);
        window->tabifyDockWidget(docks.chart, docks.filmstrip);
        docks.chart->raise();
        window->resizeDocks({docks.chart}, {std::clamp(height / 4, 170, 320)}, Qt::Vertical);
    } else {
        window->resizeDocks(
            {docks.chart, docks.quality},
            {std::clamp(height * 2 / 9, 170, 300), std::clamp(height / 5, 150, 260)}, Qt::Vertical);
    }
    window->resizeDocks({docks.session, docks.camera}, {height * 2 / 3, height / 3}, Qt::Vertical);
    window->resizeDocks({docks.counters, docks.prompts}, {height * 3 / 5, height * 2 / 5},
                        Qt::Vertical);
}

} // namespace lbm::ui
