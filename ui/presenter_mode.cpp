#include "ui/presenter_mode.h"

#include "ui/video_view.h"

#include <QDockWidget>
#include <QLayout>
#include <QMainWindow>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>

namespace lbm::ui {

PresenterMode::PresenterMode(QMainWindow* window, VideoView* video, QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_video(video) {}

void PresenterMode::setOn(bool on) {
    if (m_on == on) {
        return;
    }
    m_on = on;
    m_video->hud().setCompact(on);
    if (on) {
        m_saved_state = m_window->saveState();
        for (QDockWidget* dock : std::as_const(m_docks)) {
            dock->hide();
        }
        m_window->menuBar()->hide();
        m_window->statusBar()->hide();
        for (QToolBar* bar : m_window->findChildren<QToolBar*>()) {
            bar->hide();
        }
        m_window->addActions(m_actions);
        QWidget* central = m_window->centralWidget();
        central->layout()->setContentsMargins(0, 0, 0, 0);
        // Letterboxed in black: the room the video does not fill (the screen's other aspect,
        // the scrub bar's kept place) was a band of window grey under the picture.
        m_saved_palette = central->palette();
        m_saved_fill = central->autoFillBackground();
        QPalette black = m_saved_palette;
        black.setColor(QPalette::Window, Qt::black);
        central->setPalette(black);
        central->setAutoFillBackground(true);
        m_window->showFullScreen();
    } else {
        m_window->menuBar()->show();
        m_window->statusBar()->show();
        for (QToolBar* bar : m_window->findChildren<QToolBar*>()) {
            bar->show();
        }
        m_window->restoreState(m_saved_state);
        QWidget* central = m_window->centralWidget();
        central->layout()->setContentsMargins(6, 6, 6, 6);
        central->setPalette(m_saved_palette);
        central->setAutoFillBackground(m_saved_fill);
        m_window->showNormal();
    }
    m_video->setFocus();
    m_video->refreshOverlay();
    emit toggled(on);
}

} // namespace lbm::ui
