#include "app/engine/session_engine.h"

#include "app/engine/first_frame.h"
#include "app/engine/in_process_simulator.h"
#include "app/engine/session_document_builder.h"
#include "app/media/recorder.h"
#include "app/media/stream_decoder.h"
#include "app/quality/quality_worker.h"
#include "app/session/session_client.h"
#include "metrics/metric_error.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QMetaMethod>
#include <QTimer>

#include <algorithm>

namespace lbm::engine {
namespace {

// Decoded frames the decoder may hold ahead of the pump. Small: frames waiting for a view
// wait in the presentation queue, and bytes beyond that wait compressed.
constexpr int kDecoderQueueFrames = 4;

} // namespace

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
    // Order: the client (no more chunks), then the decoder (the pump's wait returns), then
    // the pump (joins), then what they fed.
    m_client.reset();
    if (m_decoder) {
        m_decoder->abort();
    }
    m_pump.reset();
    m_quality.reset(); // after the pump that feeds it; what it had not analysed is dropped
    m_decoder.reset();
    m_presentation.reset();
    if (m_recorder) {
        m_recorder->close();
    }
    m_recorder.reset();
}

QUrl SessionEngine::prepareEndpoint(const EngineSettings& settings, QString* error) {
    if (!settings.use_simulator) {
        return settings.url;
    }
    if (!m_simulator || m_simulator->profile() != settings.simulator_profile ||
        m_simulator->faults() != settings.simulator_faults ||
        m_simulator->realism() != settings.simulator_realism) {
        m_simulator.reset();
        m_simulator =
            InProcessSimulator::start(settings.simulator_profile, settings.simulator_faults,
                                      settings.model, error, settings.simulator_realism);
    }
    return m_simulator ? m_simulator->url() : QUrl();
}

