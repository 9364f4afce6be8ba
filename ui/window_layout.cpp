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
    // Compact until fitDocks knows the window's height: tabs beside the chart ask the window
    // for no more height than the chart does, so the first show on a 720 px screen fits.
    window->tabifyDockWidget(docks.chart, docks.quality);
    window->tabifyDockWidget(docks.chart, docks.filmstrip);
    docks.chart->raise();
    return docks;
}

void fitDocks(QMainWindow* window, const DockSet& docks) {
    const int width = window->width();
    const int height = window->height();
    const int side = std::clamp(width / 6, 290, 380);
    window->resizeDocks({docks.session, docks.counters}, {side, side}, Qt::Horizontal);
    if (height < kQualityUnderChartHeight) {
        // Too short for the video to keep most of the window with two plots under it: the
        // Quality track and the filmstrip stay tabs beside the latency chart.
        window->resizeDocks({docks.chart}, {std::clamp(height * 3 / 10, 220, 320)}, Qt::Vertical);
    } else {
        window->splitDockWidget(docks.chart, docks.quality, Qt::Vertical);
        window->tabifyDockWidget(docks.quality, docks.filmstrip);
        docks.quality->raise();
        window->resizeDocks(
            {docks.chart, docks.quality},
            {std::clamp(height * 2 / 7, 240, 340), std::clamp(height / 5, 150, 260)}, Qt::Vertical);
    }
    // The side columns share what the menu, tool and status bars leave (asking for more than
    // that would make the window grow past the screen).
    const int left = docks.session->height() + docks.camera->height();
    window->resizeDocks({docks.session, docks.camera}, {left * 2 / 3, left - left * 2 / 3},
                        Qt::Vertical);
    const int right = docks.counters->height() + docks.prompts->height();
    window->resizeDocks({docks.counters, docks.prompts}, {right * 3 / 5, right - right * 3 / 5},
                        Qt::Vertical);
}

} // namespace lbm::ui
