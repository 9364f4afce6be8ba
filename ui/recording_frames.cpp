#include "ui/recording_frames.h"

#include "app/media/recording_reader.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

namespace lbm::ui {

class RecordingFrames::Worker {
public:
    explicit Worker(RecordingFrames* owner)
        : m_owner(owner)
        , m_thread([this] { run(); }) {}

    ~Worker() {
        {
            std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        m_wake.notify_one();
        m_thread.join();
    }

    void open(const QString& path) {
        std::lock_guard lock(m_mutex);
        m_open_path = path;
        m_request.reset();
        m_wake.notify_one();
    }

    void request(int frame) {
        std::lock_guard lock(m_mutex);
        m_request = frame;
        m_wake.notify_one();
    }

private:
    void run() {
        media::RecordingReader reader;
        std::unique_lock lock(m_mutex);
        while (true) {
            m_wake.wait(lock, [this] {
                return m_stopping || m_open_path.has_value() || m_request.has_value();
            });
            if (m_stopping) {
                return;
            }
            if (m_open_path) {
                const QString path = *std::exchange(m_open_path, std::nullopt);
                lock.unlock();
                const bool ok = reader.open(path);
                const int count = ok ? reader.frameCount() : 0;
                const QString error = reader.errorString();
                QMetaObject::invokeMethod(
                    m_owner,
                    [owner = m_owner, ok, count, error] {
                        owner->m_frame_count = count;
                        if (ok) {
                            emit owner->opened(count);
                        } else {
                            emit owner->failed(error);
                        }
                    },
                    Qt::QueuedConnection);
                lock.lock();
                continue;
            }
            const int index = *std::exchange(m_request, std::nullopt);
            lock.unlock();
            const auto frame = reader.frame(index);
            const QString error = reader.errorString();
            QMetaObject::invokeMethod(
                m_owner,
                [owner = m_owner, frame, index, error] {
                    if (!frame) {
                        emit owner->failed(error);
                        return;
                    }
                    // The file's decoder numbers frames but knows no chunks; the layout
                    // the recording was opened with places them.
                    emit owner->frameReady(
                        lbm::media::DecodedFrame(frame->avFrame(), owner->tagOf(index)));
                },
                Qt::QueuedConnection);
            lock.lock();
        }
    }

    RecordingFrames* m_owner;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<QString> m_open_path;
    std::optional<int> m_request;
    bool m_stopping = false;
    std::thread m_thread; // last: starts once the rest exists
};

RecordingFrames::RecordingFrames(QObject* parent)
    : QObject(parent)
    , m_worker(std::make_unique<Worker>(this)) {}

RecordingFrames::~RecordingFrames() {
    m_worker.reset();
}

void RecordingFrames::open(const QString& path, const std::vector<int>& chunk_frames) {
    m_chunk_starts.clear();
    m_chunk_frames = chunk_frames;
    int start = 0;
    for (const int frames : chunk_frames) {
        m_chunk_starts.push_back(start);
        start += frames;
    }
    m_frame_count = 0;
    m_worker->open(path);
}

void RecordingFrames::close() {
    m_chunk_starts.clear();
    m_chunk_frames.clear();
    m_frame_count = 0;
}

std::pair<qint64, int> RecordingFrames::chunkOf(int frame) const {
    if (m_chunk_starts.empty()) {
        return {0, frame};
    }
    const auto after = std::upper_bound(m_chunk_starts.begin(), m_chunk_starts.end(), frame);
    const auto chunk = static_cast<qint64>(after - m_chunk_starts.begin()) - 1;
    const qint64 clamped = std::max<qint64>(0, chunk);
    return {clamped, frame - m_chunk_starts[static_cast<std::size_t>(clamped)]};
}

lbm::media::FrameTag RecordingFrames::tagOf(int frame) const {
    lbm::media::FrameTag tag;
    tag.global_frame_number = frame;
    const auto [chunk, in_chunk] = chunkOf(frame);
    tag.index_in_chunk = in_chunk;
    if (chunk < static_cast<qint64>(m_chunk_frames.size())) {
        tag.chunk = lbm::ChunkIdentity{
            chunk, chunk, m_chunk_frames[static_cast<std::size_t>(chunk)], lbm::ChunkKind::Media};
    }
    return tag;
}

int RecordingFrames::firstFrameOfChunk(qint64 chunk) const {
    if (chunk < 0 || chunk >= static_cast<qint64>(m_chunk_starts.size())) {
        return -1;
    }
    return m_chunk_starts[static_cast<std::size_t>(chunk)];
}

std::optional<int> RecordingFrames::chunkStepTarget(int frame, int direction) const {
    const auto [chunk, in_chunk] = chunkOf(frame);
    qint64 target = chunk + direction;
    if (direction < 0 && in_chunk > 0) {
        target = chunk; // back to the start of this chunk first
    }
    const int first = firstFrameOfChunk(std::max<qint64>(0, target));
    return first >= 0 ? std::optional(first) : std::nullopt;
}

void RecordingFrames::request(int frame) {
    m_worker->request(frame);
}

} // namespace lbm::ui
