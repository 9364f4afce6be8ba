#pragma once
// Runs a QualityAnalyzer on a thread of its own, so neither the GUI thread nor the decoder
// does the analysis. pushFrame() and setChunkContext() may be called from any thread; they
// queue in one FIFO, so a context and frames keep the order the caller gave them. Each chunk
// result is handed over once, when final: chunksReady() is emitted from the worker thread and
// takeReadyChunks() collects what is waiting. The results cross threads under the worker's
// std::mutex rather than as a queued signal argument, so ThreadSanitizer sees the hand-off
// (Qt's event queue is a futex it cannot see). One worker analyses one session: finish() ends it.

#include "app/media/decoded_frame.h"
#include "app/quality/chunk_context.h"
#include "app/quality/chunk_quality.h"
#include "app/quality/quality_settings.h"

#include <QObject>
#include <QString>

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <variant>
#include <vector>

namespace lbm::quality {

class QualityWorker : public QObject {
    Q_OBJECT
public:
    explicit QualityWorker(const QualitySettings& settings = {}, QObject* parent = nullptr);
    // Stops the thread without analysing what is still queued.
    ~QualityWorker() override;

    // Any thread. Returns at once unless settings.max_queued_frames frames are already
    // waiting; then it waits for the worker to catch up (back-pressure, so a stalled
    // analysis cannot hold the decoder's frames without bound). Ignored after finish().
    void pushFrame(const media::DecodedFrame& frame);
    // Any thread; see QualityAnalyzer::setChunkContext.
    void setChunkContext(const ChunkContext& context);
    // Any thread: the stream ended; the remaining chunks are analysed and made final, then
    // finished() is emitted.
    void finish();
    // Any thread but the worker's: waits until finish() was processed; false on timeout.
    bool waitForFinished(int timeout_ms);

    // Any thread: the chunk results that became final since the last call, in the order they
    // did, each with its per-frame signals. Each result is taken once.
    std::vector<ChunkQuality> takeReadyChunks();
    // Every final chunk result so far, in generation order, without the per-frame signals
    // (takeReadyChunks() carries those). Thread-safe copy.
    std::vector<ChunkQuality> results() const;
    const QualitySettings& settings() const { return m_settings; }

signals:
    // Chunk results became final: takeReadyChunks() has them (from the worker thread; connect
    // queued, and expect one signal to cover results a later one would also have announced).
    void chunksReady();
    // A problem with the input, said once (e.g. frames the analysis cannot read).
    void warning(const QString& message);
    // After finish(): every chunk is final and waits in takeReadyChunks().
    void finished();

private:
    struct FinishMark {};
    using Item = std::variant<media::DecodedFrame, ChunkContext, FinishMark>;

    void enqueue(Item item, bool is_frame);
    void run();

    const QualitySettings m_settings;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;           // items queued or stop requested
    std::condition_variable m_space;          // a frame left the queue
    std::condition_variable m_done;           // finish() processed
    std::deque<Item> m_queue;                 // guarded by m_mutex
    int m_queued_frames = 0;                  // guarded by m_mutex
    bool m_stop = false;                      // guarded by m_mutex
    bool m_finish_requested = false;          // guarded by m_mutex
    bool m_finished = false;                  // guarded by m_mutex
    std::map<qint64, ChunkQuality> m_results; // guarded by m_mutex: final chunks, for results()
    std::vector<ChunkQuality> m_ready;        // guarded by m_mutex: final, not yet taken
    std::thread m_thread;                     // last: starts once the members above exist
};

} // namespace lbm::quality
