#pragma once
// SIGTERM and SIGINT as a Qt signal: the handler only writes the signal number to a socket
// (the one thing a handler may safely do), and a QSocketNotifier turns that into
// terminationRequested() on the GUI thread, where the window can end its session cleanly and
// save what it has before quitting.

#include <QObject>

class QSocketNotifier;

namespace lbm::ui {

class TerminationWatcher : public QObject {
    Q_OBJECT
public:
    // Installs the handlers for SIGTERM and SIGINT (one watcher per process).
    explicit TerminationWatcher(QObject* parent = nullptr);
    ~TerminationWatcher() override;

signals:
    void terminationRequested(int signal_number);

private:
    QSocketNotifier* m_notifier = nullptr;
};

} // namespace lbm::ui
