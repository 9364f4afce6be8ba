#pragma once
// The recording as a source of frames for scrubbing and playback after a session: frame n is
// decoded from the raw recording on disk (media::RecordingReader) on a thread of its own, so
// nothing of the session's video is kept in memory and the GUI thread never decodes. Requests
// coalesce: while one frame decodes, only the newest request waits.

#include "app/media/decoded_frame.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace lbm::ui {

class RecordingFrames : public QObject {
    Q_OBJECT
public:
    explicit RecordingFrames(QObject* parent = nullptr);
    ~RecordingFrames() override;

    // Opens path; chunk_frames[i] is how many frames chunk i holds (its metadata), which
    // places each frame in its chunk. Asynchronous: opened() or failed() follows.
    void open(const QString& path, const std::vector<int>& chunk_frames);
    void close();
    bool isOpen() const { return m_frame_count > 0; }
    int frameCount() const { return m_frame_count; }
    // Frame index -> (chunk, index in chunk), from the chunk layout.
    std::pair<qint64, int> chunkOf(int frame) const;
    // Where frame belongs, as the decoder tags a live frame: its number, its chunk's identity
    // (generation index = transport index in a recording) and its place in that chunk.
    lbm::media::FrameTag tagOf(int frame) const;
    // The first frame of chunk (or -1).
    int firstFrameOfChunk(qint64 chunk) const;
    // Where a step of one chunk from frame lands (direction +1 or -1), the rule of both players'
    // chunk keys: the next chunk's first frame or, going back from inside a chunk, this
    // chunk's first; nothing past either end.
    std::optional<int> chunkStepTarget(int frame, int direction) const;

    void request(int frame);

signals:
    void opened(int frame_count);
    void failed(const QString& reason);
    void frameReady(const lbm::media::DecodedFrame& frame);

private:
    class Worker;
    std::unique_ptr<Worker> m_worker;
    std::vector<int> m_chunk_starts; // frame index where each chunk begins
    std::vector<int> m_chunk_frames; // how many frames each chunk holds
    int m_frame_count = 0;
};

} // namespace lbm::ui
