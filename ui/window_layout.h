#pragma once
// Where the window's panels go: the session form and the camera pad on the left, the live
// counters above the prompt transitions on the right (both visible at once), the latency
// chart under the video only and the Quality track under it on the same chunk axis (the
// transition filmstrip in a tab beside the track), so the video keeps most of the window.
// Below 900 px of height (a 1280x720 laptop) the window is too short for all of that: the
// Quality track and the filmstrip are tabs beside the chart, and the prompt transitions (and
// Broadcast) tabs beside the camera pad, so the live counters have the right column to
// themselves and read without scrolling. Sizes follow the window (a third of the width for
// both side columns together, the counters as tall as their rows) until the user moves
// things, which the window then remembers.

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
    QDockWidget* quality = nullptr;   // the Quality track, under the chart
    QDockWidget* filmstrip = nullptr; // in a tab beside the Quality track
    QDockWidget* broadcast = nullptr; // in a tab beside the prompt transitions; not in all()

    QList<QDockWidget*> all() const {
        return {session, camera, counters, prompts, chart, quality, filmstrip};
    }
};

struct DockContents {
    QWidget* form = nullptr;
    QWidget* camera = nullptr;
    QWidget* counters = nullptr;
    QWidget* prompts = nullptr;
    QWidget* chart = nullptr;
    QWidget* quality_track = nullptr;
    QWidget* filmstrip = nullptr;
};
// The form and the counters scroll vertically inside their docks, never sideways.
DockSet buildDocks(QMainWindow* window, QMenu* view_menu, const DockContents& contents);
// From this window height up the Quality track sits under the latency chart and the prompt
// transitions under the counters; below it, they are tabs (beside the chart, beside the
// camera pad).
inline constexpr int kQualityUnderChartHeight = 900;
inline bool compactLayout(int window_height) {
    return window_height < kQualityUnderChartHeight;
}
// Places and sizes the docks for the window's current size (again when its height crosses
// kQualityUnderChartHeight).
void fitDocks(QMainWindow* window, const DockSet& docks);

} // namespace lbm::ui
