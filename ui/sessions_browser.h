#pragma once
// File ▸ Sessions…: every kept session in a table (date, endpoint, profile, faults, chunks, how
// it ended, the simulated viewer's underruns, the visual quality flags), sortable by any
// column and filtered by any text in a row; open one, compare two side by side, reveal one in
// the file manager, delete one. The Compare window picks its two sessions here.

#include <QDialog>
#include <QStringList>

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

    // Reads the archive again.
    void reload();
    void setFilterText(const QString& text);
    int rowCount() const;
    // The document paths of the selected rows, in view order.
    QStringList selectedDocuments() const;
    void selectRows(const QList<int>& view_rows);
    QString cellText(int view_row, Column column) const;
    QTableView* table() const { return m_table; }

signals:
    void openRequested(const QString& document_path);

private:
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
};

} // namespace lbm::ui
