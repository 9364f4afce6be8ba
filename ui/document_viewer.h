#pragma once
// Opening saved session documents (ours or the Python benchmark's) in the window: the chart
// and the counters show the document's first session as they showed it live (its rows
// replayed through the same metrics model), and a second document can be drawn beside it for
// comparison. Errors come back as text for the window's banner.

#include "app/report/session_document.h"
#include "app/report/session_outcome.h"

#include <QJsonArray>
#include <QObject>
#include <QString>

#include <optional>

namespace lbm::ui {

class CountersPanel;
class LatencyChartModel;

class DocumentViewer : public QObject {
    Q_OBJECT
public:
    DocumentViewer(LatencyChartModel* chart, CountersPanel* counters, QObject* parent = nullptr);

    // Reads path and shows it. False with *error (unreadable, not a document, no session).
    bool open(const QString& path, QString* error);
    // Draws path's first session as the chart's comparison trace.
    bool compare(const QString& path, QString* error);
    // Forgets the opened document (a live session takes the chart and counters).
    void close();

    const std::optional<lbm::report::SessionDocument>& document() const { return m_document; }
    const QString& path() const { return m_path; }
    // "Viewing run.json (12 chunks, endpoint ws://...)".
    QString statusText() const;
    // How the opened session ended (readOutcome), as a sentence for the banner, and the
    // window title for it.
    lbm::report::SessionOutcome outcome() const;
    QString outcomeSentence() const;
    QString windowTitle() const;
    // A warning to show with the document (metrics that could not be recomputed), or empty.
    const QString& warning() const { return m_warning; }
    // The recording beside the document (what the session keeper keeps as stream.m4s), or
    // empty when there is none.
    QString recordingPath() const;
    // The first session's interaction timeline as the document stores it.
    QJsonArray interactions() const;

private:
    static std::optional<lbm::report::SessionDocument> read(const QString& path, QString* error);

    LatencyChartModel* m_chart;
    CountersPanel* m_counters;
    std::optional<lbm::report::SessionDocument> m_document;
    QString m_path;
    QString m_warning;
};

} // namespace lbm::ui
