#pragma once
// Feeds the playback clock from the session engine: announces each chunk's frame count as
// it lands (so the clock can judge its start buffer) and moves decoded frames from the
// engine's presentation queue into the clock while the clock holds fewer than its limit,
// then says the stream ended once the engine has handed over its last frame. The limit keeps
// a few chunks of YUV frames ahead of the screen; beyond it the engine's pump and decoder
// wait, holding compressed bytes instead.

#include <QObject>
#include <QPointer>

namespace lbm::engine {
class SessionEngine;
}
namespace lbm::playback {
class PlaybackClock;
}

namespace lbm::ui {

class PlaybackFeed : public QObject {
    Q_OBJECT
public:
    explicit PlaybackFeed(lbm::playback::PlaybackClock* clock, QObject* parent = nullptr);

    // Frames the clock may hold ahead of the screen for a start buffer of start_buffer_chunks:
    // the buffer, the chunk whose last frame comes with the next one, and one more.
    static int framesAheadFor(int start_buffer_chunks);

    // Resets the clock (fps, start buffer) and follows engine's session.
    void attach(lbm::engine::SessionEngine* engine, double target_fps, int start_buffer_chunks);
    void detach();

private:
    void pump();

    lbm::playback::PlaybackClock* m_clock;
    QPointer<lbm::engine::SessionEngine> m_engine;
    QList<QMetaObject::Connection> m_connections;
    int m_max_ahead = 48;
};

} // namespace lbm::ui
