#include "ui/session_library.h"

#include "app/engine/session_keeper.h"
#include "ui/sessions_browser.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QInputDialog>
#include <QKeySequence>
#include <QMenu>

namespace lbm::ui {

namespace {
constexpr int kMenuEntries = 15;
constexpr int kCrashLookBack = 3;
} // namespace

SessionLibrary::SessionLibrary(QMenu* menu, lbm::engine::SessionKeeper* keeper,
                               QWidget* parent_widget)
    : QObject(parent_widget)
    , m_menu(menu)
    , m_keeper(keeper)
    , m_parent(parent_widget) {
    connect(menu, &QMenu::aboutToShow, this, &SessionLibrary::fill);
}

std::optional<SessionSummary> SessionLibrary::endedUnexpectedly() const {
    const auto sessions = m_keeper->recent();
    // The newest few: a crash shows in the session the program was running when it died.
    for (int i = 0; i < sessions.size() && i < kCrashLookBack; ++i) {
        if (sessions[i].folder == (m_keeper->current() ? m_keeper->current()->folder : QString())) {
            continue;
        }
        SessionSummary summary = readSessionSummary(sessions[i]);
        if (summary.readable &&
            summary.outcome.kind == lbm::report::OutcomeKind::EndedUnexpectedly) {
            return summary;
        }
    }
    return std::nullopt;
}

std::optional<QString> SessionLibrary::offerEndedUnexpectedly(QWidget* window) {
    const auto crashed = endedUnexpectedly();
    if (!crashed) {
        return std::nullopt;
    }
    auto* reopen = new QAction(tr("Reopen the Session That Ended Unexpectedly"), window);
    reopen->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    window->addAction(reopen);
    connect(reopen, &QAction::triggered, this,
            [this, path = crashed->archived.documentPath()] { emit openRequested(path); });
    const QString profile =
        crashed->profile.isEmpty() ? crashed->endpoint : tr("profile %1").arg(crashed->profile);
    return tr("The session of %1 (%2, %3 of %4 chunks) ended unexpectedly: the program stopped "
              "while it ran. Ctrl+Shift+R reopens it; File ▸ Recent Sessions lists it.")
        .arg(crashed->archived.started_utc.toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")),
             profile)
        .arg(crashed->chunks)
        .arg(crashed->expected_chunks);
}

void SessionLibrary::showBrowser() {
    auto* browser = new SessionsBrowser(m_keeper, m_parent);
    browser->setAttribute(Qt::WA_DeleteOnClose);
    connect(browser, &SessionsBrowser::openRequested, this, &SessionLibrary::openRequested);
    browser->open();
}

void SessionLibrary::fill() {
    m_menu->clear();
    const auto sessions = m_keeper->recent();
    for (int i = 0; i < sessions.size() && i < kMenuEntries; ++i) {
        // Each entry says how the session went (read from its document as the menu opens).
        const SessionSummary summary = readSessionSummary(sessions[i]);
        QAction* action = m_menu->addAction(summary.label());
        action->setToolTip(summary.details());
        connect(action, &QAction::triggered, this,
                [this, path = sessions[i].documentPath()] { emit openRequested(path); });
    }
    if (sessions.isEmpty()) {
        m_menu->addAction(tr("No sessions kept yet"))->setEnabled(false);
    }
    m_menu->addSeparator();
    connect(m_menu->addAction(tr("Browse Sessions…")), &QAction::triggered, this,
            &SessionLibrary::showBrowser);
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
        const int keep_count =
            QInputDialog::getInt(m_parent, tr("Sessions kept"),
                                 tr("How many sessions to keep in %1 (the oldest are removed):")
                                     .arg(QDir::toNativeSeparators(m_keeper->archive().root())),
                                 m_keeper->keep(), 1, 100000, 1, &ok);
        if (ok) {
            m_keeper->setKeep(keep_count);
            emit keepChanged(keep_count);
        }
    });
}

} // namespace lbm::ui
