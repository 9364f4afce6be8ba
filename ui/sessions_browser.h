#pragma once
// File ▸ Sessions…: every kept session in a table (date, endpoint, profile, faults, chunks, how
// it ended, the simulated viewer's underruns, the visual quality flags), sortable by any
// column and filtered by any text in a row; open one, compare two side by side, reveal one in
// the file manager, delete one. The Compare window picks its two sessions here. The documents
// are read on the thread pool (hundreds of kept sessions, some of them large), with a line
// saying how far it got; the table fills when they are all read.

#include "ui/session_summary.h"

#include <QDialog>
#include <QFutureWatcher>
#include <QStringList>

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace lbm::engine {
class SessionKeeper;
}

namespace lbm::ui {

class SessionsBrowser : public QDialog {
    Q_OBJECT
public:
    enum Column { Date, Endpoint, Profile, Faults, Chunks, Outcome, Underruns, Quality, Count };

    SessionsBrowser(lbm::engine::SessionKeeper* keeper, QWidget* parent = nullptr);

    // Reads the archive again, off the GUI thread; loaded() follows.
    void reload();
    // Whether documents are still being read (the table then shows the last reading).
    // Until the table holds the newest reading: the future may have finished while its
    // finished() signal, which fills the table, still waits in the event queue.
    bool loading() const { return m_reading; }
    // What the placeholder line says while reading ("Reading 12 kept sessions… 5 read").
    QString progressText() const;
    void setFilterText(const QString& text);
    int rowCount() const;
    // The document paths of the selected rows, in view order.
    QStringList selectedDocuments() const;
    void selectRows(const QList<int>& view_rows);
    QString cellText(int view_row, Column column) const;
    QTableView* table() const { return m_table; }

signals:
    void openRequested(const QString& document_path);
    void loaded();

private:
    void fill(const QList<SessionSummary>& summaries);
    void updateProgress();
    void updateButtons();
    void openSelected();
    void compareSelected();
    void revealSelected();
    void deleteSelected();

    lbm::engine::SessionKeeper* m_keeper;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QLineEdit* m_filter;
    QPushButton* m_open;
    QPushButton* m_compare;
    QPushButton* m_reveal;
    QPushButton* m_delete;
    QLabel* m_progress;
    QFutureWatcher<SessionSummary> m_watcher;
    bool m_reading = false;
};

} // namespace lbm::ui
