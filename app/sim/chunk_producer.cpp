#include "app/sim/chunk_producer.h"

#include <QScopeGuard>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <future>
#include <thread>
#include <vector>

namespace lbm::sim {

namespace {

// The session's thread stamps arrivals, reads control messages and sends on time; the
// producer's two threads have a profile interval of slack per chunk. On a busy two-core
// machine they would otherwise take the cores from it exactly when an interaction sent at a
// chunk boundary must be read. Linux applies nice per thread; a small step is enough. The
// step is taken from the process's own priority (its main thread's): a process started at
// nice 10 would otherwise raise its producers to 3 when allowed to (as root), above its own
// session thread.
void yieldToTheSession() {
#ifdef Q_OS_LINUX
    constexpr int kStep = 3;
    constexpr int kLowest = 19;
    errno = 0;
    const int process_nice = getpriority(PRIO_PROCESS, static_cast<id_t>(getpid()));
    if (errno == 0) {
        setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)),
                    std::min(kLowest, process_nice + kStep));
    }
#endif
}

} // namespace

void applyVisualFaults(ChunkPlan& plan, const std::vector<FaultSpec>& faults, int /*width*/,
                       int /*height*/) {
    if (plan.frames.empty()) {
        return;
    }
    const int chunk = plan.generation_chunk_index;
    // Each seam up to this chunk jumps the view off the road ahead and the next one back: a
    // different view of the same world (same sky and light), and the camera keeps moving the
    // way it is told (a mirrored view would make every later command look reversed).
    int seams = 0;
    for (const FaultSpec& fault : faults) {
        seams += fault.kind == FaultKind::Seam && fault.chunk <= chunk ? 1 : 0;
    }
    const std::optional<int> blur_from = firstFaultChunk(faults, FaultKind::Blur);
    const std::optional<int> tint_from = firstFaultChunk(faults, FaultKind::Tint);
    const double frames = static_cast<double>(plan.frames.size());
    for (size_t i = 0; i < plan.frames.size(); ++i) {
        FrameState& state = plan.frames[i];
        if (seams % 2 == 1) {
            state.seam_jump = true;
        }
        // Chunks of progress since the fault began, counted to the end of this frame.
        const auto progress = [&](int from) {
            return (chunk - from) + static_cast<double>(i + 1) / frames;
        };
        if (blur_from && chunk >= *blur_from) {
            state.blur_sigma_px =
                std::min(kMaxBlurSigmaPx, kBlurSigmaPxPerChunk * progress(*blur_from));
        }
        if (tint_from && chunk >= *tint_from) {
            state.warm_cast = std::min(kMaxWarmCast, kWarmCastPerChunk * progress(*tint_from));
        }
    }
    if (hasFault(faults, FaultKind::Freeze, chunk)) {
        // The picture of the first frame throughout; frame numbers and captions move on.
        const FrameState held = plan.frames.front();
        for (FrameState& state : plan.frames) {
            state.pose = held.pose;
            state.look = held.look;
            state.world_time_s = held.world_time_s;
            state.first_frame_mix = held.first_frame_mix;
            state.seam_jump = held.seam_jump;
            state.blur_sigma_px = held.blur_sigma_px;
            state.warm_cast = held.warm_cast;
        }
    }
}

ChunkProducer::ChunkProducer(const QImage& first_frame, int width, int height, int fps,
                             std::vector<FaultSpec> faults, quint64 seed, Realism realism)
    : m_first_frame(first_frame)
    , m_seed(seed)
    , m_realism(realism)
    , m_faults(std::move(faults))
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

void ChunkProducer::cancel() {
    m_cancelled = true;
}

void ChunkProducer::produceQueued() {
    for (;;) {
        QueuedPlan next;
        {
            const std::lock_guard lock(m_queue_mutex);
            if (m_queue.empty() || m_cancelled) {
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
        if (!m_renderer) {
            yieldToTheSession(); // the first job on the producer's thread

            m_renderer = std::make_unique<FrameRenderer>(m_first_frame, m_width, m_height, m_seed,
                                                         m_realism);
        }
        if (!m_encoder) {
            m_encoder = std::make_unique<Fmp4Encoder>(m_width, m_height, m_fps, 1);
        }
        ChunkPlan faulted = plan;
        applyVisualFaults(faulted, m_faults, m_width, m_height);
        // One thread renders the frames in order while this one encodes them: rendering the
        // world costs about as much as encoding it, and a chunk of the fast profile is due every
        // 100 ms. A plain std::thread handing each frame over through a promise, not
        // QtConcurrent: ThreadSanitizer sees the hand-over (its synchronisation is inside
        // Qt's uninstrumented pool otherwise, and every sanitizer run reported a race).
        const FrameRenderer& renderer = *m_renderer;
        const int frame_count = static_cast<int>(faulted.frames.size());
        std::vector<std::promise<QImage>> rendered(static_cast<size_t>(frame_count));
        std::atomic<bool> stop_rendering{false};
        std::thread render_thread([&] {
            yieldToTheSession();
            for (int i = 0; i < frame_count; ++i) {
                auto& promise = rendered[static_cast<size_t>(i)];
                if (stop_rendering.load() || m_cancelled.load()) {
                    promise.set_value(QImage());
                    continue;
                }
                try {
                    QImage frame;
                    {
                        const std::lock_guard lock(m_spare_mutex);
                        if (!m_spare_frames.empty()) {
                            frame = std::move(m_spare_frames.back());
                            m_spare_frames.pop_back();
                        }
                    }
                    renderer.renderInto(frame, faulted.frames[static_cast<size_t>(i)]);
                    promise.set_value(std::move(frame));
                } catch (...) {
                    promise.set_exception(std::current_exception());
                }
            }
        });
        // An encoder error leaves this scope early: the renderer must be done with the frames.
        const auto finish_rendering = qScopeGuard([&]() {
            stop_rendering = true;
            render_thread.join();
        });
        QByteArray media;
        for (int i = 0; i < frame_count; ++i) {
            if (m_cancelled) {
                return; // nobody is waiting for this chunk (finish_rendering joins)
            }
            QImage frame = rendered[static_cast<size_t>(i)].get_future().get();
            media += m_encoder->encode(frame);
            const std::lock_guard lock(m_spare_mutex);
            m_spare_frames.push_back(std::move(frame));
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
