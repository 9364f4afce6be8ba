#include "ui/session_library.h"

#include "app/engine/session_keeper.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>

namespace lbm::ui {

namespace {
constexpr int kMenuEntries = 15;
} // namespace

SessionLibrary::SessionLibrary(QMenu* menu, lbm::engine::SessionKeeper* keeper,
                               QWidget* parent_widget)
    : QObject(parent_widget)
    , m_menu(menu)
    , m_keeper(keeper)
    , m_parent(parent_widget) {
    connect(menu, &QMenu::aboutToShow, this, &SessionLibrary::fill);
}

void SessionLibrary::fill() {
    m_menu->clear();
    const auto sessions = m_keeper->recent();
    for (int i = 0; i < sessions.size() && i < kMenuEntries; ++i) {
        QAction* action = m_menu->addAction(sessions[i].title());
        action->setToolTip(QDir::toNativeSeparators(sessions[i].folder));
        connect(action, &QAction::triggered, this,
                [this, path = sessions[i].documentPath()] { emit openRequested(path); });
    }
    if (sessions.isEmpty()) {
        m_menu->addAction(tr("No sessions kept yet"))->setEnabled(false);
    }
    m_menu->addSeparator();
    connect(
        m_menu->addAction(tr("Open from the Sessions Folder…")), &QAction::triggered, this, [this] {
            const QString path =
                QFileDialog::getOpenFileName(m_parent, tr("Open session document"),
                                             m_keeper->archive().root(), tr("Session (*.json)"));
            if (!path.isEmpty()) {
                emit openRequested(path);
            }
        });
    QAction* keep = m_menu->addAction(tr("Keep the Last %1 Sessions…").arg(m_keeper->keep()));
    connect(keep, &QAction::triggered, this, [this] {
        bool ok = false;
        const int sessions =
            QInputDialog::getInt(m_parent, tr("Sessions kept"),
                                 tr("How many sessions to keep in %1 (the oldest are removed):")
                                     .arg(QDir::toNativeSeparators(m_keeper->archive().root())),
                                 m_keeper->keep(), 1, 100000, 1, &ok);
        if (ok) {
            m_keeper->setKeep(sessions);
            emit keepChanged(sessions);
        }
    });
}

} // namespace lbm::ui
