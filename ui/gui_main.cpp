#include "ui/gui_main.h"

#include "ui/main_window.h"

#include <QApplication>

namespace lbm::ui {

int runGui(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("lingbot-monitor"));
    QApplication::setApplicationName(QStringLiteral("lingbot-monitor"));
    QApplication::setApplicationVersion(QStringLiteral(LBM_VERSION));
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    return QApplication::exec();
}

} // namespace lbm::ui
