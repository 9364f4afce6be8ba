#pragma once
// Everything the window writes to disk, off the GUI thread: the session document, the chunk
// CSV, the chart PNG (rendered on the GUI thread, encoded and written on a worker) and the
// MP4 (a stream copy of the whole recording). Each job reports back on the GUI thread with a
// sentence for the status bar or the banner; the window shows a busy indicator meanwhile.

#include "app/report/chunk_csv.h"
#include "app/report/session_document.h"

#include <QFutureWatcher>
#include <QImage>
#include <QObject>
#include <QString>

class QWidget;

namespace lbm::ui {

struct ExportOutcome {
    bool ok = false;
    QString message; // "Saved /path (285 frames)" or the reason it failed
};

class ExportController : public QObject {
    Q_OBJECT
public:
    explicit ExportController(QObject* parent = nullptr);
    ~ExportController() override;

    // Each asks for a path (suggesting one named after the run) and saves there off the GUI
    // thread; nothing happens when the user cancels.
    void saveDocumentAs(QWidget* parent, const lbm::report::SessionDocument& document,
                        const QString& run_name);
    void saveCsvAs(QWidget* parent, const lbm::report::ChunkCsvTable& table,
                   const QString& run_name);
    void savePngAs(QWidget* parent, const QImage& image, const QString& run_name);
    void saveVideoAs(QWidget* parent, const QString& recording_path, const QString& run_name);

    void saveDocument(const lbm::report::SessionDocument& document, const QString& path);
    void saveCsv(const lbm::report::ChunkCsvTable& table, const QString& path);
    void savePng(const QImage& image, const QString& path);
    void saveVideo(const QString& recording_path, const QString& path);

    int pending() const { return m_pending; }
    // Runs the event loop until every job reported (tests; quitting waits for writes).
    bool waitForIdle(int timeout_ms);

signals:
    void busyChanged(bool busy, const QString& what);
    void finished(const lbm::ui::ExportOutcome& outcome);

private:
    void run(const QString& what, std::function<ExportOutcome()> job);

    int m_pending = 0;
};

} // namespace lbm::ui

Q_DECLARE_METATYPE(lbm::ui::ExportOutcome)