bool SessionEngine::start(const EngineSettings& settings, QString* error) {
    if (running()) {
        *error = tr("A session is already running; stop it first.");
        return false;
    }
    resetSession();
    m_settings = settings;
    m_result.reset();
    m_chunk_ids.clear();
    m_frames_announced = 0;
    m_decoder_errors.clear();
    m_recording_error.clear();
    m_first_frame_note.clear();
    m_recording_path.clear();
    m_quality_chunks.clear();
    m_quality_warnings.clear();
    m_quality_done = false;
    m_state = session::SessionState::Idle;
    try {
        m_metrics = std::make_unique<LiveSessionMetrics>(metricsOptionsFor(settings));
        const FitResult fit = fitSessionStart(m_settings.workload, m_settings.model);
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
    if (m_settings.presentation_capacity > 0) {
        m_presentation = std::make_unique<media::BoundedFrameQueue>(
            std::max(2, m_settings.presentation_capacity));
    }

    if (m_settings.analyze_quality && m_settings.decode) {
        startQualityAnalysis();
    }

    session::SessionOptions options;
    options.url = m_url;
    options.model = m_settings.model;
    options.workload = m_settings.workload;
    options.ping_interval_s = m_settings.ping_interval_s;
    options.first_chunk_timeout_s = m_settings.first_chunk_timeout_s;
    options.chunk_timeout_s = m_settings.chunk_timeout_s;
    options.connect_timeout_s = m_settings.connect_timeout_s;
    options.insecure = m_settings.insecure;

    m_client = std::make_unique<session::SessionClient>();
    connect(m_client.get(), &session::SessionClient::stateChanged, this,
            [this](session::SessionState state) {
                m_state = state;
                if (state == session::SessionState::Streaming) {
                    m_since_last_chunk.start();
                }
                emit stateChanged(state);
            });
    connect(m_client.get(), &session::SessionClient::videoStarted, this,
            [this](const QString& request_id) { emit videoStarted(request_id); });
    connect(m_client.get(), &session::SessionClient::chunkReceived, this, &SessionEngine::onChunk);
    connect(m_client.get(), &session::SessionClient::timelineChanged, this,
            [this](const session::TimelineEvent& event) {
                const auto* record = m_client->timeline().find(event.event_id);
                emit timelineChanged(event, record ? *record : session::InteractionRecord{});
            });
    connect(m_client.get(), &session::SessionClient::warning, this, &SessionEngine::warning);
    connect(m_client.get(), &session::SessionClient::finished, this, &SessionEngine::onFinished);
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
    const auto wait = [this](int ms) {
        QDeadlineTimer deadline(ms);
        while (running() && !deadline.hasExpired()) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        }
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
    const QString id = m_client->sendPrompt(prompt, transition_chunks);
    m_quality_context.addPrompt(id, transition_chunks);
    return id;
}

QString SessionEngine::schedulePrompt(qint64 after_chunk, const QString& prompt,
                                      int transition_chunks) {
    if (!m_client) {
        return {};
    }
    const QString id = m_client->schedulePrompt(after_chunk, prompt, transition_chunks);
    m_quality_context.addPrompt(id, transition_chunks);
    emit promptScheduled(id, after_chunk, prompt, transition_chunks);
    return id;
}

QString SessionEngine::sendCameraVelocity(const protocol::CameraSe3& velocity) {
    if (!m_client) {
        return {};
    }
    const QString id = m_client->sendCameraVelocity(velocity);
    m_quality_context.addCameraMove(id, false); // a velocity moves the view, it never snaps
    return id;
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

const session::InteractionTimeline& SessionEngine::timeline() const {
    static const session::InteractionTimeline empty;
    return m_client ? m_client->timeline() : empty;
}

double SessionEngine::sessionNowS() const {
    if (m_result) {
        return m_result->wall_s;
    }
    // The session clock starts as session.start is sent, moments after start(): close
    // enough for "now" on the simulated playhead.
    return m_since_start.isValid() ? static_cast<double>(m_since_start.nsecsElapsed()) / 1e9 : 0.0;
}

std::optional<double> SessionEngine::secondsSinceLastChunk() const {
    if (!running() || m_state != session::SessionState::Streaming ||
        !m_since_last_chunk.isValid()) {
        return std::nullopt;
    }
    return static_cast<double>(m_since_last_chunk.nsecsElapsed()) / 1e9;
}

qint64 SessionEngine::framesDecoded() const {
    return m_pump ? m_pump->framesPumped() : 0;
}

std::map<qint64, qint64> SessionEngine::framesDecodedPerChunk() const {
    return m_pump ? m_pump->framesPerChunk() : std::map<qint64, qint64>{};
}

bool SessionEngine::decodingFinished() const {
    // No decoder: nothing arrived (or decoding is off), so nothing is pending.
    return !m_pump || m_pump->finished();
}

media::DecoderStats SessionEngine::decoderStats() const {
    return m_decoder ? m_decoder->stats() : media::DecoderStats{};
}

qint64 SessionEngine::recordedBytes() const {
    return m_recorder ? m_recorder->bytesWritten() : 0;
}

std::optional<media::DecodedFrame> SessionEngine::takeFrame() {
    return m_presentation ? m_presentation->tryPop() : std::nullopt;
}

bool SessionEngine::presentationDrained() const {
    return !m_presentation || m_presentation->isDrained();
}

bool SessionEngine::waitForFinished(int timeout_ms) {
    const QDeadlineTimer deadline(timeout_ms);
    const auto done = [this] { return m_result && decodingFinished() && qualityFinished(); };
    while (!done() && !deadline.hasExpired()) {
        QEventLoop loop;
        QTimer tick;
        tick.setSingleShot(true);
        connect(&tick, &QTimer::timeout, &loop, &QEventLoop::quit);
        connect(this, &SessionEngine::finished, &loop, &QEventLoop::quit);
        connect(this, &SessionEngine::decodingDone, &loop, &QEventLoop::quit);
        connect(this, &SessionEngine::qualityDone, &loop, &QEventLoop::quit);
        tick.start(std::clamp<qint64>(deadline.remainingTime(), 0, 50));
        loop.exec();
        // A presentation queue nobody takes from (no view listens for framesReady) must not
        // hold the decoder up at the end; a view's frames are its own to take.
        if (m_result && m_presentation &&
            !isSignalConnected(QMetaMethod::fromSignal(&SessionEngine::framesReady))) {
            while (m_presentation->tryPop()) {
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
            // Made with the first bytes: a decoder that never sees one would only complain
            // about a missing moov after a failed connection.
            media::DecoderOptions options;
            options.frame_queue_capacity = kDecoderQueueFrames;
            m_decoder = std::make_unique<media::StreamDecoder>(options);
            connect(m_decoder.get(), &media::StreamDecoder::errorOccurred, this,
                    &SessionEngine::onDecoderError);
            FramePump::Hooks hooks;
            hooks.presentation_ready = [this] {
                QMetaObject::invokeMethod(this, &SessionEngine::framesReady, Qt::QueuedConnection);
            };
            quality::QualityWorker* analysis = m_quality.get();
            hooks.finished = [this, analysis] {
                if (analysis) {
                    analysis->finish(); // the last frame is in: the last chunks become final
                }
                QMetaObject::invokeMethod(this, &SessionEngine::decodingDone, Qt::QueuedConnection);
            };
            std::vector<FrameConsumer> consumers = m_frame_consumers;
            if (analysis) {
                consumers.emplace_back(
                    [analysis](const media::DecodedFrame& frame) { analysis->pushFrame(frame); });
            }
            m_pump = std::make_unique<FramePump>(*m_decoder, std::move(consumers),
                                                 m_presentation.get(), std::move(hooks));
        }
        media::ChunkInfo info;
        info.transport_index = chunk.transportChunkIndex();
        info.generation_index = chunk.generationChunkIndex();
        info.num_frames = chunk.numFrames();
        info.kind = chunk.isTrailer() ? media::ChunkKind::Trailer : media::ChunkKind::Media;
        if (m_quality && chunk.isMedia() && chunk.generationChunkIndex()) {
            // Before its bytes: the analysis reads a chunk's frames knowing what was meant
            // to happen in it (a transition running, the camera moving).
            m_quality->setChunkContext(
                m_quality_context.build(*chunk.generationChunkIndex(), chunk.startedEventIds(),
                                        chunk.activeEventIds(), chunk.completedEventIds()));
        }
        m_decoder->pushChunk(info, chunk.bytes());
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
    m_result = result;
    m_state = session::SessionState::Finished;
    if (m_recorder) {
        m_recorder->close();
    }
    if (m_decoder) {
        m_decoder->finish();
    }
    emit finished(result);
    if (!m_pump) {
        if (m_quality) {
            m_quality->finish();
        }
        emit decodingDone(); // nothing was decoded, so nothing is pending
    }
}

void SessionEngine::startQualityAnalysis() {
    m_quality_context = quality::ChunkContextBuilder(m_settings.workload);
    m_quality = std::make_unique<quality::QualityWorker>(m_settings.quality);
    // The worker emits on its own thread: queued to this one.
    connect(m_quality.get(), &quality::QualityWorker::chunkAnalyzed, this,
            &SessionEngine::onChunkQuality, Qt::QueuedConnection);
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
            m_quality_done = true;
            emit qualityDone();
        },
        Qt::QueuedConnection);
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
    if (m_result && !m_result->ok) {
        return;
    }
    emit decoderProblem(text);
}

} // namespace lbm::engine
