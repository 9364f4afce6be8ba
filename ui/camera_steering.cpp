#include "ui/camera_steering.h"

#include "app/engine/session_engine.h"

#include <QEvent>
#include <QKeyEvent>

#include <algorithm>

namespace lbm::ui {
namespace {

std::optional<QChar> cameraLetter(int key) {
    switch (key) {
    case Qt::Key_W:
        return QLatin1Char('w');
    case Qt::Key_A:
        return QLatin1Char('a');
    case Qt::Key_S:
        return QLatin1Char('s');
    case Qt::Key_D:
        return QLatin1Char('d');
    case Qt::Key_I:
        return QLatin1Char('i');
    case Qt::Key_J:
        return QLatin1Char('j');
    case Qt::Key_K:
        return QLatin1Char('k');
    case Qt::Key_L:
        return QLatin1Char('l');
    default:
        return std::nullopt;
    }
}

} // namespace

CameraSteering::CameraSteering(QObject* parent)
    : QObject(parent) {
    m_release_timer.setSingleShot(true);
    m_release_timer.setInterval(kReleaseSettleMs);
    connect(&m_release_timer, &QTimer::timeout, this, &CameraSteering::applySettledReleases);
}

void CameraSteering::setSession(lbm::engine::SessionEngine* engine, bool live) {
    m_engine = engine;
    m_live = live;
}

bool CameraSteering::isLive() const {
    return m_live && m_engine && m_engine->running();
}

void CameraSteering::watch(QObject* widget) {
    widget->installEventFilter(this);
}

void CameraSteering::pressLetter(QChar letter) {
    if (m_settling.contains(letter)) {
        // The release just before was half of a key repeat: the key never went up.
        m_settling.remove(letter);
        if (m_settling.isEmpty()) {
            m_release_timer.stop();
        }
        return;
    }
    // Another key: the pending releases are real, and one velocity says both changes (the
    // server never gets one for keys already up).
    setHeldKeys(lbm::protocol::CameraKeys::fromLetters(lettersAfterReleases() + letter));
}

void CameraSteering::releaseLetter(QChar letter) {
    if (m_keys.letters().contains(letter) && !m_settling.contains(letter)) {
        m_settling += letter;
        m_release_timer.start();
    }
}

QString CameraSteering::lettersAfterReleases() const {
    QString letters = m_keys.letters();
    for (const QChar letter : m_settling) {
        letters.remove(letter);
    }
    return letters;
}

void CameraSteering::applySettledReleases() {
    if (!m_settling.isEmpty()) {
        setHeldKeys(lbm::protocol::CameraKeys::fromLetters(lettersAfterReleases()));
    }
}

void CameraSteering::setHeldKeys(const lbm::protocol::CameraKeys& keys) {
    // Whoever sets the keys outright (the pad, focus loss, a session's end) ends any wait.
    m_release_timer.stop();
    m_settling.clear();
    if (keys == m_keys) {
        return;
    }
    m_keys = keys;
    if (isLive()) {
        const auto velocity = lbm::protocol::velocityForKeys(keys, m_speed);
        m_sent.push_back(velocity);
        m_engine->sendCameraVelocity(velocity);
    }
    emit keysChanged(keys);
}

void CameraSteering::setSpeedFactor(double factor) {
    const double clamped = std::clamp(factor, 0.1, 2.0);
    if (clamped == m_speed) {
        return;
    }
    m_speed = clamped;
    emit speedChanged(m_speed);
    applySettledReleases();
    if (!m_keys.none()) {
        // Resend the held keys at the new speed.
        const auto keys = m_keys;
        m_keys = {};
        setHeldKeys(keys);
    }
}

bool CameraSteering::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::KeyPress || event->type() == QEvent::KeyRelease) {
        auto* key_event = static_cast<QKeyEvent*>(event);
        const auto letter = cameraLetter(key_event->key());
        if (letter && key_event->modifiers() == Qt::NoModifier) {
            if (!key_event->isAutoRepeat()) {
                if (event->type() == QEvent::KeyPress) {
                    pressLetter(*letter);
                } else {
                    releaseLetter(*letter);
                }
            }
            return true;
        }
    } else if (event->type() == QEvent::FocusOut) {
        // A key released while another window has focus never reaches us: stop now.
        releaseAll();
    }
    return QObject::eventFilter(watched, event);
}

} // namespace lbm::ui
