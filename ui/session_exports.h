#pragma once
// What File ▸ Save and Export write, and from what: the opened document, or the session the
// engine ran (the same document the session keeper writes beside its recording). Each export
// is named after the run and carries its title (run id, endpoint, date); the writing happens
// off the GUI thread through the ExportController.

#include "app/report/chunk_csv.h"
#include "app/report/session_document.h"

#include <QString>

#include <optional>

class QWidget;

namespace lbm::engine {
class SessionEngine;
}
namespace lbm::playback {
class PlaybackClock;
}

namespace lbm::ui {

class DocumentViewer;
class ExportController;
class LatencyChart;

class SessionExports {
public:
    SessionExports(QWidget* window, lbm::engine::SessionEngine* engine,
                   lbm::playback::PlaybackClock* clock, DocumentViewer* viewer, LatencyChart* chart,
                   ExportController* exports);

    // The opened document, or the live/finished session's; nullopt before any chunk.
    std::optional<lbm::report::SessionDocument> currentDocument() const;
    // "<run id> · <endpoint> · <model> · profile <p> · <date> UTC".
    QString reportTitle() const;

    // What File ▸ Export CSV writes: the columns `bench --csv` writes (quality included when
    // the session was analysed); nullopt before any chunk.
    std::optional<lbm::report::ChunkCsvTable> csvTable() const;

    void saveDocumentAs();
    void exportCsv();
    void exportChartPng();
    void saveVideo();

private:
    QString runName() const;

    QWidget* m_window;
    lbm::engine::SessionEngine* m_engine;
    lbm::playback::PlaybackClock* m_clock;
    DocumentViewer* m_viewer;
    LatencyChart* m_chart;
    ExportController* m_exports;
};

} // namespace lbm::ui
