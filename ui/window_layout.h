#pragma once
// Where the window's panels go: the session form and the camera pad on the left, the live
// counters above the prompt transitions on the right (both visible at once), the latency
// chart under the video only, so the video keeps most of the window. Sizes follow the
// window (a third of the width for both side columns together, a quarter of the height for
// the chart) until the user moves things, which the window then remembers.

#include <QList>

class QDockWidget;
class QMainWindow;
class QMenu;
class QWidget;

namespace lbm::ui {

struct DockSet {
    QDockWidget* session = nullptr;
    QDockWidget* camera = nullptr;
    QDockWidget* counters = nullptr;
    QDockWidget* prompts = nullptr;
    QDockWidget* chart = nullptr;

    QList<QDockWidget*> all() const { return {session, camera, counters, prompts, chart}; }
};

// The form and the counters scroll vertically inside their docks, never sideways.
DockSet buildDocks(QMainWindow* window, QMenu* view_menu, QWidget* form, QWidget* camera,
                   QWidget* counters, QWidget* prompts, QWidget* chart);
// Sizes the docks for the window's current size.
void fitDocks(QMainWindow* window, const DockSet& docks);

} // namespace lbm::ui
