#include "ui/frame_transport.h"

#include "ui/recording_frames.h"

#include <QKeyEvent>
#include <QKeySequence>
#include <QShortcut>
#include <QWidget>

#include <algorithm>

namespace lbm::ui {

namespace {

constexpr double kDefaultFps = 16.0; // the endpoint's default until the recording says

} // namespace

FrameTransport::FrameTransport(ScrubBar* bar, QObject* parent)
    : QObject(parent)
    , m_bar(bar) {
    m_timer.setTimerType(Qt::PreciseTimer);
    setFps(kDefaultFps);
    connect(&m_timer, &QTimer::timeout, this, &FrameTransport::advance);
    connect(m_bar, &ScrubBar::playToggled, this, &FrameTransport::togglePlay);
    connect(m_bar, &ScrubBar::stepRequested, this, &FrameTransport::step);
}

void FrameTransport::setFrames(int count, const QList<ScrubMark>& marks) {
    m_count = std::max(0, count);
    if (m_count == 0) {
        pause();
    }
    m_bar->setFrames(m_count, marks);
}

void FrameTransport::unload() {
    pause();
    m_count = 0;
}

void FrameTransport::setFps(double fps) {
    // Whole milliseconds, as QTimer counts them: 16 fps plays at 62 ms a frame.
    m_timer.setInterval(static_cast<int>(1000.0 / std::max(1.0, fps)));
}

int FrameTransport::position() const {
    return m_bar->position();
}

void FrameTransport::togglePlay() {
    isPlaying() ? pause() : play();
}

void FrameTransport::play() {
    if (m_count == 0 || isPlaying()) {
        return;
    }
    if (position() + 1 >= m_count) {
        m_bar->setPosition(0); // from the start again, as players do at the end
    }
    m_timer.start();
    m_bar->setPlaying(true);
    showLabel();
    emit playingChanged(true);
}

void FrameTransport::pause() {
    const bool was_playing = isPlaying();
    m_timer.stop();
    m_bar->setPlaying(false);
    // The label says so at once, not when the next frame is shown.
    showLabel();
    if (was_playing) {
        emit playingChanged(false);
    }
}

void FrameTransport::advance() {
    if (position() + 1 >= m_count) {
        pause(); // the end
        return;
    }
    m_bar->setPosition(position() + 1);
}

void FrameTransport::seekFrame(int frame) {
    if (m_count == 0) {
        return;
    }
    m_bar->setPosition(std::clamp(frame, 0, m_count - 1));
}

void FrameTransport::step(int frames) {
    pause();
    seekFrame(position() + frames);
}

void FrameTransport::stepChunk(int direction) {
    pause();
    if (m_count == 0) {
        return;
    }
    std::optional<int> target;
    if (m_layout) {
        // Past a shorter recording's end (Compare's other side) we are on its last frame.
        const int last = m_layout->frameCount() - 1;
        target = m_layout->chunkStepTarget(last >= 0 ? std::min(position(), last) : position(),
                                           direction);
    }
    seekFrame(target.value_or(direction > 0 ? m_count - 1 : 0));
}

void FrameTransport::setLabel(const QString& text) {
    m_label = text;
    showLabel();
}

void FrameTransport::showLabel() {
    m_bar->setLabel(isPlaying() ? tr("%1 · playing").arg(m_label) : m_label);
}

bool FrameTransport::handleKey(const QKeyEvent* key) {
    if (m_count == 0) {
        return false;
    }
    const bool shift = key->modifiers() & Qt::ShiftModifier;
    switch (key->key()) {
    case Qt::Key_Left:
        shift ? stepChunk(-1) : step(-1);
        return true;
    case Qt::Key_Right:
        shift ? stepChunk(1) : step(1);
        return true;
    case Qt::Key_Home:
        seekFrame(0);
        return true;
    case Qt::Key_End:
        seekFrame(m_count - 1);
        return true;
    default:
        return false;
    }
}

void FrameTransport::addShortcuts(QWidget* window) {
    const auto key = [this, window](const QKeySequence& sequence, auto slot) {
        auto* shortcut = new QShortcut(sequence, window);
        shortcut->setContext(Qt::WindowShortcut);
        shortcut->setAutoRepeat(true);
        connect(shortcut, &QShortcut::activated, this, slot);
    };
    key(QKeySequence(Qt::Key_Space), [this] { togglePlay(); });
    key(QKeySequence(Qt::Key_Left), [this] { step(-1); });
    key(QKeySequence(Qt::Key_Right), [this] { step(1); });
    key(QKeySequence(Qt::SHIFT | Qt::Key_Left), [this] { stepChunk(-1); });
    key(QKeySequence(Qt::SHIFT | Qt::Key_Right), [this] { stepChunk(1); });
    key(QKeySequence(Qt::Key_Home), [this] { seekFrame(0); });
    key(QKeySequence(Qt::Key_End), [this] { seekFrame(m_count - 1); });
}

} // namespace lbm::ui
