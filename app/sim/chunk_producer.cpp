#include "app/sim/chunk_producer.h"

namespace lbm::sim {

ChunkProducer::ChunkProducer(const QImage& first_frame, int width, int height, int fps)
    : m_renderer(first_frame, width, height)
    , m_width(width)
    , m_height(height)
    , m_fps(fps) {}

ChunkProducer::~ChunkProducer() = default;

void ChunkProducer::enqueue(const ChunkPlan& plan, bool last) {
    {
        const std::lock_guard lock(m_queue_mutex);
        m_queue.push_back(QueuedPlan{plan, last});
    }
    QMetaObject::invokeMethod(this, &ChunkProducer::produceQueued, Qt::QueuedConnection);
}

void ChunkProducer::produceQueued() {
    for (;;) {
        QueuedPlan next;
        {
            const std::lock_guard lock(m_queue_mutex);
            if (m_queue.empty()) {
                return;
            }
            next = std::move(m_queue.front());
            m_queue.pop_front();
        }
        produce(next.plan, next.last);
    }
}

void ChunkProducer::produce(const ChunkPlan& plan, bool last) {
    try {
        if (!m_encoder) {
            m_encoder = std::make_unique<Fmp4Encoder>(m_width, m_height, m_fps, 1);
        }
        QByteArray media;
        for (const FrameState& frame : plan.frames) {
            media += m_encoder->encode(m_renderer.render(frame));
        }
        QByteArray trailer;
        if (last) {
            trailer = m_encoder->finish();
        }
        emit produced(plan.generation_chunk_index, media, trailer);
    } catch (const Fmp4EncoderError& error) {
        emit failed(QString::fromUtf8(error.what()));
    }
}

} // namespace lbm::sim
