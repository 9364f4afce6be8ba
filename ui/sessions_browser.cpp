#include "ui/sessions_browser.h"

#include "app/engine/session_keeper.h"
#include "ui/screen_fit.h"
#include "ui/session_status.h"
#include "ui/session_summary.h"
#include "ui/side_by_side_window.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentMap>

namespace lbm::ui {
namespace {

constexpr int kPathRole = Qt::UserRole + 1;
constexpr int kSortRole = Qt::UserRole + 2;

QStandardItem* cell(const QString& text, const QVariant& sort_key = {}) {
    auto* item = new QStandardItem(text);
    item->setEditable(false);
    item->setToolTip(text);
    item->setData(sort_key.isValid() ? sort_key : QVariant(text), kSortRole);
    return item;
}

} // namespace

SessionsBrowser::SessionsBrowser(lbm::engine::SessionKeeper* keeper, QWidget* parent)
    : QDialog(parent)
    , m_keeper(keeper)
    , m_model(new QStandardItemModel(this))
    , m_proxy(new QSortFilterProxyModel(this)) {
    setWindowTitle(tr("Sessions"));
    m_model->setHorizontalHeaderLabels({tr("Date (UTC)"), tr("Endpoint"), tr("Profile"),
                                        tr("Faults"), tr("Chunks"), tr("Outcome"), tr("Underruns"),
                                        tr("Quality flags")});
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(kSortRole);
    m_proxy->setFilterKeyColumn(-1); // any column
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter: any text in a row (e.g. stopped, h200, seam)"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, &SessionsBrowser::setFilterText);

    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(Date, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    // Never sideways scrolling: the columns share the width, long ones elided (tooltips hold
    // the whole text).
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    QHeaderView* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Stretch);
    for (const Column narrow : {Date, Chunks, Outcome, Underruns}) {
        header->setSectionResizeMode(narrow, QHeaderView::ResizeToContents);
    }
    connect(m_table, &QTableView::doubleClicked, this, &SessionsBrowser::openSelected);

    m_open = new QPushButton(tr("Open"), this);
    m_compare = new QPushButton(tr("Compare Side by Side"), this);
    m_reveal = new QPushButton(tr("Show in Folder"), this);
    m_delete = new QPushButton(tr("Delete…"), this);
    m_open->setDefault(true);
    connect(m_open, &QPushButton::clicked, this, &SessionsBrowser::openSelected);
    connect(m_compare, &QPushButton::clicked, this, &SessionsBrowser::compareSelected);
    connect(m_reveal, &QPushButton::clicked, this, &SessionsBrowser::revealSelected);
    connect(m_delete, &QPushButton::clicked, this, &SessionsBrowser::deleteSelected);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* buttons = new QHBoxLayout();
    for (QPushButton* button : {m_open, m_compare, m_reveal, m_delete}) {
        buttons->addWidget(button);
    }
    buttons->addStretch(1);
    buttons->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Kept in %1. Select one to open, two to compare.")
                                     .arg(displayedFolder(keeper->archive().root())),
                                 this));
    layout->addWidget(m_filter);
    m_progress = new QLabel(this);
    m_progress->setForegroundRole(QPalette::PlaceholderText);
    m_progress->hide();
    layout->addWidget(m_progress);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    closeWithEscape(this); // Esc is QDialog's; Ctrl+W too
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SessionsBrowser::updateButtons);
    connect(&m_watcher, &QFutureWatcher<SessionSummary>::progressValueChanged, this,
            &SessionsBrowser::updateProgress);
    connect(&m_watcher, &QFutureWatcher<SessionSummary>::finished, this, [this] {
        if (!m_watcher.isCanceled()) {
            fill(m_watcher.future().results());
        }
    });
    reload();
    fitOnScreen(this, QSize(1100, 560));
}

void SessionsBrowser::reload() {
    if (m_watcher.isRunning()) {
        // A newer reading replaces it; its results are dropped when it finishes.
        m_watcher.cancel();
        m_watcher.waitForFinished();
    }
    const QList<lbm::engine::ArchivedSession> sessions = m_keeper->recent();
    m_reading = true;
    m_watcher.setFuture(QtConcurrent::mapped(sessions, readSessionSummary));
    updateProgress();
}

