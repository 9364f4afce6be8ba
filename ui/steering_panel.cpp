#include "ui/steering_panel.h"

#include "ui/camera_steering.h"
#include "ui/key_pad.h"
#include "ui/session_form.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>

#include <cmath>

namespace lbm::ui {

SteeringPanel::SteeringPanel(CameraSteering* steering, QWidget* parent)
    : QWidget(parent)
    , m_steering(steering) {
    m_pad = new KeyPad(this);
    m_speed = new QSlider(Qt::Horizontal, this);
    m_speed->setRange(1, 20);
    m_speed->setValue(static_cast<int>(std::lround(steering->speedFactor() * 10.0)));
    m_speed->setToolTip(tr("Camera speed factor, 0.1× to 2×"));
    m_speed_label = new QLabel(this);
    m_speed_label->setMinimumWidth(40);
    m_reason = new QLabel(this);
    m_reason->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    auto* pad_row = new QHBoxLayout();
    pad_row->addWidget(m_pad);
    pad_row->addStretch(1);
    layout->addLayout(pad_row);
    auto* speed_row = new QHBoxLayout();
    speed_row->addWidget(new QLabel(tr("Speed:"), this));
    speed_row->addWidget(m_speed, 1);
    speed_row->addWidget(m_speed_label);
    layout->addLayout(speed_row);
    layout->addWidget(m_reason);
    layout->addStretch(1);

    const auto show_speed = [this](double factor) {
        m_speed_label->setText(QStringLiteral("%1×").arg(factor, 0, 'f', 1));
        const int value = static_cast<int>(std::lround(factor * 10.0));
        if (m_speed->value() != value) {
            m_speed->setValue(value);
        }
    };
    show_speed(steering->speedFactor());
    connect(m_speed, &QSlider::valueChanged, steering,
            [steering](int value) { steering->setSpeedFactor(value / 10.0); });
    connect(steering, &CameraSteering::speedChanged, this, show_speed);
    connect(steering, &CameraSteering::keysChanged, m_pad, &KeyPad::setHeld);
    connect(m_pad, &KeyPad::keysClicked, steering, &CameraSteering::setHeldKeys);
}

void SteeringPanel::setStatus(bool enabled, const QString& reason) {
    m_pad->setEnabled(enabled);
    m_speed->setEnabled(enabled);
    m_reason->setText(reason);
}

void SteeringPanel::showSessionState(bool running, bool steering_enabled) {
    // The server's words for a camera interaction during a scripted rollout (protocol.md).
    static const QString refusal = QStringLiteral(
        "Cannot use mid-generation camera interaction together with camera_action_script");
    if (!running) {
        setStatus(false, steering_enabled
                             ? tr("Start a session, click the video, then hold W A S D / I J K L.")
                             : tr("Steering needs Camera: \"%1\" in the session form.")
                                   .arg(SessionForm::steerCameraChoice()));
    } else if (!steering_enabled) {
        setStatus(false,
                  tr("Steering is off for this workload: the server says \"%1\".").arg(refusal));
    } else {
        setStatus(true, tr("Click the video, then hold W A S D (move) and I J K L (look). "
                           "Releasing the keys stops the camera."));
    }
}

QString SteeringPanel::statusText() const {
    return m_reason->text();
}

} // namespace lbm::ui
