#pragma once
// File ▸ Recent Sessions: the sessions the window kept, newest first, each with its profile,
// chunks and how it ended (opening one shows its chart, counters, marks and recording), the
// sessions folder, and how many are kept.

#include "ui/session_summary.h"

#include <QObject>

#include <optional>

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

    // The newest kept session whose program died while it ran (killed, crashed), if one of
    // the last few is: the window offers to reopen it at start.
    std::optional<SessionSummary> endedUnexpectedly() const;
    // When there is one: adds "Reopen …" (Ctrl+Shift+R) to window and returns the banner's
    // sentence naming it and the key.
    std::optional<QString> offerEndedUnexpectedly(QWidget* window);
    // File ▸ Recent Sessions ▸ Browse Sessions… (and Compare): the SessionsBrowser dialog.
    void showBrowser();

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
