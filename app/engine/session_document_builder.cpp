#include "app/engine/session_document_builder.h"

#include "app/engine/session_engine.h"
#include "app/report/quality_json.h"
#include "app/report/workload_json.h"
#include "app/session/session_notes.h"
#include "metrics/metric_error.h"

#include <QHostInfo>
#include <QJsonArray>

namespace lbm::engine {

report::RunConfig runConfigFor(const EngineSettings& settings) {
    report::RunConfig config;
    config.sessions = settings.sessions;
    config.warmup_sessions = settings.warmup_sessions;
    config.warmup_chunks = settings.metrics.warmup_chunks;
    config.camera_pattern = settings.camera_pattern;
    config.chunk_slo_ms = settings.metrics.slo_ms;
    config.target_fps = settings.metrics.fps;
    config.mux_fps = settings.session.workload.fps;
    config.playback_buffer_chunks = settings.metrics.playback_buffer_chunks;
    config.workload_file = settings.workload_file;
    return config;
}

SessionDocumentBuilder::SessionDocumentBuilder(const EngineSettings& settings,
                                               const QString& endpoint)
    : m_settings(settings)
    , m_endpoint(endpoint)
    , m_timestamp(report::isoTimestampUtc()) {
    if (settings.use_simulator) {
        m_monitor_extras.insert(QStringLiteral("simulator_profile"), settings.simulator_profile);
        if (!settings.simulator_faults.isEmpty()) {
            m_monitor_extras.insert(QStringLiteral("simulator_faults"),
                                    QJsonArray::fromStringList(settings.simulator_faults));
        }
    }
}

void SessionDocumentBuilder::addMonitorExtra(const QString& key, const QJsonValue& value) {
    m_monitor_extras.insert(key, value);
}

const report::SessionEntry& SessionDocumentBuilder::addSession(const SessionEngine& engine,
                                                               const QJsonObject& view_extras) {
    const auto& result = engine.result();
    const LiveSessionMetrics& live = engine.liveMetrics();
    report::SessionEntry entry;
    entry.session_index = static_cast<int>(m_sessions.size());
    if (!engine.requestId().isEmpty()) {
        entry.request_id = engine.requestId();
    } else if (result && result->request_id) {
        entry.request_id = result->request_id;
    }
    if (result && result->video_start_s) {
        entry.video_start_ms = *result->video_start_s * 1000.0;
    }
    entry.chunks = live.records();
    if (result) {
        entry.ttfc_s = result->ttfc_s;
        entry.wall_s = result->wall_s;
    } else if (!entry.chunks.empty()) {
        entry.ttfc_s = entry.chunks.front().arrival_s;
        entry.wall_s = entry.chunks.back().arrival_s;
    }

    qint64 decoded = 0;
    for (const auto& [chunk, frames] : engine.framesDecodedPerChunk()) {
        decoded += frames;
    }
    QJsonObject extras{
        {QStringLiteral("complete"), result.has_value() && result->ok},
        {QStringLiteral("frames_announced"), engine.framesAnnounced()},
        {QStringLiteral("frames_decoded"), decoded},
        {QStringLiteral("decoder_errors"), QJsonArray::fromStringList(engine.decoderErrors())},
        {QStringLiteral("trailer_received"), result.has_value() && result->trailer_received},
        {QStringLiteral("wall_s"), entry.wall_s.value_or(0.0)},
        {QStringLiteral("pings_sent"), result ? result->pings_sent : 0},
        {QStringLiteral("pongs_received"), result ? result->pongs_received : 0},
        {QStringLiteral("interactions"), engine.timeline().toJson()},
    };
    if (result && !result->ok) {
        extras.insert(QStringLiteral("error"), result->error);
    }
    if (result && !result->done_event.isEmpty()) {
        extras.insert(QStringLiteral("done_event"), result->done_event);
    }
    if (result) {
        // What the server did that a reader should know (chunks numbered by position, a
        // control loop that stopped answering), as `report` reads it back.
        const QJsonObject notes = session::sessionNotesJson(*result);
        for (auto it = notes.begin(); it != notes.end(); ++it) {
            extras.insert(it.key(), it.value());
        }
    }
    if (!entry.chunks.empty()) {
        std::string why;
        entry.metrics = live.tryMetrics(entry.ttfc_s, entry.wall_s, &why);
        if (!entry.metrics) {
            // Too few chunks for the start buffer: the rows stay, so `report
            // --playback-buffer-chunks 1` can still recompute them.
            extras.insert(QStringLiteral("metrics_unavailable"), QString::fromStdString(why));
        }
    }
    if (engine.analyzingQuality() && !engine.qualityChunks().empty()) {
        report::SessionQuality quality{m_settings.quality, engine.qualityChunks()};
        extras.insert(report::kQualityKey, report::qualityToJson(quality));
    }
    for (auto it = view_extras.begin(); it != view_extras.end(); ++it) {
        extras.insert(it.key(), it.value());
    }
    entry.monitor_extras = extras;
    // The run's outcome is its first session's that did not finish; the stopped reason in
    // prose (the worker's error quotes the server's session.done as a Python dict).
    if (m_outcome.kind == report::OutcomeKind::Finished) {
        const auto chunks = static_cast<qsizetype>(entry.chunks.size());
        if (!result) {
            m_outcome = {report::OutcomeKind::Running,
                         QStringLiteral("the session is still running")};
        } else if (!result->ok && result->stop_requested) {
            m_outcome = {report::OutcomeKind::Stopped,
                         QStringLiteral("stopped by the user after %1 chunk%2")
                             .arg(chunks)
                             .arg(chunks == 1 ? QString() : QStringLiteral("s"))};
        } else if (!result->ok) {
            m_outcome = {report::OutcomeKind::Failed, result->error};
        }
        m_incomplete_reason =
            m_outcome.kind == report::OutcomeKind::Finished ? QString() : m_outcome.detail;
    }
    m_sessions.push_back(entry);
    return m_sessions.back();
}

report::SessionDocument SessionDocumentBuilder::document() const {
    report::SessionDocument document;
    document.timestamp = m_timestamp;
    document.endpoint = m_endpoint;
    document.model = m_settings.session.model;
    document.git_revision = m_git_revision;
    document.hostname = QHostInfo::localHostName();
    document.workload = report::describeWorkload(m_settings.session.workload);
    document.config = runConfigFor(m_settings);
    document.sessions = m_sessions;
    report::MonitorSection monitor;
    monitor.extras = m_monitor_extras;
    monitor.complete = m_incomplete_reason.isEmpty() && !m_sessions.empty();
    monitor.incomplete_reason =
        m_sessions.empty() ? QStringLiteral("no session was run") : m_incomplete_reason;
    if (monitor.complete) {
        std::vector<SessionMetrics> all;
        for (const auto& session : m_sessions) {
            if (session.metrics) {
                all.push_back(*session.metrics);
            }
        }
        if (all.size() == m_sessions.size()) {
            document.metrics = aggregateMetrics(all, document.config.target_fps);
        }
    }
    document.monitor = monitor;
    if (!m_sessions.empty()) {
        report::recordOutcome(document, m_outcome);
    }
    return document;
}

} // namespace lbm::engine
