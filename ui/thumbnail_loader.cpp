#include "ui/thumbnail_loader.h"

#include "app/media/recording_reader.h"

#include <QDir>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

namespace lbm::ui {

class ThumbnailLoader::Worker {
public:
    struct Job {
        quint64 serial = 0;
        QString path;
        std::vector<int> frames;
        int width = 0;
    };

    explicit Worker(ThumbnailLoader* owner)
        : m_owner(owner)
        , m_thread([this] { run(); }) {}

    ~Worker() {
        {
            std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        m_current.store(0);
        m_wake.notify_one();
        m_thread.join();
    }

    void submit(Job job) {
        {
            std::lock_guard lock(m_mutex);
            m_current.store(job.serial);
            m_job = std::move(job);
        }
        m_wake.notify_one();
    }

    // Frames of an older job stop being decoded at the next frame.
    void cancel(quint64 serial) { m_current.store(serial); }

private:
    void run() {
        media::RecordingReader reader;
        QString open_path;
        std::unique_lock lock(m_mutex);
        while (true) {
            m_wake.wait(lock, [this] { return m_stopping || m_job.has_value(); });
            if (m_stopping) {
                return;
            }
            const Job job = std::move(*m_job);
            m_job.reset();
            lock.unlock();
            work(reader, open_path, job);
            lock.lock();
        }
    }

    void work(media::RecordingReader& reader, QString& open_path, const Job& job) {
        const auto post = [this, serial = job.serial](auto&& call) {
            QMetaObject::invokeMethod(
                m_owner,
                [owner = m_owner, serial, call] {
                    if (owner->m_serial == serial) {
                        call(owner);
                    }
                },
                Qt::QueuedConnection);
        };
        // The recording may have grown (a live session) or changed: open it afresh unless it
        // is the one open and holds every frame asked for.
        const int needed = job.frames.empty() ? 0 : job.frames.back() + 1;
        if (open_path != job.path || reader.frameCount() < needed) {
            open_path.clear();
            if (!reader.open(job.path)) {
                const QString reason =
                    QStringLiteral("Cannot read the recording %1: %2")
                        .arg(QDir::toNativeSeparators(job.path), reader.errorString());
                post([reason](ThumbnailLoader* owner) {
                    owner->m_loading = false;
                    emit owner->failed(reason);
                    emit owner->finished(0);
                });
                return;
            }
            open_path = job.path;
        }
        int loaded = 0;
        QString first_error;
        for (const int index : job.frames) {
            if (m_current.load() != job.serial) {
                return; // replaced or cancelled
            }
            const auto frame = index < reader.frameCount() ? reader.frame(index) : std::nullopt;
            if (!frame || frame->isNull() || frame->width() <= 0) {
                if (first_error.isEmpty()) {
                    first_error = QStringLiteral("Frame %1 of %2 cannot be decoded: %3")
                                      .arg(index)
                                      .arg(QDir::toNativeSeparators(job.path))
                                      .arg(index < reader.frameCount()
                                               ? reader.errorString()
                                               : QStringLiteral("the recording holds %1 frames")
                                                     .arg(reader.frameCount()));
                }
                continue;
            }
            const int height =
                std::max(1, static_cast<int>(std::lround(static_cast<double>(job.width) *
                                                         frame->height() / frame->width())));
            const QImage image = frame->toImage(QSize(job.width, height));
            ++loaded;
            post([index, image](ThumbnailLoader* owner) {
                emit owner->thumbnailReady(index, image);
            });
        }
        post([loaded, first_error](ThumbnailLoader* owner) {
            owner->m_loading = false;
            if (!first_error.isEmpty()) {
                emit owner->failed(first_error);
            }
            emit owner->finished(loaded);
        });
    }

    ThumbnailLoader* m_owner;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<Job> m_job;
    std::atomic<quint64> m_current{0};
    bool m_stopping = false;
    std::thread m_thread; // last: starts once the rest exists
};

ThumbnailLoader::ThumbnailLoader(QObject* parent)
    : QObject(parent)
    , m_worker(std::make_unique<Worker>(this)) {}

ThumbnailLoader::~ThumbnailLoader() {
    m_worker.reset(); // joins before the loader goes away
}

void ThumbnailLoader::load(const QString& path, std::vector<int> frames, int width) {
    std::sort(frames.begin(), frames.end());
    frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
    frames.erase(frames.begin(), std::lower_bound(frames.begin(), frames.end(), 0));
    m_loading = true;
    m_worker->submit(Worker::Job{++m_serial, path, std::move(frames), std::max(16, width)});
}

void ThumbnailLoader::cancel() {
    m_worker->cancel(++m_serial);
    m_loading = false;
}

} // namespace lbm::ui
