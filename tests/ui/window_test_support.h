#pragma once
// Helpers for the window tests: a picture of the window as a person sees it. On a real
// display (xcb, e.g. under Xvfb) the screen itself is grabbed; on the offscreen platform the
// window's own grab (the video view is an ordinary widget, HUD included).

#include "app/report/session_outcome.h"

#include <QImage>
#include <QProcessEnvironment>
#include <QSize>
#include <QString>
#include <QStringList>

namespace lbm::ui {
class MainWindow;
}
class QTemporaryDir;
class QWidget;

namespace lbm::ui::test {

QImage grabWindowWithVideo(lbm::ui::MainWindow& window);
// Saves under LBM_BINARY_DIR/screenshots/NAME.png; returns the path.
QString saveScreenshot(lbm::ui::MainWindow& window, const QString& name);
// The same for any top-level widget (a panel shown on its own, the side-by-side window).
QImage grabWidget(QWidget& widget);
QString saveWidgetScreenshot(QWidget& widget, const QString& name);

// Resizes window to size, shows it and waits until it is on screen.
void showAt(lbm::ui::MainWindow& window, const QSize& size);
// Aborts window's session (its screenshot is taken) and waits until it has ended.
void abortSession(lbm::ui::MainWindow& window);

// Starts a session in window on the built-in simulator's profile with chunks and faults; with
// faults, chunk timeouts of 60 s and 30 s (a stall is then seen as one, not as a timeout).
void startOnSimulator(lbm::ui::MainWindow& window, const QString& profile, int chunks,
                      const QStringList& faults = {});
// Where this process keeps its sessions.
QString sessionsRoot();
// The newest kept session's document, once its last rewrite has reached the disk and says
// kind (the document is rewritten a moment after the session's result).
QString newestKeptDocument(lbm::report::OutcomeKind kind);

// Visible plain-text labels under root whose text does not fit them ("class (name) at x,y
// wxh: text"): a one-line label whose text is wider than it, a wrapping one that needs more
// height than it has. (Labels that elide on purpose show a shortened text that fits.)
QStringList cutLabels(QWidget* root);

// Runs the real program (lingbot-monitor --start on the simulator's h200-sp4 profile, 40
// chunks) with its data under home until its kept document holds 3 chunks, then sends it
// signal_number and waits for it to go. Returns the document's path.
QString runAndSignal(const QTemporaryDir& home, int signal_number);
// The real program's environment: settings and kept sessions under home, offscreen.
QProcessEnvironment environmentIn(const QTemporaryDir& home);

} // namespace lbm::ui::test
