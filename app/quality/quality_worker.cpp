#include "app/quality/quality_worker.h"

#include "app/quality/quality_analyzer.h"

#include <chrono>
#include <utility>

namespace lbm::quality {

QualityWorker::QualityWorker(const QualitySettings& settings, QObject* parent)
    : QObject(parent)
    , m_settings(settings)
    , m_thread([this] { run(); }) {
    registerQualityMetaTypes();
}

QualityWorker::~QualityWorker() {
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_space.notify_all();
    m_thread.join();
}

void QualityWorker::pushFrame(const media::DecodedFrame& frame) {
    enqueue(frame, true);
}

void QualityWorker::setChunkContext(const ChunkContext& context) {
    enqueue(context, false);
}

void QualityWorker::finish() {
    {
        const std::lock_guard lock(m_mutex);
        if (m_finish_requested) {
            return;
        }
        m_finish_requested = true;
        m_queue.emplace_back(FinishMark{});
    }
    m_wake.notify_one();
}

void QualityWorker::enqueue(Item item, bool is_frame) {
    {
        std::unique_lock lock(m_mutex);
        if (is_frame) {
            m_space.wait(lock, [this] {
                return m_stop || m_queued_frames < std::max(1, m_settings.max_queued_frames);
            });
        }
        if (m_stop || m_finish_requested) {
            return;
        }
        m_queue.push_back(std::move(item));
        m_queued_frames += is_frame ? 1 : 0;
    }
    m_wake.notify_one();
}

bool QualityWorker::waitForFinished(int timeout_ms) {
    std::unique_lock lock(m_mutex);
    return m_done.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                           [this] { return m_finished; });
}

std::vector<ChunkQuality> QualityWorker::takeReadyChunks() {
    const std::lock_guard lock(m_mutex);
    return std::exchange(m_ready, {});
}

std::vector<ChunkQuality> QualityWorker::results() const {
    const std::lock_guard lock(m_mutex);
    std::vector<ChunkQuality> results;
    results.reserve(m_results.size());
    for (const auto& entry : m_results) {
        results.push_back(entry.second);
    }
    return results;
}

void QualityWorker::run() {
    QualityAnalyzer analyzer(m_settings);
    for (;;) {
        Item item;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
            if (m_stop) {
                return;
            }
            item = std::move(m_queue.front());
            m_queue.pop_front();
            if (std::holds_alternative<media::DecodedFrame>(item)) {
                --m_queued_frames;
                m_space.notify_one();
            }
        }
        const bool finishing = std::holds_alternative<FinishMark>(item);
        if (const auto* frame = std::get_if<media::DecodedFrame>(&item)) {
            analyzer.addFrame(*frame);
        } else if (const auto* context = std::get_if<ChunkContext>(&item)) {
            analyzer.setChunkContext(*context);
        } else {
            analyzer.finish();
        }
        item = FinishMark{}; // drop the frame's buffers before emitting
        for (const QString& message : analyzer.takeWarnings()) {
            emit warning(message);
        }
        std::vector<ChunkQuality> final_chunks = analyzer.takeFinalChunks();
        if (!final_chunks.empty()) {
            {
                const std::lock_guard lock(m_mutex);
                for (ChunkQuality& chunk : final_chunks) {
                    ChunkQuality& kept = m_results[chunk.generation_index];
                    kept = chunk;
                    kept.dropFrameSignals(); // takeReadyChunks() has them; results() summarises
                    m_ready.push_back(std::move(chunk));
                }
            }
            emit chunksReady();
        }
        if (finishing) {
            {
                const std::lock_guard lock(m_mutex);
                m_finished = true;
            }
            m_done.notify_all();
            emit finished();
            return;
        }
    }
}

} // namespace lbm::quality
