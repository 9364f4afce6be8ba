#pragma once
// Thumbnails of chosen frames of a recording, decoded on a thread of the loader's own
// (media::RecordingReader, one per thread) so the GUI thread never decodes: the frames are
// read in ascending order, which lets the reader continue from one to the next instead of
// going back to a keyframe, and each arrives as an RGB image of the asked width as soon as it
// is ready. A new load replaces the one under way; results of a replaced load are dropped.

#include <QImage>
#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace lbm::ui {

class ThumbnailLoader : public QObject {
    Q_OBJECT
public:
    explicit ThumbnailLoader(QObject* parent = nullptr);
    ~ThumbnailLoader() override;

    // Decodes frames (global indices; sorted and deduplicated here) of the recording at path
    // as images width pixels wide (the height keeps the frame's aspect ratio).
    void load(const QString& path, std::vector<int> frames, int width);
    // Drops the load under way (its remaining frames are not decoded).
    void cancel();
    bool isLoading() const { return m_loading; }

signals:
    void thumbnailReady(int frame, const QImage& image);
    // The recording cannot be opened, or a frame cannot be decoded (the load goes on).
    void failed(const QString& reason);
    // Every frame of the load was tried; loaded of them are in.
    void finished(int loaded);

private:
    class Worker;
    std::unique_ptr<Worker> m_worker;
    quint64 m_serial = 0;
    bool m_loading = false;
};

} // namespace lbm::ui
