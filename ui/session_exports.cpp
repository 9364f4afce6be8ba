#include "ui/session_exports.h"

#include "app/engine/session_csv.h"
#include "app/engine/session_document_builder.h"
#include "app/engine/session_engine.h"
#include "app/playback/playback_clock.h"
#include "ui/document_viewer.h"
#include "ui/export_controller.h"
#include "ui/latency_chart.h"

#include <QCoreApplication>
#include <QJsonObject>

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
    return QStringLiteral("%1 · %2 · %3")
        .arg(document->sessions.front().request_id.value_or(
                 QCoreApplication::translate("SessionExports", "no request id")),
             document->endpoint,
             document->timestamp.left(19).replace(QLatin1Char('T'), QLatin1Char(' ')));
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

void SessionExports::exportCsv() {
    const auto document = currentDocument();
    if (!document) {
        return;
    }
    if (m_viewer->document()) {
        m_exports->saveCsvAs(m_window,
                             lbm::report::ChunkCsvTable(document->sessions.front().chunks,
                                                        m_chart->deadlineMs(),
                                                        document->config.warmup_chunks),
                             runName());
    } else {
        m_exports->saveCsvAs(m_window, lbm::engine::sessionCsvTable(*m_engine), runName());
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
