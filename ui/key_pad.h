#pragma once
// The on-screen camera pad: W A S D (move) and I J K L (look) light up while held on the
// keyboard, and can be clicked to hold or release a key with the mouse.

#include "app/protocol/camera_keys.h"

#include <QHash>
#include <QWidget>

class QToolButton;

namespace lbm::ui {

class KeyPad : public QWidget {
    Q_OBJECT
public:
    explicit KeyPad(QWidget* parent = nullptr);

    // Shows the keys the keyboard (or a script) holds; does not emit keysClicked.
    void setHeld(const lbm::protocol::CameraKeys& keys);
    lbm::protocol::CameraKeys held() const;

signals:
    // The user clicked a key: the set now held.
    void keysClicked(const lbm::protocol::CameraKeys& keys);

private:
    QToolButton* makeKey(QChar letter, const QString& tooltip);
    QHash<QChar, QToolButton*> m_buttons;
};

} // namespace lbm::ui
