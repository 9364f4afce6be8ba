#pragma once
// Random access to a session's raw recording (the .m4s the recorder appended): the frame at
// any position, decoded from the file on demand instead of kept in memory. Opening makes one
// demux pass that notes where each frame's sample lies and which frames are keyframes;
// frame(n) then reads samples straight from the file and decodes from the keyframe at or
// before n (the server's encoder puts one every 250 frames at most), keeping a small run of
// decoded frames so stepping back and forth costs one decode, not a keyframe interval.
//
// Not thread-safe: one reader per thread (views use it from a worker of their own).

#include "app/media/decoded_frame.h"

#include <QFile>
#include <QString>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

struct AVCodecContext;

namespace lbm::media {

class RecordingReader {
public:
    RecordingReader();
    ~RecordingReader();
    RecordingReader(const RecordingReader&) = delete;
    RecordingReader& operator=(const RecordingReader&) = delete;

    // Indexes path (a complete or partial recording). False with errorString().
    bool open(const QString& path);
    void close();
    bool isOpen() const;
    // Indexes the file again (a recording still growing). Returns the new frame count.
    int refresh();

    int frameCount() const { return static_cast<int>(m_samples.size()); }
    // The frame at index (0-based, stream order); tags carry the global frame number only.
    // nullopt with errorString() when it cannot be read or decoded.
    std::optional<DecodedFrame> frame(int index);
    const QString& errorString() const { return m_error; }
    // Frames decoded by frame() so far (how much work random access cost).
    std::int64_t framesDecoded() const { return m_frames_decoded; }

private:
    struct Sample {
        std::int64_t position = 0;
        int size = 0;
        bool keyframe = false;
    };

    bool index();
    bool decodeThrough(int index);
    int keyframeAtOrBefore(int index) const;

    QString m_path;
    QString m_error;
    std::vector<Sample> m_samples;
    QFile m_file;
    AVCodecContext* m_codec = nullptr; // avcodec_free_context in close()
    // The decoder's position: the last sample sent (-1: flushed, next must be a keyframe).
    int m_last_sent = -1;
    // Recently decoded frames (index, frame), oldest first.
    std::deque<std::pair<int, DecodedFrame>> m_recent;
    std::int64_t m_frames_decoded = 0;
};

} // namespace lbm::media
