#pragma once
// One side of the side-by-side window: a session's title (run, profile, faults, prompts), its
// recording in a video view with a line of HUD, and its latency chart with the quality track
// under it, aligned. It shows the frame it is told to (its last one when told a later frame,
// so a shorter recording holds its end), read from the recording on disk off the GUI thread.
// A path that is not a playable session shows the reason and the fix in place of all that.

#include "ui/compared_session.h"

#include <QString>
#include <QWidget>

#include <optional>
#include <utility>

class QLabel;
class QStackedWidget;

namespace lbm::media {
class DecodedFrame;
}

namespace lbm::ui {

class LatencyChart;
class QualityTrack;
class RecordingFrames;
class VideoView;

class SideBySidePane : public QWidget {
    Q_OBJECT
public:
    // side_name: "left" or "right", for the messages.
    explicit SideBySidePane(const QString& side_name, QWidget* parent = nullptr);
    ~SideBySidePane() override;

    // Reads path and starts indexing its recording: opened() or failed() follows. False (with
    // the error shown) when path is not a session with a recording.
    bool load(const QString& path);
    bool isOpen() const { return m_frame_count > 0; }
    int frameCount() const { return m_frame_count; }
    QString errorText() const;
    // The lines over the picture (side, chunk, "frame N / count", its quality).
    QStringList hudLines() const;
    const std::optional<ComparedSession>& session() const { return m_session; }
    int chunkCount() const;

    // Both sides' charts span this many chunks, so a chunk is at the same place in both.
    void setChunkSpan(int chunks);
    // Shows frame (clamped to the recording's last; it holds there).
    void showFrame(int frame);
    // The frame last asked for after clamping, and its chunk.
    int shownFrame() const { return m_shown_frame; }
    std::pair<qint64, int> chunkOf(int frame) const;
    int firstFrameOfChunk(qint64 chunk) const;
    // The recording's frames and chunk layout (for the transport's chunk steps).
    const RecordingFrames* frames() const { return m_frames; }

    VideoView* videoView() const { return m_video; }
    LatencyChart* latencyChart() const { return m_chart; }
    QualityTrack* qualityTrack() const { return m_track; }

signals:
    void opened(int frame_count);
    void failed(const QString& reason);
    // A chart bar, a quality column or a mark was clicked.
    void chunkClicked(qint64 chunk);

private:
    void showError(const QString& text);
    void onFrame(const lbm::media::DecodedFrame& frame);

    QString m_side_name;
    QString m_error_text;
    std::optional<ComparedSession> m_session;
    int m_frame_count = 0;
    int m_shown_frame = -1;
    RecordingFrames* m_frames = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_prompts = nullptr;
    QLabel* m_error = nullptr;
    VideoView* m_video = nullptr;
    LatencyChart* m_chart = nullptr;
    QualityTrack* m_track = nullptr;
};

} // namespace lbm::ui
