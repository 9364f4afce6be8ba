#pragma once
// Steering the camera from the keyboard, as the reference browser player does: W A S D move
// and I J K L look while the video has focus; every change of the held keys sends one camera
// velocity (scaled by the speed factor, 0.1-2x) through the session engine, and releasing the
// keys or losing focus sends the zero velocity, because the server keeps applying the last
// velocity until it is replaced. A key release waits kReleaseSettleMs before it counts: X11
// repeats a held key as release+press pairs, and Qt marks a pair as a repeat only when the
// press is already queued, so on a loaded machine a held key sent stop+go pairs (3 of them
// in 3 s of a held J on the 1280x720 demo under Xvfb). A press of the same key within the
// wait cancels the release.

#include "app/protocol/camera_keys.h"
#include "app/protocol/camera_se3.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <optional>
#include <vector>

namespace lbm::engine {
class SessionEngine;
}

namespace lbm::ui {

class CameraSteering : public QObject {
    Q_OBJECT
public:
    explicit CameraSteering(QObject* parent = nullptr);

    // The session to steer, or null. live: steering is allowed for it (no camera script).
    void setSession(lbm::engine::SessionEngine* engine, bool live);
    bool isLive() const;

    // Watches key presses and focus of widget (the video).
    void watch(QObject* widget);

    void setHeldKeys(const lbm::protocol::CameraKeys& keys);
    const lbm::protocol::CameraKeys& heldKeys() const { return m_keys; }
    // Releases every key at once (sends the zero velocity when something was held).
    void releaseAll() { setHeldKeys({}); }
    // How long a released key waits for a press that makes it an X11 key repeat.
    static constexpr int kReleaseSettleMs = 50;
    // Released keys still in their wait (held for the server until it ends).
    const QString& settlingReleases() const { return m_settling; }

    void setSpeedFactor(double factor);
    double speedFactor() const { return m_speed; }

    // Velocities sent, in order (the interaction log of this window).
    const std::vector<lbm::protocol::CameraSe3>& sentVelocities() const { return m_sent; }
    void clearLog() { m_sent.clear(); }

signals:
    void keysChanged(const lbm::protocol::CameraKeys& keys);
    void speedChanged(double factor);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void pressLetter(QChar letter);
    void releaseLetter(QChar letter);
    void applySettledReleases();
    QString lettersAfterReleases() const;

    QPointer<lbm::engine::SessionEngine> m_engine;
    bool m_live = false;
    lbm::protocol::CameraKeys m_keys;
    double m_speed = 1.0;
    std::vector<lbm::protocol::CameraSe3> m_sent;
    QString m_settling;
    QTimer m_release_timer;
};

} // namespace lbm::ui
