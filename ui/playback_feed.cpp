#include "ui/playback_feed.h"

#include "app/engine/session_engine.h"
#include "app/playback/playback_clock.h"

#include <algorithm>

namespace lbm::ui {

PlaybackFeed::PlaybackFeed(lbm::playback::PlaybackClock* clock, QObject* parent)
    : QObject(parent)
    , m_clock(clock) {
    connect(m_clock, &lbm::playback::PlaybackClock::framePresented, this, &PlaybackFeed::pump);
}

int PlaybackFeed::framesAheadFor(int start_buffer_chunks) {
    return (std::max(1, start_buffer_chunks) + 2) * 12;
}

void PlaybackFeed::attach(lbm::engine::SessionEngine* engine, double target_fps,
                          int start_buffer_chunks) {
    detach();
    m_engine = engine;
    m_max_ahead = framesAheadFor(start_buffer_chunks);
    m_clock->setTargetFps(target_fps);
    m_clock->setStartBufferChunks(start_buffer_chunks);
    m_clock->reset();
    m_connections
        << connect(engine, &lbm::engine::SessionEngine::framesReady, this, &PlaybackFeed::pump)
        << connect(engine, &lbm::engine::SessionEngine::decodingDone, this, &PlaybackFeed::pump)
        << connect(engine, &lbm::engine::SessionEngine::finished, this, &PlaybackFeed::pump)
        << connect(engine, &lbm::engine::SessionEngine::chunkLanded, this,
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

void PlaybackFeed::pump() {
    if (!m_engine) {
        return;
    }
    while (m_clock->queuedFrames() < m_max_ahead) {
        const auto frame = m_engine->takeFrame();
        if (!frame) {
            break;
        }
        m_clock->addFrame(lbm::playback::PlaybackFrame::fromDecoded(*frame));
    }
    if (m_engine->result() && m_engine->decodingFinished() && m_engine->presentationDrained()) {
        m_clock->finishStream();
    }
}

} // namespace lbm::ui
