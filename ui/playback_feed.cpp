#include "ui/playback_feed.h"

#include "app/engine/session_engine.h"
#include "app/playback/playback_clock.h"

namespace lbm::ui {

PlaybackFeed::PlaybackFeed(lbm::playback::PlaybackClock* clock, QObject* parent)
    : QObject(parent)
    , m_clock(clock) {}

void PlaybackFeed::attach(lbm::engine::SessionEngine* engine) {
    detach();
    m_engine = engine;
    const lbm::MetricsOptions& measured = engine->settings().metrics;
    m_clock->setTargetFps(measured.fps);
    m_clock->setStartBufferChunks(measured.playback_buffer_chunks);
    m_clock->reset(engine->pictureQueue());
    const auto update = [this] { m_clock->update(); };
    m_connections << connect(engine, &lbm::engine::SessionEngine::framesReady, m_clock, update)
                  << connect(engine, &lbm::engine::SessionEngine::chunkLanded, m_clock,
                             [this](const lbm::ChunkRecord& record, double) {
                                 m_clock->announceChunk(record.index, record.num_frames);
                             });
}

void PlaybackFeed::detach() {
    for (const auto& connection : std::as_const(m_connections)) {
        disconnect(connection);
    }
    m_connections.clear();
    m_engine = nullptr;
}

} // namespace lbm::ui