QString SessionsBrowser::progressText() const {
    return m_progress->isVisible() ? m_progress->text() : QString();
}

void SessionsBrowser::updateProgress() {
    const int total = m_watcher.progressMaximum();
    m_progress->setText(
        tr("Reading %n kept session(s)… %1 read", nullptr, total).arg(m_watcher.progressValue()));
    m_progress->setVisible(m_reading);
    m_table->setEnabled(!m_reading);
}

void SessionsBrowser::fill(const QList<SessionSummary>& summaries) {
    m_model->removeRows(0, m_model->rowCount());
    for (const SessionSummary& summary : summaries) {
        const auto& archived = summary.archived;
        QList<QStandardItem*> row;
        row << cell(archived.started_utc.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                    archived.started_utc)
            << cell(summary.endpoint) << cell(summary.profile) << cell(summary.faults)
            << cell(summary.expected_chunks > 0
                        ? tr("%1/%2").arg(summary.chunks).arg(summary.expected_chunks)
                        : QString::number(summary.chunks),
                    static_cast<qlonglong>(summary.chunks))
            << cell(summary.readable ? summary.outcome.word() : tr("unreadable"))
            << cell(summary.underruns ? QString::number(*summary.underruns) : QString(),
                    summary.underruns.value_or(-1))
            << cell(summary.qualityText());
        row[Outcome]->setToolTip(summary.details());
        row[Date]->setData(archived.documentPath(), kPathRole);
        m_model->appendRow(row);
    }
    m_reading = false;
    updateProgress();
    updateButtons();
    emit loaded();
}

void SessionsBrowser::setFilterText(const QString& text) {
    if (m_filter->text() != text) {
        m_filter->setText(text);
    }
    m_proxy->setFilterFixedString(text);
}

int SessionsBrowser::rowCount() const {
    return m_proxy->rowCount();
}

QStringList SessionsBrowser::selectedDocuments() const {
    QStringList paths;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows(Date)) {
        paths << index.data(kPathRole).toString();
    }
    return paths;
}

void SessionsBrowser::selectRows(const QList<int>& view_rows) {
    m_table->clearSelection();
    for (const int row : view_rows) {
        m_table->selectionModel()->select(m_proxy->index(row, 0),
                                          QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
}

QString SessionsBrowser::cellText(int view_row, Column column) const {
    return m_proxy->index(view_row, column).data().toString();
}

void SessionsBrowser::updateButtons() {
    const auto selected = selectedDocuments().size();
    m_open->setEnabled(selected == 1);
    m_compare->setEnabled(selected == 2);
    m_reveal->setEnabled(selected == 1);
    m_delete->setEnabled(selected >= 1);
}

void SessionsBrowser::openSelected() {
    const QStringList paths = selectedDocuments();
    if (paths.size() == 1) {
        emit openRequested(paths.front());
        accept();
    }
}

void SessionsBrowser::compareSelected() {
    const QStringList paths = selectedDocuments();
    if (paths.size() == 2) {
        SideBySideWindow::open(paths[0], paths[1], parentWidget());
        accept();
    }
}

void SessionsBrowser::revealSelected() {
    const QStringList paths = selectedDocuments();
    if (paths.size() == 1) {
        QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(paths.front()).absolutePath()));
    }
}

void SessionsBrowser::deleteSelected() {
    const QStringList paths = selectedDocuments();
    if (paths.isEmpty()) {
        return;
    }
    const auto answer = QMessageBox::question(
        this, tr("Delete sessions"),
        tr("Delete %n kept session(s) with their recordings? This cannot be undone.", nullptr,
           static_cast<int>(paths.size())));
    if (answer != QMessageBox::Yes) {
        return;
    }
    for (const QString& path : paths) {
        const QString folder = QFileInfo(path).absolutePath();
        // Only folders inside the archive, and never the session being written.
        if (folder.startsWith(m_keeper->archive().root()) &&
            !(m_keeper->current() && m_keeper->current()->folder == folder)) {
            QDir(folder).removeRecursively();
        }
    }
    reload();
}

} // namespace lbm::ui
