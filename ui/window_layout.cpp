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

// How tall dock would be with all of its content shown at its current width.
int contentHeight(QDockWidget* dock) {
    auto* scroll = qobject_cast<QScrollArea*>(dock->widget());
    QWidget* content = scroll ? scroll->widget() : dock->widget();
    const int width = scroll ? scroll->viewport()->width() : content->width();
    const int body = content->hasHeightForWidth() ? content->heightForWidth(width)
                                                  : content->sizeHint().height();
    return body + (dock->height() - dock->widget()->height()); // the title bar
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
    // The video is as wide as its height allows (the 832x480 world over what the chart and the
    // bars leave), narrower than a 16:9 window's middle, so the side columns take a fifth of
    // the width each (more in a short window): it costs the video nothing and spares the
    // counters and the form's long values (the model id) wrapping or clipping.
    const int side = compactLayout(height) ? std::clamp(width * 3 / 10, 290, 390)
                                           : std::clamp(width / 5, 290, 400);
    const QList<QDockWidget*> prompt_tabs =
        docks.broadcast ? QList<QDockWidget*>{docks.prompts, docks.broadcast}
                        : QList<QDockWidget*>{docks.prompts};
    if (compactLayout(height)) {
        // Too short for the video to keep most of the window with two plots under it and two
        // panels in each side column: the Quality track and the filmstrip are tabs beside the
        // latency chart, the prompt transitions tabs beside the camera pad (both are ways to
        // steer the world, used one at a time).
        window->tabifyDockWidget(docks.chart, docks.quality);
        window->tabifyDockWidget(docks.chart, docks.filmstrip);
        docks.chart->raise();
        for (QDockWidget* dock : prompt_tabs) {
            window->tabifyDockWidget(docks.camera, dock);
        }
        docks.camera->raise();
        // The left column as narrow as the prompt panel allows, the counters wider: every row
        // on one or two lines.
        window->resizeDocks({docks.session, docks.counters}, {290, side}, Qt::Horizontal);
        window->resizeDocks({docks.chart}, {std::clamp(height * 3 / 10, 220, 320)}, Qt::Vertical);
    } else {
        window->splitDockWidget(docks.chart, docks.quality, Qt::Vertical);
        window->tabifyDockWidget(docks.quality, docks.filmstrip);
        docks.quality->raise();
        window->splitDockWidget(docks.counters, docks.prompts, Qt::Vertical);
        if (docks.broadcast) {
            window->tabifyDockWidget(docks.prompts, docks.broadcast);
        }
        docks.prompts->raise();
        // The counters keep the width their values need on one or two lines (at 1600 px a
        // fifth was 320 px, and the values were cut at the dock's edge).
        window->resizeDocks({docks.session, docks.counters}, {side, std::max(side, 380)},
                            Qt::Horizontal);
        window->resizeDocks(
            {docks.chart, docks.quality},
            {std::clamp(height * 2 / 7, 240, 340), std::clamp(height / 5, 150, 260)}, Qt::Vertical);
    }
    // The side columns share what the menu, tool and status bars leave (asking for more than
    // that would make the window grow past the screen). The camera pad (and its tabs) and the
    // prompt panel get what they need; the form scrolls in the rest.
    const int left = docks.session->height() + docks.camera->height();
    const int camera = std::min(left / 2, std::max(docks.camera->sizeHint().height(), 220));
    window->resizeDocks({docks.session, docks.camera}, {left - camera, camera}, Qt::Vertical);
    if (!compactLayout(height)) {
        // The counters as tall as their rows (with room for a stall's figures to wrap), the
        // prompt transitions the rest, at least enough for the editor and two rows.
        const int right = docks.counters->height() + docks.prompts->height();
        const int counters =
            std::clamp(contentHeight(docks.counters) + 8 * window->fontMetrics().height(),
                       right / 2, right - 210);
        window->resizeDocks({docks.counters, docks.prompts}, {counters, right - counters},
                            Qt::Vertical);
    }
}

} // namespace lbm::ui
