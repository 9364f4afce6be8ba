#pragma once
// The monitor's main window: session form, video, latency chart and live counters.

#include <QMainWindow>

namespace lbm::ui {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
};

} // namespace lbm::ui
