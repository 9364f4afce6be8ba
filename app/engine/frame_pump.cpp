#include "app/engine/frame_pump.h"

#include "app/media/stream_decoder.h"

namespace lbm::engine {

FramePump::FramePump(media::StreamDecoder& decoder, std::vector<FrameConsumer> consumers,
                     media::BoundedFrameQueue* presentation, Hooks hooks)
    : m_decoder(decoder)
    , m_consumers(std::move(consumers))
    , m_presentation(presentation)
    , m_hooks(std::move(hooks))
    , m_thread([this] { run(); }) {}

FramePump::~FramePump() {
    if (m_presentation) {
        m_presentation->abort();
    }
    if (m_thread.joinable()) {
        m_thread.join();
    }
}

std::map<qint64, qint64> FramePump::framesPerChunk() const {
    std::lock_guard lock(m_mutex);
    return m_per_chunk;
}

void FramePump::run() {
    // popFrame(-1) returns nullopt only once decoding ended and every frame was taken, or
    // after abort().
    while (const auto frame = m_decoder.popFrame(-1)) {
        if (frame->tag().generation_index) {
            std::lock_guard lock(m_mutex);
            ++m_per_chunk[*frame->tag().generation_index];
        }
        m_frames.fetch_add(1);
        for (const FrameConsumer& consume : m_consumers) {
            consume(*frame);
        }
        if (m_presentation) {
            const auto pushed = m_presentation->push(*frame);
            if (pushed == media::BoundedFrameQueue::PushResult::Aborted) {
                break;
            }
            if (pushed == media::BoundedFrameQueue::PushResult::QueuedAfterEmpty &&
                m_hooks.presentation_ready) {
                m_hooks.presentation_ready();
            }
        }
    }
    if (m_presentation) {
        m_presentation->close();
        if (m_hooks.presentation_ready) {
            m_hooks.presentation_ready(); // lets the view see the end of the stream
        }
    }
    m_finished.store(true);
    if (m_hooks.finished) {
        m_hooks.finished();
    }
}

} // namespace lbm::engine
