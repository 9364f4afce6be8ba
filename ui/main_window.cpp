#include "ui/main_window.h"

#include <QLabel>

namespace lbm::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent) {
    setWindowTitle(QStringLiteral("LingBot Live Monitor"));
    auto* placeholder = new QLabel(tr("LingBot Live Monitor"), this);
    placeholder->setAlignment(Qt::AlignCenter);
    setCentralWidget(placeholder);
}

} // namespace lbm::ui
