#include "ui/export_controller.h"

#include "app/media/remux.h"
#include "app/report/atomic_file.h"

#include <QBuffer>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileDialog>
#include <QImageWriter>
#include <QWidget>
#include <QtConcurrent>
#include <QtCore/qtestsupport_core.h>

#include <exception>

namespace lbm::ui {
namespace {

QString shown(const QString& path) {
    return QDir::toNativeSeparators(path);
}

} // namespace

ExportController::ExportController(QObject* parent)
    : QObject(parent) {
    qRegisterMetaType<ExportOutcome>();
}

ExportController::~ExportController() {
    // A write under way finishes: its file is replaced atomically or not at all.
    QThreadPool::globalInstance()->waitForDone();
}

void ExportController::run(const QString& what, std::function<ExportOutcome()> job) {
    auto* watcher = new QFutureWatcher<ExportOutcome>(this);
    connect(watcher, &QFutureWatcher<ExportOutcome>::finished, this, [this, watcher] {
        const ExportOutcome outcome = watcher->result();
        watcher->deleteLater();
        --m_pending;
        emit finished(outcome);
        if (m_pending == 0) {
            emit busyChanged(false, QString());
        }
    });
    ++m_pending;
    emit busyChanged(true, what);
    watcher->setFuture(QtConcurrent::run([job = std::move(job)] {
        try {
            return job();
        } catch (const std::exception& failure) {
            return ExportOutcome{false, QString::fromUtf8(failure.what())};
        }
    }));
}

void ExportController::saveDocument(const lbm::report::SessionDocument& document,
                                    const QString& path) {
    run(tr("Saving %1…").arg(shown(path)), [document, path] {
        lbm::report::writeSessionDocument(document, path);
        return ExportOutcome{true, tr("Saved %1").arg(shown(path))};
    });
}

void ExportController::saveCsv(const lbm::report::ChunkCsvTable& table, const QString& path) {
    run(tr("Saving %1…").arg(shown(path)), [table, path] {
        table.write(path);
        return ExportOutcome{true, tr("Saved %1").arg(shown(path))};
    });
}

void ExportController::savePng(const QImage& image, const QString& path) {
    run(tr("Saving %1…").arg(shown(path)), [image, path] {
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        QImageWriter writer(&buffer, "png");
        if (!writer.write(image)) {
            return ExportOutcome{
                false, tr("Cannot encode the chart as PNG: %1.").arg(writer.errorString())};
        }
        lbm::report::writeFileAtomically(path, png);
        return ExportOutcome{true, tr("Saved %1").arg(shown(path))};
    });
}

void ExportController::saveVideo(const QString& recording_path, const QString& path) {
    run(tr("Writing %1…").arg(shown(path)), [recording_path, path] {
        const auto result = lbm::media::remuxToMp4(recording_path, path);
        if (!result.ok) {
            return ExportOutcome{false, result.error};
        }
        return ExportOutcome{
            true, tr("Saved %1 (%2 frames%3)")
                      .arg(shown(path))
                      .arg(result.packets_written)
                      .arg(result.input_truncated ? tr(", partial recording") : QString())};
    });
}

namespace {

QString askPath(QWidget* parent, const QString& title, const QString& suggested,
                const QString& filter) {
    return QFileDialog::getSaveFileName(parent, title, suggested, filter);
}

} // namespace

void ExportController::saveDocumentAs(QWidget* parent, const lbm::report::SessionDocument& document,
                                      const QString& run_name) {
    const QString path = askPath(parent, tr("Save session document"),
                                 run_name + QStringLiteral(".json"), tr("Session (*.json)"));
    if (!path.isEmpty()) {
        saveDocument(document, path);
    }
}

void ExportController::saveCsvAs(QWidget* parent, const lbm::report::ChunkCsvTable& table,
                                 const QString& run_name) {
    const QString path = askPath(parent, tr("Export chunks"),
                                 run_name + QStringLiteral("-chunks.csv"), tr("CSV (*.csv)"));
    if (!path.isEmpty()) {
        saveCsv(table, path);
    }
}

void ExportController::savePngAs(QWidget* parent, const QImage& image, const QString& run_name) {
    const QString path = askPath(parent, tr("Export chart"),
                                 run_name + QStringLiteral("-latency.png"), tr("PNG (*.png)"));
    if (!path.isEmpty()) {
        savePng(image, path);
    }
}

void ExportController::saveVideoAs(QWidget* parent, const QString& recording_path,
                                   const QString& run_name) {
    const QString path =
        askPath(parent, tr("Save video"), run_name + QStringLiteral(".mp4"), tr("MP4 (*.mp4)"));
    if (!path.isEmpty()) {
        saveVideo(recording_path, path);
    }
}

bool ExportController::waitForIdle(int timeout_ms) {
    return QTest::qWaitFor([this] { return m_pending == 0; }, timeout_ms);
}

} // namespace lbm::ui
