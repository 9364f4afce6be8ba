#pragma once
// The window's visual quality instruments in one place, fed by the session engine's analysis
// while a session runs and by the stored analysis when a session document is opened: the
// Quality track under the latency chart on its chunk axis, the quality counters under the
// live counters, the HUD's quality line for the chunk on screen, the flags on the
// recording's scrub bar, and the transition filmstrip of the session's prompt transitions.
// Every number comes from app/quality; nothing here measures a picture.

#include "app/quality/chunk_quality.h"
#include "app/quality/quality_settings.h"
#include "app/report/session_document.h"
#include "metrics/chunk_record.h"
#include "ui/recording_player.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <optional>
#include <set>
#include <vector>

class QWidget;

namespace lbm::engine {
class SessionEngine;
}

namespace lbm::ui {

class LatencyChart;
class QualityCountersPanel;
class QualityTrack;
class SteeringStrip;
class TransitionFilmstrip;

class QualityViews : public QObject {
    Q_OBJECT
public:
    // The track follows chart (its chunk range, plot edges and interaction marks).
    QualityViews(lbm::engine::SessionEngine* engine, LatencyChart* chart, QWidget* parent);

    QualityTrack* track() const { return m_track; }
    SteeringStrip* steeringStrip() const { return m_strip; }
    QualityCountersPanel* counters() const { return m_counters; }
    TransitionFilmstrip* filmstrip() const { return m_filmstrip; }

    // A live session starts, analysed with settings: the last session's or document's
    // results go.
    void startSession(const lbm::quality::QualitySettings& settings);
    // The live session's recording is complete: the filmstrip reads its transitions.
    // The live session ended: the counters say what never came.
    void sessionOver();
    void showFinishedSession(const QString& recording, const std::vector<lbm::ChunkRecord>& chunks,
                             const QJsonArray& interactions, const QJsonObject& workload);
    // An opened session document: its stored analysis (a note in the track when it has none)
    // and, with its recording, its filmstrip.
    void showDocument(const lbm::report::SessionDocument& document, const QString& recording,
                      const QJsonArray& interactions);
    // The flags as the recording player's scrub bar draws them (a tick and a band per chunk).
    QList<ChunkMark> scrubMarks() const;
    // The HUD's line for chunk (empty until that chunk is analysed).
    QString hudLine(qint64 chunk) const;
    // The chunk the video shows, drawn as the track's playhead.
    void setShownChunk(std::optional<qint64> chunk);

signals:
    // The analysis finished: the scrub marks are complete (the window re-places them).
    void marksChanged();
    // A chunk (track) or a frame (filmstrip) was clicked: the window shows it.
    void chunkRequested(qint64 chunk);
    void frameRequested(int frame);

private:
    void clearAll();
    void showFilmstrip(const QString& recording, const std::vector<lbm::ChunkRecord>& chunks,
                       const QJsonArray& interactions, const QJsonObject& workload,
                       const std::vector<lbm::quality::ChunkQuality>& quality);

    lbm::engine::SessionEngine* m_engine;
    QualityTrack* m_track = nullptr;
    SteeringStrip* m_strip = nullptr;
    QualityCountersPanel* m_counters = nullptr;
    TransitionFilmstrip* m_filmstrip = nullptr;
    // What the HUD and the scrub bar read: the live analysis or the opened document's.
    std::vector<lbm::quality::ChunkQuality> m_document_chunks;
    bool m_showing_document = false;
    // The live session's media chunks by index (a chunk the server sent twice counts once).
    std::set<qint64> m_chunks_landed;
};

} // namespace lbm::ui
