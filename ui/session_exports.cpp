#include "ui/session_exports.h"

#include "app/engine/session_csv.h"
#include "app/engine/session_document_builder.h"
#include "app/engine/session_engine.h"
#include "app/playback/playback_clock.h"
#include "app/report/quality_json.h"
#include "app/report/quality_text.h"
#include "ui/document_viewer.h"
#include "ui/export_controller.h"
#include "ui/latency_chart.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QStringList>

#include <exception>

namespace lbm::ui {

SessionExports::SessionExports(QWidget* window, lbm::engine::SessionEngine* engine,
                               lbm::playback::PlaybackClock* clock, DocumentViewer* viewer,
                               LatencyChart* chart, ExportController* exports)
    : m_window(window)
    , m_engine(engine)
    , m_clock(clock)
    , m_viewer(viewer)
    , m_chart(chart)
    , m_exports(exports) {}

std::optional<lbm::report::SessionDocument> SessionExports::currentDocument() const {
    if (m_viewer->document()) {
        return m_viewer->document();
    }
    if (!m_engine->hasSession() || m_engine->liveMetrics().empty()) {
        return std::nullopt;
    }
    lbm::engine::SessionDocumentBuilder builder(m_engine->settings(), m_engine->url().toString());
    const auto stalls = m_clock->stalls();
    builder.addSession(
        *m_engine,
        QJsonObject{{QStringLiteral("observed_player_stalls"),
                     QJsonObject{{QStringLiteral("count"), stalls.count},
                                 {QStringLiteral("total_ms"), stalls.total_s * 1000.0},
                                 {QStringLiteral("longest_ms"), stalls.longest_s * 1000.0}}}});
    return builder.document();
}

QString SessionExports::reportTitle() const {
    const auto document = currentDocument();
    if (!document) {
        return QCoreApplication::translate("SessionExports", "LingBot Live Monitor");
    }
    // Run, endpoint, model, profile (the simulator's, when it was one), date.
    QStringList parts{document->sessions.front().request_id.value_or(
                          QCoreApplication::translate("SessionExports", "no request id")),
                      document->endpoint, document->model};
    const QString profile =
        document->monitor
            ? document->monitor->extras.value(QStringLiteral("simulator_profile")).toString()
            : QString();
    if (!profile.isEmpty()) {
        parts << QCoreApplication::translate("SessionExports", "profile %1").arg(profile);
    }
    parts << document->timestamp.left(19).replace(QLatin1Char('T'), QLatin1Char(' ')) +
                 QStringLiteral(" UTC");
    return parts.join(QStringLiteral(" · "));
}

QString SessionExports::runName() const {
    const auto document = currentDocument();
    return document && document->sessions.front().request_id
               ? *document->sessions.front().request_id
               : QStringLiteral("session");
}

void SessionExports::saveDocumentAs() {
    if (const auto document = currentDocument()) {
        m_exports->saveDocumentAs(m_window, *document, runName());
    }
}

std::optional<lbm::report::ChunkCsvTable> SessionExports::csvTable() const {
    const auto document = currentDocument();
    if (!document) {
        return std::nullopt;
    }
    lbm::report::ChunkCsvTable table =
        m_viewer->document()
            ? lbm::report::ChunkCsvTable(document->sessions.front().chunks, m_chart->deadlineMs(),
                                         document->config.warmup_chunks)
            : lbm::engine::sessionCsvTable(*m_engine);
    // The visual quality columns `bench --csv --quality` writes, when the session has them.
    try {
        if (const auto quality = lbm::report::sessionQuality(document->sessions.front(),
                                                             QStringLiteral("sessions[0]"))) {
            lbm::report::addQualityColumns(table, quality->chunks);
        }
    } catch (const std::exception&) {
        // A malformed analysis leaves the columns out; the rows are still worth having.
    }
    return table;
}

void SessionExports::exportCsv() {
    if (const auto table = csvTable()) {
        m_exports->saveCsvAs(m_window, *table, runName());
    }
}

void SessionExports::exportChartPng() {
    // Rendered here (the chart is a scene on this thread), encoded and written off it: the
    // whole session under its title and legend.
    m_exports->savePngAs(m_window, m_chart->reportImage(reportTitle(), QSize(1600, 560)),
                         runName());
}

void SessionExports::saveVideo() {
    if (!m_engine->recordingPath().isEmpty()) {
        m_exports->saveVideoAs(m_window, m_engine->recordingPath(), runName());
    }
}

} // namespace lbm::ui
