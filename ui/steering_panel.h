#pragma once
// The Camera dock: the on-screen key pad (lit while keys are held, clickable), the speed
// slider and one line saying whether steering is live and, if not, what would enable it.

#include <QWidget>

class QLabel;
class QSlider;

namespace lbm::ui {

class CameraSteering;
class KeyPad;

class SteeringPanel : public QWidget {
    Q_OBJECT
public:
    explicit SteeringPanel(CameraSteering* steering, QWidget* parent = nullptr);

    void setStatus(bool enabled, const QString& reason);
    // The pad and the line for a session that is (not) running, steerable or not.
    void showSessionState(bool running, bool steering_enabled);
    KeyPad* keyPad() const { return m_pad; }
    QString statusText() const;

private:
    CameraSteering* m_steering;
    KeyPad* m_pad = nullptr;
    QSlider* m_speed = nullptr;
    QLabel* m_speed_label = nullptr;
    QLabel* m_reason = nullptr;
};

} // namespace lbm::ui
