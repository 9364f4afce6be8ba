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

DockSet buildDocks(QMainWindow* window, QMenu* view_menu, QWidget* form, QWidget* camera,
                   QWidget* counters, QWidget* prompts, QWidget* chart) {
    // Side columns run the window's full height; the chart sits under the video only.
    window->setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    window->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    DockSet docks;
    docks.session =
        addDock(window, view_menu, QMainWindow::tr("Session"), QStringLiteral("SessionDock"),
                vertical(window, form), Qt::LeftDockWidgetArea);
    docks.counters =
        addDock(window, view_menu, QMainWindow::tr("Live counters"), QStringLiteral("CountersDock"),
                vertical(window, counters), Qt::RightDockWidgetArea);
    docks.camera = addDock(window, view_menu, QMainWindow::tr("Camera"),
                           QStringLiteral("CameraDock"), camera, Qt::LeftDockWidgetArea);
    docks.prompts = addDock(window, view_menu, QMainWindow::tr("Prompt transitions"),
                            QStringLiteral("PromptDock"), prompts, Qt::RightDockWidgetArea);
    docks.chart = addDock(window, view_menu, QMainWindow::tr("Latency"),
                          QStringLiteral("ChartDock"), chart, Qt::BottomDockWidgetArea);
    window->splitDockWidget(docks.session, docks.camera, Qt::Vertical);
    window->splitDockWidget(docks.counters, docks.prompts, Qt::Vertical);
    return docks;
}

void fitDocks(QMainWindow* window, const DockSet& docks) {
    const int width = window->width();
    const int height = window->height();
    const int side = std::clamp(width / 6, 290, 380);
    window->resizeDocks({docks.session, docks.counters}, {side, side}, Qt::Horizontal);
    window->resizeDocks({docks.chart}, {std::clamp(height / 4, 170, 320)}, Qt::Vertical);
    window->resizeDocks({docks.session, docks.camera}, {height * 2 / 3, height / 3}, Qt::Vertical);
    window->resizeDocks({docks.counters, docks.prompts}, {height * 3 / 5, height * 2 / 5},
                        Qt::Vertical);
}

} // namespace lbm::ui
