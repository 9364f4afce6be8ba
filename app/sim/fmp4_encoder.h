#pragma once
// Encodes frames into the exact fragmented-MP4 byte stream the LingBot-World server sends:
// libx264 (crf 18, ultrafast, zerolatency, no B-frames, yuv420p) muxed by libavformat's
// mov muxer into memory with movflags=+frag_every_frame+empty_moov+default_base_moof.
//
// encode() returns what the muxer wrote since the previous call. Because the mov muxer
// closes a frame's fragment only when the next frame arrives, the output lags one frame:
// the first call returns the init segment (ftyp + moov) and no fragment, each later call
// returns the previous frame's moof + mdat, and finish() returns the last frame plus mfra.

#include <QByteArray>
#include <QImage>

#include <memory>
#include <stdexcept>

namespace lbm::sim {

// Thrown when FFmpeg refuses a step; what() names the step and FFmpeg's reason.
class Fmp4EncoderError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Fmp4Encoder {
public:
    // threads is libx264's thread count; 1 keeps one session on one core.
    Fmp4Encoder(int width, int height, int fps, int threads = 1);
    ~Fmp4Encoder();
    Fmp4Encoder(const Fmp4Encoder&) = delete;
    Fmp4Encoder& operator=(const Fmp4Encoder&) = delete;

    // Encodes one frame (scaled to the encoder's size if it differs) and returns the muxer's
    // output since the last call. Throws Fmp4EncoderError; not callable after finish().
    QByteArray encode(const QImage& frame);
    // Flushes the encoder and writes the trailer; returns the tail bytes. Once only.
    QByteArray finish();

    int width() const { return m_width; }
    int height() const { return m_height; }
    int fps() const { return m_fps; }
    qint64 framesEncoded() const { return m_frames_encoded; }

private:
    struct State;
    void drainPackets();
    QByteArray takeOutput();

    int m_width;
    int m_height;
    int m_fps;
    qint64 m_frames_encoded = 0;
    bool m_finished = false;
    std::unique_ptr<State> m_state;
};

} // namespace lbm::sim
