#include "app/engine/session_engine.h"

#include "app/engine/first_frame.h"
#include "app/engine/in_process_simulator.h"
#include "app/engine/session_document_builder.h"
#include "app/media/recorder.h"
#include "app/media/stream_decoder.h"
#include "app/quality/quality_worker.h"
#include "app/session/session_client.h"
#include "app/sim/fault_spec.h"
#include "metrics/metric_error.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QMetaMethod>
#include <QTimer>

#include <algorithm>

namespace lbm::engine {
int pictureQueueFrames(int start_buffer_chunks, int frames_per_chunk) {
    return (std::max(1, start_buffer_chunks) + 2) * std::max(1, frames_per_chunk);
}

SessionEngine::SessionEngine(QObject* parent)
    : QObject(parent)
    , m_metrics(std::make_unique<LiveSessionMetrics>(MetricsOptions{})) {
    qRegisterMetaType<lbm::ChunkRecord>();
    quality::registerQualityMetaTypes();
}

SessionEngine::~SessionEngine() {
    resetSession();
}

void SessionEngine::addFrameConsumer(FrameConsumer consumer) {
    m_frame_consumers.push_back(std::move(consumer));
}

void SessionEngine::resetSession() {
    // Order: the client (no more chunks), then the decoder (joins: a push blocked on a full
    // picture queue returns), then what it fed.
    m_client.reset();
    m_decoder.reset();
    m_quality.reset(); // after the decoder that feeds it; what it had not analysed is dropped
    if (m_pictures) {
        m_pictures->abort(); // a view still holding it sees the end
        m_pictures.reset();
    }
    if (m_recorder) {
        m_recorder->close();
    }
    m_recorder.reset();
}

QUrl SessionEngine::prepareEndpoint(const EngineSettings& settings, QString* error) {
    if (!settings.use_simulator) {
        return settings.session.url;
    }
    if (!m_simulator || m_simulator->profile() != settings.simulator_profile ||
        m_simulator->faults() != settings.simulator_faults ||
        m_simulator->realism() != settings.simulator_realism) {
        m_simulator.reset();
        m_simulator =
            InProcessSimulator::start(settings.simulator_profile, settings.simulator_faults,
                                      settings.session.model, error, settings.simulator_realism);
    }
    return m_simulator ? m_simulator->url() : QUrl();
}

bool SessionEngine::start(const EngineSettings& settings, QString* error) {
    if (running()) {
        *error = tr("A session is already running; stop it first.");
        return false;
    }
    resetSession();
    ++m_session_serial;
    m_settings = settings;
    m_chunk_ids.clear();
    m_frames_announced = 0;
    m_decoder_errors.clear();
    m_recording_error.clear();
    m_first_frame_note.clear();
    m_recording_path.clear();
    m_quality_chunks.clear();
    m_quality_warnings.clear();
    m_quality_done = false;
    m_largest_chunk_frames = 0;
    m_decoding_done = false;
    try {
        m_metrics = std::make_unique<LiveSessionMetrics>(m_settings.metrics);
        const FitResult fit =
            fitSessionStart(m_settings.session.workload, m_settings.session.model);
        if (fit.changed) {
            m_first_frame_note = fit.note;
        }
    } catch (const FirstFrameError& failure) {
        *error = failure.message();
        return false;
    } catch (const MetricError& failure) {
        *error = QString::fromUtf8(failure.what());
        return false;
    }

    if (m_settings.use_simulator) {
        const QString outside = sim::faultOutsideSession(m_settings.simulator_faults,
                                                         m_settings.session.workload.numChunks());
        if (!outside.isEmpty()) {
            *error = outside;
            return false;
        }
    }

    m_url = prepareEndpoint(m_settings, error);
    if (!m_url.isValid()) {
        if (error->isEmpty()) {
            *error = tr("No server URL was given.");
        }
        return false;
    }

    if (!m_settings.recording_path.isEmpty()) {
        m_recorder = std::make_unique<media::Recorder>();
        if (!m_recorder->open(m_settings.recording_path)) {
            *error = m_recorder->errorString();
            m_recorder.reset();
            return false;
        }
        m_recording_path = m_settings.recording_path;
    }
    if (m_settings.present_frames && m_settings.decode) {
        // Sized as chunks land, from their metadata's frame counts.
        m_pictures = std::make_shared<media::BoundedFrameQueue>(
            pictureQueueFrames(m_settings.metrics.playback_buffer_chunks, 1));
    }

    if (m_settings.analyze_quality && m_settings.decode) {
        startQualityAnalysis();
    }

    session::SessionOptions options = m_settings.session;
    options.url = m_url; // the built-in simulator's when use_simulator

    // The client's reports come straight to this engine's handlers on this thread (one hop
    // from the network thread), and leave as the engine's signals to its views.
    session::SessionHandlers handlers;
    handlers.state_changed = [this](session::SessionState state) {
        if (state == session::SessionState::Streaming) {
            m_since_last_chunk.start();
        }
        emit stateChanged(state);
    };
    handlers.video_started = [this](const QString& request_id, double) {
        emit videoStarted(request_id);
    };
    handlers.chunk_received = [this](const session::ChunkEvent& chunk) { onChunk(chunk); };
    handlers.timeline_changed = [this](const session::TimelineEvent& event,
                                       const session::InteractionRecord& record) {
        if (record.transition_chunks) {
            // K as the record keeps it; sent before any chunk can name the prompt.
            m_quality_context.addPrompt(record.event_id, *record.transition_chunks);
        }
        if (record.sent_s) {
            // The network thread's stamp of the send, on the clock chunks arrive on.
            m_quality_context.setCommandSentTime(event.event_id, *record.sent_s);
        }
        emit timelineChanged(event, record);
    };
    handlers.warning = [this](const QString& text) { emit warning(text); };
    handlers.finished = [this](const session::SessionResult& result) { onFinished(result); };
    m_client = std::make_unique<session::SessionClient>(std::move(handlers));
    if (!m_first_frame_note.isEmpty()) {
        // Queued, so a view connected after start() returns still sees it.
        QMetaObject::invokeMethod(
            this, [this, note = m_first_frame_note] { emit warning(note); }, Qt::QueuedConnection);
    }
    m_since_start.start();
    m_client->start(options);
    return true;
}

void SessionEngine::stop() {
    if (m_client) {
        m_client->stop();
    }
}

void SessionEngine::abort(const QString& reason) {
    if (m_client) {
        m_client->abort(reason);
    }
}

void SessionEngine::end(const QString& reason, int stop_wait_ms) {
    // Waits in the event loop for the session's end (or the bound), asleep between events.
    const auto wait = [this](int ms) {
        if (!running()) {
            return;
        }
        QEventLoop loop;
        connect(this, &SessionEngine::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(ms, &loop, &QEventLoop::quit);
        loop.exec();
    };
    if (running() && stop_wait_ms > 0) {
        stop();
        wait(stop_wait_ms);
    }
    if (running()) {
        abort(reason);
        wait(1000); // the network thread reports at once; the bound is for a wedged one
    }
}

QString SessionEngine::sendPrompt(const QString& prompt, int transition_chunks) {
    if (!m_client) {
        return {};
    }
    return m_client->sendPrompt(prompt, transition_chunks);
}

QString SessionEngine::schedulePrompt(qint64 after_chunk, const QString& prompt,
                                      int transition_chunks) {
    if (!m_client) {
        return {};
    }
    const QString id = m_client->schedulePrompt(after_chunk, prompt, transition_chunks);
    emit promptScheduled(id, after_chunk, prompt, transition_chunks);
    return id;
}

QString SessionEngine::sendCameraVelocity(const protocol::CameraSe3& velocity) {
    if (!m_client) {
        return {};
    }
    const QString id = m_client->sendCameraVelocity(velocity);
    // A velocity moves the view, it never snaps; the steering analysis times the picture's
    // response from now.
    // (Its send time comes with the timeline's stamp below: sessionNowS() runs ahead of the
    // session clock by the connection's set-up.)
    m_quality_context.addCameraCommand(
        id, quality::SteeringCommand::fromVelocity(velocity.translation, velocity.rotation));
    return id;
}

session::SessionState SessionEngine::state() const {
    return m_client ? m_client->state() : session::SessionState::Idle;
}

bool SessionEngine::running() const {
    return m_client && !m_client->isFinished();
}

QString SessionEngine::endpointText() const {
    if (m_settings.use_simulator) {
        return tr("simulator (%1) at %2").arg(m_settings.simulator_profile, m_url.toString());
    }
    return m_url.toString();
}

QString SessionEngine::requestId() const {
    return m_client ? m_client->requestId() : QString();
}

const std::optional<session::SessionResult>& SessionEngine::result() const {
    static const std::optional<session::SessionResult> none;
    return m_client ? m_client->result() : none;
}

const session::InteractionTimeline& SessionEngine::timeline() const {
    static const session::InteractionTimeline empty;
    return m_client ? m_client->timeline() : empty;
}

double SessionEngine::sessionNowS() const {
    if (result()) {
        return result()->wall_s;
    }
    // The session clock starts as session.start is sent, moments after start(): close
    // enough for "now" on the simulated playhead.
    return m_since_start.isValid() ? static_cast<double>(m_since_start.nsecsElapsed()) / 1e9 : 0.0;
}

std::optional<double> SessionEngine::secondsSinceLastChunk() const {
    if (!running() || state() != session::SessionState::Streaming ||
        !m_since_last_chunk.isValid()) {
        return std::nullopt;
    }
    return static_cast<double>(m_since_last_chunk.nsecsElapsed()) / 1e9;
}

qint64 SessionEngine::framesDecoded() const {
    return m_decoder ? m_decoder->framesDecoded() : 0;
}

std::map<qint64, qint64> SessionEngine::framesDecodedPerChunk() const {
    return m_decoder ? m_decoder->framesPerChunk() : std::map<qint64, qint64>{};
}

bool SessionEngine::decodingFinished() const {
    // No decoder: nothing arrived (or decoding is off), so nothing is pending.
    return !m_decoder || m_decoding_done;
}

media::DecoderStats SessionEngine::decoderStats() const {
    return m_decoder ? m_decoder->stats() : media::DecoderStats{};
}

qint64 SessionEngine::recordedBytes() const {
    return m_recorder ? m_recorder->bytesWritten() : 0;
}

bool SessionEngine::waitForFinished(int timeout_ms, bool drop_unshown_frames) {
    const QDeadlineTimer deadline(timeout_ms);
    const auto done = [this] { return result() && decodingFinished() && qualityFinished(); };
    while (!done() && !deadline.hasExpired()) {
        QEventLoop loop;
        QTimer tick;
        tick.setSingleShot(true);
        connect(&tick, &QTimer::timeout, &loop, &QEventLoop::quit);
        connect(this, &SessionEngine::finished, &loop, &QEventLoop::quit);
        connect(this, &SessionEngine::decodingDone, &loop, &QEventLoop::quit);
        connect(this, &SessionEngine::qualityDone, &loop, &QEventLoop::quit);
        tick.start(static_cast<int>(std::clamp<qint64>(deadline.remainingTime(), 0, 50)));
        loop.exec();
        // A picture queue nobody takes from (no view listens for framesReady) must not hold
        // the decoder up at the end; a view's frames are its own to take.
        if (result() && m_pictures &&
            (drop_unshown_frames ||
             !isSignalConnected(QMetaMethod::fromSignal(&SessionEngine::framesReady)))) {
            while (m_pictures->tryPop()) {
            }
        }
    }
    return done();
}

void SessionEngine::onChunk(const session::ChunkEvent& chunk) {
    // The recording first: whatever happens next, the bytes are on disk.
    if (m_recorder && m_recorder->isOpen() && !m_recorder->append(chunk.bytes()) &&
        m_recording_error.isEmpty()) {
        m_recording_error = m_recorder->errorString();
        emit recordingFailed(m_recording_error);
    }
    emit payloadLanded(chunk);
    if (m_settings.decode) {
        if (!m_decoder) {
            startDecoder();
        }
        if (chunk.isMedia()) {
            m_largest_chunk_frames = std::max(m_largest_chunk_frames, chunk.numFrames());
            if (m_pictures) {
                m_pictures->setCapacity(pictureQueueFrames(
                    m_settings.metrics.playback_buffer_chunks, m_largest_chunk_frames));
            }
        }
        if (m_quality && chunk.isMedia() && chunk.generationChunkIndex()) {
            // Before its bytes: the analysis reads a chunk's frames knowing what was meant
            // to happen in it (a transition running, the camera moving).
            m_quality->setChunkContext(m_quality_context.build(
                *chunk.generationChunkIndex(), chunk.startedEventIds(), chunk.activeEventIds(),
                chunk.completedEventIds(), chunk.arrivalS()));
        }
        m_decoder->pushChunk(chunk.chunk(), chunk.bytes());
    }
    if (!chunk.isMedia()) {
        emit trailerLanded();
        return;
    }
    m_since_last_chunk.start();
    m_frames_announced += chunk.numFrames();
    const ChunkRecord record = chunk.record();
    m_chunk_ids.push_back(
        {record.index, chunk.startedEventIds(), chunk.activeEventIds(), chunk.completedEventIds()});
    const bool halted_before = m_metrics->simulatorHalted();
    const double stall_ms = m_metrics->addRecord(record);
    if (m_metrics->simulatorHalted() && !halted_before) {
        // A server that repeats or reorders chunk indices (the session then fails on
        // session.done): the simulated viewer stops at the last chunk in order.
        emit warning(tr("Simulated playback stopped: %1")
                         .arg(QString::fromStdString(m_metrics->haltReason())));
    }
    emit chunkLanded(record, stall_ms);
}

void SessionEngine::onFinished(const session::SessionResult& result) {
    if (m_recorder) {
        m_recorder->close();
    }
    if (m_decoder) {
        m_decoder->finish();
    }
    const quint64 session = m_session_serial;
    emit finished(result);
    // A view may start the next session from finished(); what follows is this session's.
    if (session != m_session_serial) {
        return;
    }
    if (!m_decoder) {
        if (m_pictures) {
            m_pictures->close();
            emit framesReady(); // a view sees the end of a stream that never began
        }
        if (m_quality) {
            m_quality->finish();
        }
        emit decodingDone(); // nothing was decoded, so nothing is pending
    }
}

void SessionEngine::startDecoder() {
    // Made with the first bytes: a decoder that never sees one would only complain about a
    // missing moov after a failed connection.
    media::DecoderOptions options;
    options.picture_queue = m_pictures;
    options.queue_frames = m_pictures != nullptr;
    std::vector<FrameConsumer> consumers = m_frame_consumers;
    if (quality::QualityWorker* analysis = m_quality.get()) {
        consumers.emplace_back(
            [analysis](const media::DecodedFrame& frame) { analysis->pushFrame(frame); });
    }
    if (!consumers.empty()) {
        options.frame_observer = [consumers =
                                      std::move(consumers)](const media::DecodedFrame& frame) {
            for (const FrameConsumer& consume : consumers) {
                consume(frame);
            }
        };
    }
    m_decoder = std::make_unique<media::StreamDecoder>(options);
    // The decoder emits on its own thread: these are queued to this one.
    connect(m_decoder.get(), &media::StreamDecoder::errorOccurred, this,
            &SessionEngine::onDecoderError);
    connect(m_decoder.get(), &media::StreamDecoder::framesAvailable, this,
            &SessionEngine::framesReady);
    // An end queued by the last session's decoder must not end this one's decoding.
    connect(m_decoder.get(), &media::StreamDecoder::ended, this,
            [this, serial = ++m_decoder_serial] {
                if (serial == m_decoder_serial && !m_decoding_done) {
                    onDecoderEnded();
                }
            });
}

void SessionEngine::onDecoderEnded() {
    m_decoding_done = true;
    if (m_quality) {
        m_quality->finish(); // the last frame is in: the last chunks become final
    }
    if (m_pictures) {
        emit framesReady(); // the queue closed
    }
    emit decodingDone();
}

void SessionEngine::startQualityAnalysis() {
    m_quality_context = quality::ChunkContextBuilder(m_settings.session.workload);
    m_quality = std::make_unique<quality::QualityWorker>(m_settings.quality);
    // The worker emits on its own thread: queued to this one, which takes the results.
    connect(m_quality.get(), &quality::QualityWorker::chunksReady, this,
            &SessionEngine::takeQualityResults, Qt::QueuedConnection);
    connect(
        m_quality.get(), &quality::QualityWorker::warning, this,
        [this](const QString& text) {
            m_quality_warnings.append(text);
            emit warning(tr("Visual quality analysis: %1").arg(text));
        },
        Qt::QueuedConnection);
    connect(
        m_quality.get(), &quality::QualityWorker::finished, this,
        [this] {
            takeQualityResults(); // in order already; taken here too so none can trail
            m_quality_done = true;
            emit qualityDone();
        },
        Qt::QueuedConnection);
}

void SessionEngine::takeQualityResults() {
    if (!m_quality) {
        return;
    }
    for (const quality::ChunkQuality& chunk : m_quality->takeReadyChunks()) {
        onChunkQuality(chunk);
    }
}

void SessionEngine::onChunkQuality(const quality::ChunkQuality& chunk) {
    // Kept in generation order: a chunk can wait for the one after it (a transition's verdict).
    const auto at = std::upper_bound(
        m_quality_chunks.begin(), m_quality_chunks.end(), chunk,
        [](const auto& a, const auto& b) { return a.generation_index < b.generation_index; });
    // Without the per-frame signals: documents leave them out, and the views read the signal.
    quality::ChunkQuality kept = chunk;
    kept.dropFrameSignals();
    m_quality_chunks.insert(at, std::move(kept));
    emit chunkQualityReady(chunk);
}

void SessionEngine::onDecoderError(const QString& text) {
    m_decoder_errors.append(text);
    // Once the session has failed, the decoder's complaint about the stream ending early is
    // a consequence of that failure; raised after it, it would replace the root cause.
    if (result() && !result()->ok) {
        return;
    }
    emit decoderProblem(text);
}

} // namespace lbm::engine
