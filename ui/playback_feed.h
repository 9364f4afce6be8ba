#pragma once
// Points the playback clock at the session engine's picture queue and keeps it informed: each
// chunk's frame count as it lands (so the clock can judge its start buffer), and every change
// of the queue the engine reports (frames came, the stream ended), on which the clock decides
// again. The frames themselves go straight from the decoder's queue to the clock.

#include <QObject>
#include <QPointer>

// In the order the feed takes them: the clock it is made with, the engine it attaches to.
namespace lbm::playback {
class PlaybackClock;
}
namespace lbm::engine {
class SessionEngine;
}

namespace lbm::ui {

class PlaybackFeed : public QObject {
    Q_OBJECT
public:
    explicit PlaybackFeed(lbm::playback::PlaybackClock* clock, QObject* parent = nullptr);

    // Resets the clock onto engine's picture queue, at the target fps and start buffer of the
    // session the engine runs (its settings().metrics), and follows that session.
    void attach(lbm::engine::SessionEngine* engine);
    void detach();

private:
    lbm::playback::PlaybackClock* m_clock;
    QPointer<lbm::engine::SessionEngine> m_engine;
    QList<QMetaObject::Connection> m_connections;
};

} // namespace lbm::ui
