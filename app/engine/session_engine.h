#pragma once
// The one engine every session runs on: the window, `bench`, the tests and the benchmarks
// start sessions here and nobody wires the parts again. It owns the session client (network
// thread), the built-in simulator (its own thread) when asked for, the raw recorder, the
// decoder (its own thread) and the picture queue it fills for a view, and the live metrics;
// it feeds each chunk to
// them in one order (recording first, so the bytes are on disk whatever happens next) and
// tells its views what changed. Qt Core only: views (widgets, a terminal) read it.
//
// An engine runs one session at a time and may run several in turn (`bench --sessions`);
// the built-in simulator stays up between them. Signals come on the thread the engine
// lives on. Frame consumers run on the decoder thread.

#include "app/engine/engine_settings.h"
#include "app/media/bounded_frame_queue.h"
#include "app/media/decoded_frame.h"
#include "app/media/decoder_stats.h"
#include "app/protocol/camera_se3.h"
#include "app/quality/chunk_context_builder.h"
#include "app/quality/chunk_quality.h"
#include "app/session/chunk_event.h"
#include "app/session/interaction_timeline.h"
#include "app/session/session_result.h"
#include "app/session/session_state.h"
#include "metrics/live_session_metrics.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace lbm::media {
class Recorder;
class StreamDecoder;
} // namespace lbm::media

namespace lbm::quality {
class QualityWorker;
}

namespace lbm::session {
class SessionClient;
}

namespace lbm::engine {

class InProcessSimulator;

// Sees every decoded frame on the decoder thread, in stream order; must hand work on rather
// than do it (it holds up decoding).
using FrameConsumer = std::function<void(const media::DecodedFrame& frame)>;

// The picture queue's size for a start buffer of start_buffer_chunks and chunks of up to
// frames_per_chunk frames (their metadata): the buffer, the chunk whose last frame comes with
// the next one, and one more. Beyond it the decoder waits, holding compressed bytes.
int pictureQueueFrames(int start_buffer_chunks, int frames_per_chunk);

// A media chunk's interaction ids, kept after its bytes are gone (for the CSV and views).
struct ChunkInteractionIds {
    qint64 index = 0;
    QStringList started;
    QStringList active;
    QStringList completed;
};

class SessionEngine : public QObject {
    Q_OBJECT
public:
    explicit SessionEngine(QObject* parent = nullptr);
    // Aborts a running session and joins every thread it started.
    ~SessionEngine() override;

    // Consumers of every decoded frame, called on the decoder thread for the next sessions.
    void addFrameConsumer(FrameConsumer consumer);

    // Brings the endpoint up without starting a session: the built-in simulator when the
    // settings ask for it (kept up for the next sessions while the profile and faults stay).
    // Returns the URL a session would use, or an invalid QUrl with *error.
    QUrl prepareEndpoint(const EngineSettings& settings, QString* error);
    // Starts a session: the simulator (when asked, and not already up with the same
    // profile), the recording, the client. False with *error when the settings, the
    // simulator, the first frame or the recording refuse; nothing is then running.
    bool start(const EngineSettings& settings, QString* error);
    // session.stop; the server answers session.done {stopped: true}.
    void stop();
    // Closes the connection now; finished() reports reason.
    void abort(const QString& reason);
    // Ends a running session before returning (running the event loop meanwhile): asks with
    // session.stop and waits up to stop_wait_ms for session.done when stop_wait_ms > 0, then
    // closes with reason. For quitting: whatever arrived is then final.
    void end(const QString& reason, int stop_wait_ms);

    // Interactions; each returns the fresh event id it is tracked by on the timeline.
    QString sendPrompt(const QString& prompt, int transition_chunks);
    // Sent right after chunk after_chunk lands (at once if it has): the session's one prompt
    // scheduler, shared with the workload's prompt_updates.
    QString schedulePrompt(qint64 after_chunk, const QString& prompt, int transition_chunks);
    QString sendCameraVelocity(const protocol::CameraSe3& velocity);

    bool hasSession() const { return m_client != nullptr; }
    bool running() const;
    // The client's state (the one copy on this thread); Idle before the first session.
    session::SessionState state() const;
    const EngineSettings& settings() const { return m_settings; }
    // The endpoint actually used (the simulator's URL when it is the simulator).
    QUrl url() const { return m_url; }
    // "simulator (fast) at ws://127.0.0.1:P/v1/realtime/video" or the URL.
    QString endpointText() const;
    QString requestId() const;
    // The client's (the one copy); empty before the session ended and before the first.
    const std::optional<session::SessionResult>& result() const;
    const session::InteractionTimeline& timeline() const;
    // Seconds on the session clock now; frozen at the session's wall time once it ended.
    double sessionNowS() const;
    // Seconds since the last media chunk landed (or since session.start before the first);
    // nullopt when no session is streaming.
    std::optional<double> secondsSinceLastChunk() const;

