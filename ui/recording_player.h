#pragma once
// Plays a session's recording after the session the way a player does: Space plays and
// pauses at the target fps, a frame or a whole chunk at a time forward and back, Home and
// End, a click on a mark or a chart bar seeks there. Frames come from the recording on disk
// (RecordingFrames) and go to the video view; the scrub bar follows.

#include "app/media/decoded_frame.h"
#include "metrics/chunk_record.h"
#include "ui/frame_transport.h"
#include "ui/scrub_bar.h"

#include <QJsonArray>
#include <QKeyEvent>
#include <QObject>

#include <optional>
#include <vector>

namespace lbm::ui {

class RecordingFrames;
class VideoView;

// A mark to place on the scrub bar at a chunk's first frame.
struct ChunkMark {
    qint64 chunk = 0;
    ScrubMark::Kind kind = ScrubMark::Kind::Event;
    QString tooltip;
    QColor color{};          // ScrubMark::color; a Flag spans its chunk's frames
    QList<QColor> stripes{}; // ScrubMark::stripes
};

class RecordingPlayer : public QObject {
    Q_OBJECT
public:
    // The marks a session document's interaction timeline ("interactions") puts on the bar.
    static QList<ChunkMark> marksFromInteractions(const QJsonArray& interactions);

    RecordingPlayer(ScrubBar* bar, VideoView* view, QObject* parent = nullptr);

    // Opens path; chunks give each chunk's frame count (their metadata); the bar shows from
    // its last frame. Asynchronous: opened() or failed() follows.
    void open(const QString& path, const std::vector<lbm::ChunkRecord>& chunks,
              const QList<ChunkMark>& marks, double fps);
    void close();
    bool isOpen() const;
    // Replaces the marks open() was given (the quality flags once the analysis finished);
    // the chunk starts stay.
    void setMarks(const QList<ChunkMark>& marks);
    int frameCount() const;

    // Play, pause, steps and keys: the shared frame-player transport.
    FrameTransport* transport() { return &m_transport; }
    void togglePlay() { m_transport.togglePlay(); }
    bool isPlaying() const { return m_transport.isPlaying(); }
    void step(int frames) { m_transport.step(frames); }
    void seekFrame(int frame) { m_transport.seekFrame(frame); }
    // To the first frame of the chunk whose index (in the session) is chunk.
    void seekChunk(qint64 chunk);
    int position() const { return m_transport.position(); }
    // The player's keys while a recording is open: Left/Right a frame, Shift a chunk,
    // Home/End. True when key was one of them.
    bool handleKey(const QKeyEvent* key) { return m_transport.handleKey(key); }

signals:
    void opened(int frame_count);
    void failed(const QString& reason);
    void frameShown(const lbm::media::DecodedFrame& frame);

private:
    void show(const lbm::media::DecodedFrame& frame);
    void onOpened(int count);
    QList<ScrubMark> placedMarks(int frame_count) const;

    ScrubBar* m_bar;
    VideoView* m_view;
    RecordingFrames* m_frames;
    FrameTransport m_transport;
    QList<ChunkMark> m_pending_marks;
    std::vector<lbm::ChunkRecord> m_chunks;
};

} // namespace lbm::ui
