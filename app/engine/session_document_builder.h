#pragma once
// The one place a session document is assembled, for the window and `bench` alike: the run's
// header and config from the engine settings, one entry per session the engine ran (its chunk
// rows, the metrics the live model computed, and our additions: completeness, frame counts,
// the interaction timeline, pings), and the aggregate. Also the one place a run's
// compute_metrics options come from.

#include "app/engine/engine_settings.h"
#include "app/report/session_document.h"
#include "app/report/session_outcome.h"
#include "metrics/session_metrics.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace lbm::engine {

class SessionEngine;

// The document's "config" block for the run: the one translation of the settings into the
// document. The live metrics take settings.metrics as they are; a saved document's
// compute_metrics() options come back from this block (report::metricsOptionsFor) and equal
// them (tests/engine/settings_path_test.cpp).
report::RunConfig runConfigFor(const EngineSettings& settings);

class SessionDocumentBuilder {
public:
    // endpoint: the URL the run used (SessionEngine::url()).
    SessionDocumentBuilder(const EngineSettings& settings, const QString& endpoint);

    void setGitRevision(const std::optional<QString>& revision) { m_git_revision = revision; }
    // Merged into the top-level "lingbot_monitor" section.
    void addMonitorExtra(const QString& key, const QJsonValue& value);

    // The engine's current session (finished or still streaming) as the next entry;
    // view_extras are merged into its "lingbot_monitor" object. Returns the entry.
    const report::SessionEntry& addSession(const SessionEngine& engine,
                                           const QJsonObject& view_extras = {});
    // The document so far: complete when every session finished ok (else the first reason);
    // the aggregate metrics only then.
    report::SessionDocument document() const;

private:
    EngineSettings m_settings;
    QString m_endpoint;
    QString m_timestamp;
    std::optional<QString> m_git_revision;
    QJsonObject m_monitor_extras;
    std::vector<report::SessionEntry> m_sessions;
    QString m_incomplete_reason;
    report::SessionOutcome m_outcome;
};

} // namespace lbm::engine
