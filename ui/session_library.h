#pragma once
// File ▸ Recent Sessions: the sessions the window kept, newest first (opening one shows its
// chart, counters, marks and recording), the sessions folder, and how many are kept.

#include <QObject>

class QMenu;
class QWidget;

namespace lbm::engine {
class SessionKeeper;
}

namespace lbm::ui {

class SessionLibrary : public QObject {
    Q_OBJECT
public:
    // Fills menu each time it opens. parent_widget owns the dialogs.
    SessionLibrary(QMenu* menu, lbm::engine::SessionKeeper* keeper, QWidget* parent_widget);

signals:
    // A session document to open.
    void openRequested(const QString& document_path);
    // The retention count changed (to be saved).
    void keepChanged(int sessions);

private:
    void fill();

    QMenu* m_menu;
    lbm::engine::SessionKeeper* m_keeper;
    QWidget* m_parent;
};

} // namespace lbm::ui
