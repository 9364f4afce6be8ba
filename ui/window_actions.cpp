#include "ui/window_actions.h"

#include <QAction>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenuBar>
#include <QToolBar>

namespace lbm::ui {
namespace {

QAction* makeAction(QMainWindow* window, QMenu* menu, const QString& text, const QKeySequence& keys,
                    const QString& tip) {
    auto* action = new QAction(text, window);
    if (!keys.isEmpty()) {
        action->setShortcut(keys);
        action->setToolTip(
            QStringLiteral("%1 (%2)").arg(tip, keys.toString(QKeySequence::NativeText)));
    } else {
        action->setToolTip(tip);
    }
    action->setStatusTip(tip);
    menu->addAction(action);
    return action;
}

} // namespace

WindowActions::WindowActions(QMainWindow* window) {
    QMenu* file = window->menuBar()->addMenu(QMainWindow::tr("&File"));
    QMenu* session = window->menuBar()->addMenu(QMainWindow::tr("&Session"));
    view_menu = window->menuBar()->addMenu(QMainWindow::tr("&View"));
    QMenu* help = window->menuBar()->addMenu(QMainWindow::tr("&Help"));
    const auto make = [window](QMenu* menu, const QString& text, const QKeySequence& keys,
                               const QString& tip) {
        return makeAction(window, menu, text, keys, tip);
    };
    const auto tr = [](const char* text) { return QMainWindow::tr(text); };

    open_workload = make(file, tr("&Open Workload…"), QKeySequence(Qt::CTRL | Qt::Key_O),
                         tr("Load a workload file into the session form"));
    save_workload =
        make(file, tr("Save &Workload As…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W),
             tr("Save the form as a workload file"));
    file->addSeparator();
    open_document =
        make(file, tr("Open Session &Document…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O),
             tr("View a saved session document (ours or the Python benchmark's)"));
    compare_document = make(file, tr("&Compare With Document…"), QKeySequence(Qt::CTRL | Qt::Key_K),
                            tr("Draw another session document in the same chart"));
    compare_side_by_side = make(file, tr("Compare Sessions Side &by Side…"),
                                QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K),
                                tr("Play two kept sessions next to each other, locked by frame"));
    recent_sessions = file->addMenu(QMainWindow::tr("&Recent Sessions"));
    recent_sessions->setToolTipsVisible(true);
    file->addSeparator();
    save_document = make(file, tr("&Save Session Document…"), QKeySequence(Qt::CTRL | Qt::Key_S),
                         tr("Write the session document (the benchmark's JSON)"));
    export_csv = make(file, tr("Export Chunks as &CSV…"), QKeySequence(Qt::CTRL | Qt::Key_E),
                      tr("One row per chunk"));
    export_png = make(file, tr("Export Chart as &PNG…"), QKeySequence(Qt::CTRL | Qt::Key_P),
                      tr("Save the latency chart as an image"));
    save_video = make(file, tr("Save &Video (MP4)…"), QKeySequence(Qt::CTRL | Qt::Key_M),
                      tr("Stream-copy the recording into a progressive MP4"));
    file->addSeparator();
    quit = make(file, tr("&Quit"), QKeySequence::Quit, tr("Quit"));

    start = make(session, tr("&Start"), QKeySequence(Qt::Key_F5),
                 tr("Start a session with the form's settings"));
    stop =
        make(session, tr("S&top"), QKeySequence(Qt::SHIFT | Qt::Key_F5), tr("Send session.stop"));
    // Ctrl+Return sends the prompt from anywhere in the window, the video included.
    send_prompt = make(session, tr("Send &Prompt"), QKeySequence(Qt::CTRL | Qt::Key_Return),
                       tr("Send the prompt transition in the Prompt transitions panel"));
    session->addSeparator();
    pause =
        make(session, tr("&Pause"), QKeySequence(Qt::Key_Space), tr("Pause or resume playback"));
    pause->setCheckable(true);
    step = make(session, tr("Frame S&tep"), QKeySequence(Qt::Key_Period),
                tr("Show the next frame (paused, or in the recording)"));

    hud = make(view_menu, tr("&HUD Overlay"), QKeySequence(Qt::Key_H),
               tr("Chunk, frame, prompt, keys and buffer over the video"));
    hud->setCheckable(true);
    hud->setChecked(true);
    presenter = make(view_menu, tr("P&resenter Mode"), QKeySequence(Qt::Key_F11),
                     tr("Full-screen video with a compact HUD"));
    presenter->setCheckable(true);
    view_menu->addSeparator();
    // Ctrl+: Home and End alone seek the recording (one meaning per key).
    chart_follow = make(view_menu, tr("Chart: &Follow Latest"),
                        QKeySequence(Qt::CTRL | Qt::Key_End), tr("Follow the newest chunks"));
    chart_whole = make(view_menu, tr("Chart: &Whole Session"),
                       QKeySequence(Qt::CTRL | Qt::Key_Home), tr("Show every chunk"));
    chart_percentiles = make(view_menu, tr("Chart: &Percentiles"), QKeySequence(Qt::Key_P),
                             tr("p50 / p95 / p99 lines"));
    view_menu->addSeparator();

    shortcuts =
        make(help, tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, tr("List the shortcuts"));
    about = make(help, tr("&About"), QKeySequence(), tr("About LingBot Live Monitor"));

    QToolBar* bar = window->addToolBar(tr("Session"));
    bar->setObjectName(QStringLiteral("SessionToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(start);
    bar->addAction(stop);
    bar->addSeparator();
    bar->addAction(pause);
    bar->addAction(step);
    bar->addSeparator();
    bar->addAction(hud);
    bar->addAction(presenter);
}

QList<QAction*> WindowActions::presenterShortcuts() const {
    return {presenter, hud, pause, step, stop, send_prompt};
}

} // namespace lbm::ui