    // Live metrics over the chunks so far: what every view shows.
    const LiveSessionMetrics& liveMetrics() const { return *m_metrics; }
    // The chunks' interaction ids in arrival order.
    const std::vector<ChunkInteractionIds>& chunkIds() const { return m_chunk_ids; }
    qint64 framesAnnounced() const { return m_frames_announced; }
    qint64 framesDecoded() const;
    std::map<qint64, qint64> framesDecodedPerChunk() const;
    bool decodingFinished() const;
    QStringList decoderErrors() const { return m_decoder_errors; }
    media::DecoderStats decoderStats() const;
    QString recordingPath() const { return m_recording_path; }
    // The recording's folder was renamed while it is being written (the open file goes on):
    // from now on it is found at path.
    void relocateRecording(const QString& path) { m_recording_path = path; }
    qint64 recordedBytes() const;
    // The first problem the recording had (disk full, ...); the session went on without it.
    QString recordingError() const { return m_recording_error; }
    // What was done to fit the first frame into session.start; empty when nothing was.
    QString firstFrameNote() const { return m_first_frame_note; }

    // The visual quality analysis (EngineSettings::analyze_quality): every chunk whose result
    // is final, in generation order; complete once qualityFinished().
    // Without per-frame signals (chunkQualityReady carries them).
    const std::vector<quality::ChunkQuality>& qualityChunks() const { return m_quality_chunks; }
    bool analyzingQuality() const { return m_quality != nullptr; }
    bool qualityFinished() const { return !m_quality || m_quality_done; }
    QStringList qualityWarnings() const { return m_quality_warnings; }

    // The frames waiting for a view (EngineSettings::present_frames), filled by the decoder
    // thread, closed at the end of the stream; null without a view. One per session: a view
    // keeps the last one for as long as it shows its frames.
    std::shared_ptr<media::BoundedFrameQueue> pictureQueue() const { return m_pictures; }

    // Waits (running the event loop) until the session, its decoding and its quality
    // analysis finished, or timeout_ms passed; for `bench` and tests. True when all did.
    // With drop_unshown_frames, frames still waiting for the screen are dropped once the
    // session has ended, so a paused or slow view cannot hold the decoder (and the analysis
    // it feeds) up: for a window about to start the next session.
    bool waitForFinished(int timeout_ms, bool drop_unshown_frames = false);

signals:
    void stateChanged(lbm::session::SessionState state);
    void videoStarted(const QString& request_id);
    // A media chunk landed and was recorded, decoded and measured; stall_ms > 0 when the
    // benchmark's simulated viewer ran dry waiting for it.
    void chunkLanded(const lbm::ChunkRecord& record, double simulated_stall_ms);
    void trailerLanded();
    // Every payload (a media chunk or the trailer), its metadata and its bytes, right after
    // the recording took it: for republishing the stream as it arrived (the broadcast).
    void payloadLanded(const lbm::session::ChunkEvent& chunk);
    void timelineChanged(const lbm::session::TimelineEvent& event,
                         const lbm::session::InteractionRecord& record);
    void promptScheduled(const QString& event_id, qint64 after_chunk, const QString& prompt,
                         int transition_chunks);
    // Things that did not end the session but deserve a line: the client's warnings (an
    // unknown message type, an insecure connection, what was done to fit the first frame),
    // a decoding problem (not raised once the session failed: it would only repeat the
    // cause), the recording stopping (disk full; the session goes on).
    void warning(const QString& text);
    void decoderProblem(const QString& text);
    void recordingFailed(const QString& text);
    void finished(const lbm::session::SessionResult& result);
    // The picture queue changed in a way a view decides on: frames came after it was empty,
    // a chunk's first or last frame came, or it closed (at most a few times per chunk).
    void framesReady();
    // Every decoded frame was handed on (after finished(), or after the stream ended).
    void decodingDone();
    // A chunk's visual quality result is final (generation order is not guaranteed across
    // chunks that wait for a later one).
    void chunkQualityReady(const lbm::quality::ChunkQuality& chunk);
    // The analysis saw the last frame: qualityChunks() is complete.
    void qualityDone();

private:
    void resetSession();

    void onChunk(const session::ChunkEvent& chunk);
    void onFinished(const session::SessionResult& result);
    void onDecoderError(const QString& text);
    void startDecoder();
    void onDecoderEnded();
    void startQualityAnalysis();
    void takeQualityResults();
    void onChunkQuality(const quality::ChunkQuality& chunk);

    EngineSettings m_settings;
    std::vector<FrameConsumer> m_frame_consumers;
    std::unique_ptr<InProcessSimulator> m_simulator;
    std::unique_ptr<session::SessionClient> m_client;
    std::unique_ptr<media::Recorder> m_recorder;
    std::unique_ptr<media::StreamDecoder> m_decoder;
    std::shared_ptr<media::BoundedFrameQueue> m_pictures;
    std::unique_ptr<quality::QualityWorker> m_quality;
    int m_largest_chunk_frames = 0;
    bool m_decoding_done = false;
    quint64 m_decoder_serial = 0; // which decoder's end is this session's
    quint64 m_session_serial = 0; // counts start()s, so a handler knows its session ended
    std::unique_ptr<LiveSessionMetrics> m_metrics;
    QUrl m_url;
    std::vector<ChunkInteractionIds> m_chunk_ids;
    qint64 m_frames_announced = 0;
    QStringList m_decoder_errors;
    QString m_recording_path;
    QString m_recording_error;
    QString m_first_frame_note;
    quality::ChunkContextBuilder m_quality_context; // engine thread only
    std::vector<quality::ChunkQuality> m_quality_chunks;
    QStringList m_quality_warnings;
    bool m_quality_done = false;
    QElapsedTimer m_since_start;      // approximates the session clock (started with it)
    QElapsedTimer m_since_last_chunk; // restarted as each media chunk lands
};

} // namespace lbm::engine
