#pragma once
// The window's Broadcast dock: a toggle that republishes the engine's sessions as LL-HLS for
// browsers (lbm::broadcast::Broadcaster, its server on a thread of its own), the address it
// listens on (127.0.0.1 unless another is given), the viewer URL with its access token, a QR
// code of it for phones, and how many viewers are watching.

#include "app/broadcast/broadcaster.h"

#include <QWidget>

class QCheckBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMainWindow;
class QMenu;
class QPushButton;

namespace lbm::engine {
class SessionEngine;
}

namespace lbm::ui {

class BroadcastPanel : public QWidget {
    Q_OBJECT
public:
    BroadcastPanel(engine::SessionEngine* engine, QWidget* parent = nullptr);

    // For tests and automation.
    QCheckBox* toggle() const { return m_toggle; }
    QLineEdit* addressField() const { return m_address; }
    QString viewerUrl() const;
    QString viewersText() const;
    QString errorText() const;
    const QImage& qrCode() const { return m_qr; }
    broadcast::Broadcaster& broadcaster() { return m_broadcaster; }

private:
    void setBroadcasting(bool on);
    void showStats(const broadcast::BroadcastStats& stats);

    engine::SessionEngine* m_engine;
    broadcast::Broadcaster m_broadcaster;
    QCheckBox* m_toggle;
    QLineEdit* m_address;
    QLabel* m_url;
    QPushButton* m_copy;
    QLabel* m_qr_label;
    QLabel* m_viewers;
    QLabel* m_error;
    QImage m_qr;
};

// Adds the Broadcast dock to window (tabbed behind below, listed in view_menu); returns it.
QDockWidget* addBroadcastDock(QMainWindow* window, QMenu* view_menu, engine::SessionEngine* engine,
                              QDockWidget* below);

} // namespace lbm::ui
