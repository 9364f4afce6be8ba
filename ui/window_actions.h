#pragma once
// The window's menus, toolbar and keyboard shortcuts in one place: every action with its
// text, shortcut and tooltip ("Start (F5)"). The window connects them to what they do.

#include <QList>

class QAction;
class QMainWindow;
class QMenu;

namespace lbm::ui {

struct WindowActions {
    explicit WindowActions(QMainWindow* window);

    QAction* open_workload = nullptr;
    QAction* save_workload = nullptr;
    QAction* open_document = nullptr;
    QAction* compare_document = nullptr;
    QAction* compare_side_by_side = nullptr;
    QMenu* recent_sessions = nullptr;
    QAction* save_document = nullptr;
    QAction* export_csv = nullptr;
    QAction* export_png = nullptr;
    QAction* save_video = nullptr;
    QAction* quit = nullptr;
    QAction* start = nullptr;
    QAction* stop = nullptr;
    QAction* send_prompt = nullptr;
    QAction* pause = nullptr;
    QAction* step = nullptr;
    QAction* hud = nullptr;
    QAction* presenter = nullptr;
    QAction* chart_follow = nullptr;
    QAction* chart_whole = nullptr;
    QAction* chart_percentiles = nullptr;
    QAction* shortcuts = nullptr;
    QAction* about = nullptr;
    QMenu* view_menu = nullptr;

    // Actions whose shortcuts must work while the menu bar is hidden (presenter mode).
    QList<QAction*> presenterShortcuts() const;
};

} // namespace lbm::ui
