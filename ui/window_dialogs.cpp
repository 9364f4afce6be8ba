#include "ui/window_dialogs.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QKeySequence>
#include <QMessageBox>
#include <QPushButton>
#include <QStringList>
#include <QWidget>

namespace lbm::ui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("HelpDialogs", text);
}

} // namespace

void showShortcutsDialog(QWidget* window) {
    QStringList rows;
    for (QAction* action : window->findChildren<QAction*>()) {
        if (!action->shortcut().isEmpty()) {
            rows << QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                        .arg(action->shortcut().toString(QKeySequence::NativeText),
                             action->text().remove(QLatin1Char('&')));
        }
    }
    rows << tr("<tr><td><b>W A S D</b></td><td>Move the camera (video focused)</td></tr>")
         << tr("<tr><td><b>I J K L</b></td><td>Pitch / yaw the camera (video focused)</td></tr>")
         << tr("<tr><td><b>Left / Right</b></td><td>The recording: a frame back / on</td></tr>")
         << tr("<tr><td><b>Shift+Left / Right</b></td><td>The recording: a chunk back / "
               "on</td></tr>");
    QMessageBox::information(
        window, tr("Keyboard shortcuts"),
        QStringLiteral("<table cellspacing=6>%1</table>").arg(rows.join(QString())));
}

void showAboutDialog(QWidget* window) {
    QMessageBox::about(window, tr("About LingBot Live Monitor"),
                       tr("<b>LingBot Live Monitor</b> %1<br>Live monitor for realtime "
                          "world-model video streams (LingBot-World over vLLM-Omni).<br>Qt %2")
                           .arg(QStringLiteral(LBM_VERSION), QString::fromLatin1(qVersion())));
}

bool confirmQuitDuringSession(QWidget* window, const QString& session_folder) {
    QMessageBox box(QMessageBox::Question, tr("A session is streaming"),
                    tr("Stop the session and quit?"), QMessageBox::NoButton, window);
    box.setObjectName(QStringLiteral("QuitDuringSessionDialog"));
    box.setInformativeText(tr("The session is stopped (session.stop) and what arrived is kept in "
                              "%1: the recording and the session document, marked as stopped.")
                               .arg(QDir::toNativeSeparators(session_folder)));
    QPushButton* quit = box.addButton(tr("Stop and Quit"), QMessageBox::AcceptRole);
    box.addButton(tr("Keep Streaming"), QMessageBox::RejectRole);
    box.setDefaultButton(quit);
    box.exec();
    return box.clickedButton() == static_cast<QAbstractButton*>(quit);
}

} // namespace lbm::ui
