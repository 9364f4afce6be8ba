#pragma once
// The window's dialogs: Help ▸ Keyboard Shortcuts, Help ▸ About, and the question asked
// before quitting during a live session.

#include <QString>

class QWidget;

namespace lbm::ui {

// Every action with a shortcut in window, plus the keys the video takes directly.
void showShortcutsDialog(QWidget* window);
void showAboutDialog(QWidget* window);
// "Stop the session and quit?" naming the folder the session is kept in. True: stop and quit.
bool confirmQuitDuringSession(QWidget* window, const QString& session_folder);

} // namespace lbm::ui
