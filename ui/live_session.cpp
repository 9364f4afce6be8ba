#include "ui/live_session.h"

#include "app/media/stream_decoder.h"
#include "app/engine/first_frame.h"
#include "app/sim/simulator_server.h"

#include <QDateTime>
#include <QDir>

#include <exception>

namespace lbm::ui {

namespace {

// Frames decoded ahead of the screen are held by the clock; beyond this the decoder waits
// (its bounded queue), so a session arriving faster than real time costs bounded memory.
constexpr int kMaxFramesAhead = 48;

} // namespace

LiveSession::LiveSession(lbm::playback::PlaybackClock* clock, QObject* parent)
    : QObject(parent)
    , m_clock(clock) {
    if (m_clock) {
        connect(m_clock, &lbm::playback::PlaybackClock::framePresented, this,
                &LiveSession::drainFrames);
    }
}

LiveSession::~LiveSession() {
    if (m_decoder) {
        m_decoder->abort();
    }
    m_client.reset();
}

bool LiveSession::start(const LiveSessionSettings& settings, QString* error) {
    m_settings = settings;
    try {
        m_simulator = std::make_unique<lbm::LivePlaybackSimulator>(settings.target_fps,
                                                                   settings.start_buffer_chunks);
    } catch (const std::exception& e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    lbm::session::SessionOptions options;
    options.model = settings.model;
    options.workload = settings.workload;
    options.ping_interval_s = settings.ping_interval_s;
    options.first_chunk_timeout_s = settings.first_chunk_timeout_s;
    options.chunk_timeout_s = settings.chunk_timeout_s;
    options.connect_timeout_s = settings.connect_timeout_s;
    options.insecure = settings.insecure;
    try {
        const auto fit = lbm::engine::fitSessionStart(options.workload, settings.model);
        if (fit.changed) {
            emit problem(fit.note);
        }
    } catch (const std::exception& e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    if (settings.use_simulator) {
        lbm::sim::SimulatorConfig config;
        config.profile = settings.simulator_profile;
        config.model = settings.model;
        auto* server = new lbm::sim::SimulatorServer(config, this);
        m_server = server;
        if (!server->listen(QHostAddress::LocalHost, 0)) {
            *error = tr("The built-in simulator could not listen on 127.0.0.1. Close other "
                        "instances or choose Server URL.");
            return false;
        }
        options.url = server->url();
    } else {
        options.url = settings.url;
    }
    m_settings.url = options.url;

    if (!m_recording_dir.isValid()) {
        *error = tr("Cannot create a temporary folder for the recording: %1")
                     .arg(m_recording_dir.errorString());
        return false;
    }
    if (!m_recorder.open(m_recording_dir.filePath(QStringLiteral("session.m4s")))) {
        *error = m_recorder.errorString();
        return false;
    }

    lbm::media::DecoderOptions decoder_options;
    decoder_options.convert_to_image = true;
    decoder_options.frame_queue_capacity = 32;
    m_decoder = std::make_unique<lbm::media::StreamDecoder>(decoder_options);
    connect(m_decoder.get(), &lbm::media::StreamDecoder::framesAvailable, this,
            &LiveSession::drainFrames);
    connect(m_decoder.get(), &lbm::media::StreamDecoder::errorOccurred, this,
            [this](const QString& text) {
                // Once the session has failed, the decoder's complaint about the stream
                // ending early (often "after 0 bytes") is a consequence of that failure;
                // raised after it, it would replace the root cause the user must act on.
                if (m_result && !m_result->ok) {
                    return;
                }
                emit problem(text);
            });
    connect(m_decoder.get(), &lbm::media::StreamDecoder::ended, this, [this] { drainFrames(); });

    if (m_clock) {
        m_clock->setTargetFps(settings.target_fps);
        m_clock->setStartBufferChunks(settings.start_buffer_chunks);
        m_clock->reset();
    }
    m_frames_expected = 0;
    m_frames_decoded = 0;
    m_simulator_halted = false;
    m_media_bytes = 0;

    m_client = std::make_unique<lbm::session::SessionClient>();
    connect(m_client.get(), &lbm::session::SessionClient::stateChanged, this,
            [this](lbm::session::SessionState state) {
                m_state = state;
                emit stateChanged(state);
            });
    connect(m_client.get(), &lbm::session::SessionClient::chunkReceived, this,
            &LiveSession::onChunk);
    connect(m_client.get(), &lbm::session::SessionClient::timelineChanged, this,
            [this](const lbm::session::TimelineEvent& event) {
                const auto* record = m_client->timeline().find(event.event_id);
                emit timelineChanged(event, record ? *record : lbm::session::InteractionRecord{},
                                     static_cast<int>(m_records.size()));
            });
    connect(m_client.get(), &lbm::session::SessionClient::warning, this, &LiveSession::problem);
    connect(m_client.get(), &lbm::session::SessionClient::finished, this,
            [this](const lbm::session::SessionResult& result) {
                m_result = result;
                m_recorder.close();
                if (m_decoder) {
                    m_decoder->finish();
                }
                m_state = lbm::session::SessionState::Finished;
                emit finished(result);
            });
    m_started_ms = QDateTime::currentMSecsSinceEpoch();
    m_client->start(options);
    return true;
}

void LiveSession::stop() {
    if (m_client) {
        m_client->stop();
    }
}

QString LiveSession::sendPrompt(const QString& prompt, int transition_chunks) {
    return m_client ? m_client->sendPrompt(prompt, transition_chunks) : QString();
}

QString LiveSession::sendCameraVelocity(const lbm::protocol::CameraSe3& velocity) {
    return m_client ? m_client->sendCameraVelocity(velocity) : QString();
}

bool LiveSession::running() const {
    return m_client && !m_client->isFinished();
}

std::optional<lbm::PlaybackResult> LiveSession::simulatedPlayback() const {
    if (!m_simulator || !m_simulator->started()) {
        return std::nullopt;
    }
    return m_simulator->result();
}

double LiveSession::sessionNowS() const {
    // The session clock starts as session.start is sent, moments after start(); the
    // wall clock since then is close enough for the simulated playhead's "now".
    if (m_result) {
        return m_result->wall_s;
    }
    return static_cast<double>(QDateTime::currentMSecsSinceEpoch() - m_started_ms) / 1000.0;
}

const lbm::session::InteractionTimeline& LiveSession::timeline() const {
    static const lbm::session::InteractionTimeline empty;
    return m_client ? m_client->timeline() : empty;
}

lbm::media::DecoderStats LiveSession::decoderStats() const {
    return m_decoder ? m_decoder->stats() : lbm::media::DecoderStats{};
}

QString LiveSession::requestId() const {
    return m_client ? m_client->requestId() : QString();
}

QString LiveSession::endpointText() const {
    if (m_settings.use_simulator) {
        return tr("simulator (%1) at %2")
            .arg(m_settings.simulator_profile, m_settings.url.toString());
    }
    return m_settings.url.toString();
}

void LiveSession::onChunk(const lbm::session::ChunkEvent& chunk) {
    // The recording first: whatever happens next, the bytes are on disk.
    if (m_recorder.isOpen() && !m_recorder.append(chunk.bytes())) {
        emit problem(m_recorder.errorString());
    }
    lbm::media::ChunkInfo info;
    info.transport_index = chunk.transportChunkIndex();
    info.generation_index = chunk.generationChunkIndex();
    info.num_frames = chunk.numFrames();
    info.kind = chunk.isTrailer() ? lbm::media::ChunkKind::Trailer : lbm::media::ChunkKind::Media;
    if (m_decoder) {
        m_decoder->pushChunk(info, chunk.bytes());
    }
    if (!chunk.isMedia()) {
        return;
    }
    m_frames_expected += chunk.numFrames();
    m_media_bytes += chunk.byteLength();
    if (m_clock && chunk.generationChunkIndex()) {
        m_clock->announceChunk(*chunk.generationChunkIndex(), chunk.numFrames());
    }
    const lbm::ChunkRecord record = chunk.record();
    m_records.push_back(record);
    double stall_ms = 0.0;
    if (m_simulator && !m_simulator_halted) {
        try {
            const bool was_started = m_simulator->started();
            const auto before = was_started ? m_simulator->result() : lbm::PlaybackResult{};
            m_simulator->addRecord(record);
            if (m_simulator->started()) {
                const auto after = m_simulator->result();
                if (after.underrun_count > before.underrun_count) {
                    stall_ms = (after.total_stall_s - before.total_stall_s) * 1000.0;
                }
            }
        } catch (const std::exception& error) {
            // A server that repeats or reorders chunk indices (the session then fails on
            // session.done) must not take the window down with an exception through the
            // event loop: the simulated viewer stops at the last chunk in order.
            m_simulator_halted = true;
            emit problem(tr("Simulated playback stopped: %1").arg(QString::fromUtf8(error.what())));
        }
    }
    emit chunkLanded(record, stall_ms);
}

void LiveSession::drainFrames() {
    if (!m_decoder || !m_clock) {
        return;
    }
    while (m_clock->queuedFrames() < kMaxFramesAhead) {
        auto frame = m_decoder->popFrame(0);
        if (!frame) {
            break;
        }
        lbm::playback::PlaybackFrame playback;
        playback.image = frame->toImage();
        playback.frame_number = frame->globalFrameNumber();
        playback.chunk_index = frame->tag().generation_index.value_or(
            frame->tag().transport_index < 0 ? 0 : frame->tag().transport_index);
        playback.index_in_chunk = frame->tag().index_in_chunk;
        ++m_frames_decoded;
        m_clock->addFrame(playback);
    }
    if (m_decoder->isDrained() && m_result) {
        m_clock->finishStream();
    }
}

} // namespace lbm::ui
