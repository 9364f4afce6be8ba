#pragma once
// Renders and encodes one session's chunks on that session's worker thread, so libx264
// never blocks the event loop that timestamps and sends messages. Plans reach the worker
// through a mutex-guarded queue rather than inside a queued call's arguments: the
// hand-off is then explicit in our code (and visible to ThreadSanitizer, which cannot see
// the futex inside Qt's event queue).

#include "app/sim/fault_spec.h"
#include "app/sim/fmp4_encoder.h"
#include "app/sim/frame_renderer.h"
#include "app/sim/interaction_engine.h"

#include <QByteArray>
#include <QObject>

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace lbm::sim {

// How fast the growing visual faults grow, per chunk of progress (they grow frame by frame,
// so no chunk boundary shows a step), and where they stop.
inline constexpr double kBlurSigmaPxPerChunk = 2.0;
inline constexpr double kMaxBlurSigmaPx = 8.0;
inline constexpr double kWarmCastPerChunk = 12.0;
inline constexpr double kMaxWarmCast = 96.0;

// Applies the visual faults (seam, freeze, blur, tint) to a chunk's planned frames: the
// ground truth the quality analysis is tested against. Other fault kinds are ignored.
void applyVisualFaults(ChunkPlan& plan, const std::vector<FaultSpec>& faults, int width,
                       int height);

class ChunkProducer : public QObject {
    Q_OBJECT
public:
    // faults: the session's configured faults; the visual ones shape the pictures. seed and
    // realism: the world's (FrameRenderer).
    ChunkProducer(const QImage& first_frame, int width, int height, int fps,
                  std::vector<FaultSpec> faults = {}, quint64 seed = 42,
                  Realism realism = Realism::Low);
    ~ChunkProducer() override;

    // Any thread: queues the plan and wakes the worker. last: also finish the stream and
    // hand back the trailer.
    void enqueue(const ChunkPlan& plan, bool last);
    // Any thread: drops the queued plans and stops the chunk in hand at its next frame, so
    // a session that ends does not wait for pictures nobody will receive. Its owner calls
    // this before it stops the worker thread: QThread::wait() on the server's event loop
    // otherwise held every other session's messages until the chunk was done (up to a
    // second on a loaded machine, long enough for another session's stall timeout).
    void cancel();

signals:
    void produced(int generation_chunk_index, const QByteArray& media, const QByteArray& trailer);
    void failed(const QString& message);

private:
    struct QueuedPlan {
        ChunkPlan plan;
        bool last = false;
    };
    // Runs on the worker thread: renders and encodes every queued plan, in order.
    void produceQueued();
    void produce(const ChunkPlan& plan, bool last);

    std::atomic<bool> m_cancelled{false};
    std::mutex m_queue_mutex;
    std::deque<QueuedPlan> m_queue; // guarded by m_queue_mutex
    // Made on the worker thread at the first chunk: building it must not hold up the
    // session's event loop, which stamps and answers messages.
    std::unique_ptr<FrameRenderer> m_renderer;
    const QImage m_first_frame;
    const quint64 m_seed;
    const Realism m_realism;
    const std::vector<FaultSpec> m_faults;
    std::unique_ptr<Fmp4Encoder> m_encoder;
    // Frames the encoder is done with, drawn into again by the render thread (renderInto):
    // a session allocates its few frames once rather than one per frame.
    std::mutex m_spare_mutex;
    std::vector<QImage> m_spare_frames; // guarded by m_spare_mutex
    int m_width;
    int m_height;
    int m_fps;
};

} // namespace lbm::sim
