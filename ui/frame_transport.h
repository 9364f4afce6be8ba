#pragma once
// The transport of a frame player after the session, shared by the recording player and
// Compare: it drives a ScrubBar (whose slider is the playhead) and owns the play timer.
// Space plays and pauses at the recording's fps, from the start again when at the end, and
// stops on the last frame; Left / Right step a frame, Shift a chunk (RecordingFrames'
// chunk-step rule over the layout it is given), Home / End. The bar's position line says
// "playing" while it plays, and stops saying so the moment it pauses. Who shows the frames
// listens to the bar's positionChanged; the transport knows only frame numbers.

#include "ui/scrub_bar.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

class QKeyEvent;
class QWidget;

namespace lbm::ui {

class RecordingFrames;

class FrameTransport : public QObject {
    Q_OBJECT
public:
    // bar is the owner's (a child widget of its window); the transport takes its play,
    // step and position signals.
    explicit FrameTransport(ScrubBar* bar, QObject* parent = nullptr);

    // The frames there are to play (0: nothing, the transport does nothing) and the marks
    // the bar shows over them. Keeps the position when it is still inside.
    void setFrames(int count, const QList<ScrubMark>& marks);
    // Nothing to play (the recording closes or another one is being indexed): pauses and
    // ignores keys until setFrames. The bar is left as it is, so moving its slider does not
    // ask the closing recording for a frame; its owner hides it or sets new frames.
    void unload();
    int frameCount() const { return m_count; }
    // The recording whose chunk layout Shift+Left/Right follow; nullptr: chunk steps go to
    // either end. Not owned; it must outlive its use here or be reset first.
    void setChunkLayout(const RecordingFrames* layout) { m_layout = layout; }
    // The recording's frame rate; playback shows one frame per 1/fps (at least 1 fps).
    void setFps(double fps);
    int intervalMs() const { return m_timer.interval(); }

    int position() const;
    bool isPlaying() const { return m_timer.isActive(); }
    void togglePlay();
    void play();
    void pause();
    void seekFrame(int frame);
    // A pause, then frames forward (negative: back), clamped to the recording.
    void step(int frames);
    // A pause, then to the first frame of the next (+1) or previous (-1) chunk; going back
    // from inside a chunk, to its first frame.
    void stepChunk(int direction);

    // The bar's position line: text, and " · playing" after it while playing.
    void setLabel(const QString& text);

    // The transport's keys other than Space (Left/Right a frame, Shift a chunk, Home/End),
    // for an owner that routes key events itself. True when key was one of them.
    bool handleKey(const QKeyEvent* key);
    // All the transport's keys, Space included, as shortcuts of window (whichever of its
    // children has the focus).
    void addShortcuts(QWidget* window);

signals:
    void playingChanged(bool playing);

private:
    void advance();
    void showLabel();

    ScrubBar* m_bar;
    QTimer m_timer;
    int m_count = 0;
    const RecordingFrames* m_layout = nullptr;
    QString m_label;
};

} // namespace lbm::ui
