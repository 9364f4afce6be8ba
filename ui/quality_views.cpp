#include "ui/quality_views.h"

#include "app/engine/session_engine.h"
#include "app/report/quality_json.h"
#include "ui/hud_overlay.h"
#include "ui/latency_chart.h"
#include "ui/prompt_interactions.h"
#include "ui/quality_counters_panel.h"
#include "ui/quality_signals.h"
#include "ui/quality_track.h"
#include "ui/steering_strip.h"
#include "ui/transition_filmstrip.h"

#include <QVBoxLayout>
#include <QWidget>

#include <exception>

namespace lbm::ui {

QualityViews::QualityViews(lbm::engine::SessionEngine* engine, LatencyChart* chart, QWidget* parent)
    : QObject(parent)
    , m_engine(engine) {
    m_track = new QualityTrack(parent);
    m_track->setObjectName(QStringLiteral("QualityTrack"));
    m_track->syncWith(chart);
    m_track->setSummaryVisible(false); // the quality counters beside it say the same
    m_counters = new QualityCountersPanel(parent);
    m_counters->setObjectName(QStringLiteral("QualityCounters"));
    // The steering strip sits under the track's chart, on the latency chart's chunk axis.
    m_strip = new SteeringStrip(m_track);
    m_strip->syncWith(chart);
    if (auto* track_layout = qobject_cast<QVBoxLayout*>(m_track->layout())) {
        track_layout->addWidget(m_strip);
    }
    m_filmstrip = new TransitionFilmstrip(parent);
    m_filmstrip->setObjectName(QStringLiteral("TransitionFilmstrip"));

    using lbm::engine::SessionEngine;
    // Results arrive as the analysis finishes each chunk, a little behind its decode and well
    // ahead of the chunk's turn on screen.
    connect(engine, &SessionEngine::chunkQualityReady, this,
            [this](const lbm::quality::ChunkQuality& chunk) {
                if (m_showing_document) {
                    return;
                }
                m_track->addChunk(chunk);
                m_counters->addChunk(chunk);
                m_strip->addChunk(chunk);
            });
    connect(engine, &SessionEngine::chunkLanded, this, [this](const lbm::ChunkRecord& record) {
        if (!m_showing_document) {
            m_chunks_landed.insert(record.index);
            m_counters->setChunksReceived(static_cast<qint64>(m_chunks_landed.size()));
        }
    });
    connect(engine, &SessionEngine::qualityDone, this, [this] {
        if (!m_showing_document) {
            emit marksChanged();
        }
    });
    connect(m_track, &QualityTrack::chunkClicked, this, &QualityViews::chunkRequested);
    connect(m_filmstrip, &TransitionFilmstrip::frameRequested, this, &QualityViews::frameRequested);
}

void QualityViews::clearAll() {
    m_document_chunks.clear();
    m_chunks_landed.clear();
    m_track->clear();
    m_counters->reset();
    m_strip->clear();
    m_filmstrip->clear();
    m_track->setPlayheadChunk(std::nullopt);
    m_track->setToolTip(QString());
}

void QualityViews::startSession(const lbm::quality::QualitySettings& settings) {
    m_showing_document = false;
    clearAll();
    m_track->setSettings(settings);
    m_counters->setSettings(settings);
}

void QualityViews::sessionOver() {
    if (!m_showing_document) {
        m_counters->setSessionOver();
    }
}

void QualityViews::showFinishedSession(const QString& recording,
                                       const std::vector<lbm::ChunkRecord>& chunks,
                                       const QJsonArray& interactions,
                                       const QJsonObject& workload) {
    if (m_showing_document) {
        return;
    }
    showFilmstrip(recording, chunks, interactions, workload, m_engine->qualityChunks());
}

void QualityViews::showDocument(const lbm::report::SessionDocument& document,
                                const QString& recording, const QJsonArray& interactions) {
    m_showing_document = true;
    clearAll();
    if (document.sessions.empty()) {
        return;
    }
    const auto& session = document.sessions.front();
    try {
        if (const auto stored =
                lbm::report::sessionQuality(session, QStringLiteral("sessions[0]"))) {
            m_track->setSettings(stored->settings);
            m_counters->setSettings(stored->settings);
            m_document_chunks = stored->chunks;
            m_track->setChunks(stored->chunks);
            m_counters->setChunks(stored->chunks);
            std::set<qint64> received;
            for (const lbm::ChunkRecord& chunk : session.chunks) {
                received.insert(chunk.index);
            }
            m_counters->setChunksReceived(static_cast<qint64>(received.size()));
            m_counters->setSessionOver();
            m_strip->setChunks(stored->chunks);
        }
    } catch (const std::exception& failure) {
        // The latency numbers are still worth seeing; the track says why it is empty.
        m_track->setToolTip(tr("The document's quality analysis cannot be read: %1")
                                .arg(QString::fromUtf8(failure.what())));
    }
    if (!recording.isEmpty()) {
        showFilmstrip(recording, session.chunks, interactions, document.workload,
                      m_document_chunks);
    }
}

void QualityViews::showFilmstrip(const QString& recording,
                                 const std::vector<lbm::ChunkRecord>& chunks,
                                 const QJsonArray& interactions, const QJsonObject& workload,
                                 const std::vector<lbm::quality::ChunkQuality>& quality) {
    std::vector<int> frames;
    frames.reserve(chunks.size());
    for (const auto& chunk : chunks) {
        frames.push_back(chunk.num_frames);
    }
    m_filmstrip->setSession(recording, frames, promptInteractionsFromJson(interactions, workload));
    m_filmstrip->setTransitionChecks(quality);
}

QList<ChunkMark> QualityViews::scrubMarks() const {
    const auto& chunks = m_showing_document ? m_document_chunks : m_engine->qualityChunks();
    return qualityChunkMarks(chunks, m_track->settings().thresholds, m_track->palette());
}

QString QualityViews::hudLine(qint64 chunk) const {
    const auto* found = m_track->chunk(chunk);
    QString line = found ? qualityHudLine(*found) : QString();
    // The last camera key's response time, while steering.
    const QString response = m_strip->lastResponseText();
    if (!response.isEmpty()) {
        line += (line.isEmpty() ? QString() : QStringLiteral(" · ")) + response;
    }
    return line;
}

void QualityViews::setShownChunk(std::optional<qint64> chunk) {
    m_track->setPlayheadChunk(chunk);
}

} // namespace lbm::ui
