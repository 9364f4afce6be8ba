#pragma once
// Presenter mode for demos: the video full screen with a compact HUD, every dock, bar and menu
// hidden, the playback shortcuts still working; leaving it restores the layout as it was.

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPalette>

class QAction;
class QDockWidget;
class QMainWindow;

namespace lbm::ui {

class VideoView;

class PresenterMode : public QObject {
    Q_OBJECT
public:
    PresenterMode(QMainWindow* window, VideoView* video, QObject* parent = nullptr);

    // Docks to hide, and actions whose shortcuts must work with the menu bar hidden.
    void setDocks(const QList<QDockWidget*>& docks) { m_docks = docks; }
    void setShortcutActions(const QList<QAction*>& actions) { m_actions = actions; }

    void setOn(bool on);
    bool isOn() const { return m_on; }

signals:
    void toggled(bool on);

private:
    QMainWindow* m_window;
    VideoView* m_video;
    QList<QDockWidget*> m_docks;
    QList<QAction*> m_actions;
    QByteArray m_saved_state;
    QPalette m_saved_palette; // the central widget's, restored when presenting ends
    bool m_saved_fill = false;
    bool m_on = false;
};

} // namespace lbm::ui
