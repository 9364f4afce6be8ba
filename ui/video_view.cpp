#include "ui/video_view.h"

#include "resources/bundled_resources.h"

#include <QPainter>
#include <QResizeEvent>

#include <condition_variable>
#include <mutex>
#include <thread>

namespace lbm::ui {

// One worker thread with a one-slot mailbox: a newer request replaces one not yet started.
class VideoView::Converter {
public:
    explicit Converter(VideoView* view)
        : m_view(view)
        , m_thread([this] { run(); }) {}

    ~Converter() {
        {
            std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        m_wake.notify_one();
        m_thread.join();
    }

    void request(quint64 serial, const lbm::media::DecodedFrame& frame, const QSize& size) {
        {
            std::lock_guard lock(m_mutex);
            m_job = Job{serial, frame, size};
        }
        m_wake.notify_one();
    }

private:
    struct Job {
        quint64 serial = 0;
        lbm::media::DecodedFrame frame;
        QSize size;
    };

    void run() {
        std::unique_lock lock(m_mutex);
        while (true) {
            m_wake.wait(lock, [this] { return m_stopping || m_job.has_value(); });
            if (m_stopping) {
                return;
            }
            Job job = std::move(*m_job);
            m_job.reset();
            lock.unlock();
            const QImage image = job.frame.toImage(job.size);
            // Queued to the view's thread; dropped by Qt if the view is gone by then.
            QMetaObject::invokeMethod(
                m_view,
                [view = m_view, serial = job.serial, image, frame = job.frame] {
                    view->onConverted(serial, image, frame);
                },
                Qt::QueuedConnection);
            lock.lock();
        }
    }

    VideoView* m_view;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<Job> m_job;
    bool m_stopping = false;
    std::thread m_thread; // last: starts once the rest exists
};

VideoView::VideoView(QWidget* parent)
    : QWidget(parent)
    , m_converter(std::make_unique<Converter>(this)) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(416, 240);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

VideoView::~VideoView() {
    m_converter.reset(); // joins before the widget goes away
}

QRect VideoView::pictureRect() const {
    if (m_source_size.isEmpty()) {
        return rect();
    }
    // Even sizes: the converter's fast path needs them (DecodedFrame::ScalePath), and a
    // pixel less is invisible.
    QSize fitted = m_source_size.scaled(size(), Qt::KeepAspectRatio);
    fitted = QSize(fitted.width() & ~1, fitted.height() & ~1);
    return QRect(QPoint((width() - fitted.width()) / 2, (height() - fitted.height()) / 2), fitted);
}

void VideoView::showFrame(const lbm::media::DecodedFrame& frame) {
    if (frame.isNull()) {
        return;
    }
    m_source_size = QSize(frame.width(), frame.height());
    // The conversion of the frame handed over before, if still under way, is now discarded.
    if (m_requested && !m_requested_displayed) {
        ++m_frames_superseded;
    }
    m_requested = frame;
    m_requested_displayed = false;
    requestConversion(frame);
}

void VideoView::showStill(const QImage& image) {
    ++m_serial; // a conversion still under way must not replace the still
    m_requested.reset();
    m_displayed.reset();
    m_source_size = image.size();
    m_image = image;
    update();
}

void VideoView::showIdlePicture() {
    QImage first;
    first.loadFromData(lbm::bundledFirstFramePng(), "PNG");
    showStill(first);
}

void VideoView::requestConversion(const lbm::media::DecodedFrame& frame) {
    QSize target = (QSizeF(pictureRect().size()) * devicePixelRatioF()).toSize();
    target = QSize(target.width() & ~1, target.height() & ~1);
    m_converter->request(++m_serial, frame, target.isEmpty() ? m_source_size : target);
}

void VideoView::onConverted(quint64 serial, const QImage& image,
                            const lbm::media::DecodedFrame& frame) {
    if (serial != m_serial || image.isNull()) {
        return;
    }
    m_image = image;
    m_image.setDevicePixelRatio(devicePixelRatioF());
    m_displayed = frame;
    m_requested_displayed = true;
    update();
    emit frameDisplayed(frame);
}

void VideoView::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::black);
    const QRect picture = pictureRect();
    if (!m_image.isNull()) {
        // Converted at this size already, so this is a plain blit; a stale size (mid-resize)
        // is scaled once until the new conversion lands.
        painter.setRenderHint(QPainter::SmoothPixmapTransform);
        painter.drawImage(picture, m_image);
    }
    m_hud.paint(painter, picture);
}

void VideoView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (m_requested) {
        requestConversion(*m_requested);
    }
}

} // namespace lbm::ui
