#pragma once
// What the latency chart shows, apart from how: the session's chunks with their
// inter-arrival latency, lateness and simulated stalls (read from the live metrics model
// every other surface reads, or from a model of its own replayed from a document's rows, so a
// document draws the same marks the live session drew), the interaction marks on the chunk
// axis, the percentile lines and a comparison session. Reading a visible window costs what
// the window holds, not what the session holds.

#include "app/session/interaction_timeline.h"
#include "metrics/chunk_record.h"
#include "metrics/live_session_metrics.h"
#include "ui/chart_event_mark.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace lbm::ui {

class LatencyChartModel : public QObject {
    Q_OBJECT
public:
    explicit LatencyChartModel(QObject* parent = nullptr);
    ~LatencyChartModel() override;

    // An empty chart judged against deadline_ms with warmup_chunks shaded.
    void reset(double deadline_ms, int warmup_chunks, int expected_chunks);
    // Live: the chart follows metrics (not owned; it outlives the attachment or is detached
    // by the next reset()). Call chunkAdded() after each chunk it took.
    void attach(const lbm::LiveSessionMetrics* metrics, int expected_chunks);
    void chunkAdded();
    // A recorded session: the rows replayed, in order, through a model of the chart's own.
    void showRecords(const std::vector<lbm::ChunkRecord>& records,
                     const lbm::MetricsOptions& options, int expected_chunks);

    void addEventMark(const ChartEventMark& mark);
    // The marks a timeline event makes (sent / started / completed / failed, prompt or camera);
    // chunks_received places a sent or refused one between the chunks it came between.
    void addTimelineEvent(const lbm::session::TimelineEvent& event,
                          const lbm::session::InteractionRecord& record, int chunks_received);
    // The chunk in flight: the stream has waited waited_ms for chunk index since the last one.
    struct Waiting {
        qint64 index = 0;
        double waited_ms = 0.0;
        // The session ended while waiting: the chunk never came.
        bool ended = false;
    };
    void setWaiting(const std::optional<Waiting>& waiting);
    const std::optional<Waiting>& waiting() const { return m_waiting; }
    void setComparison(const std::vector<lbm::ChunkRecord>& records, const QString& label);
    void clearComparison();
    void setPrimaryLabel(const QString& label);

    int chunkCount() const;
    const lbm::ChunkRecord& record(int i) const;
    // The simulated viewer's stall at chunk i (0 when none).
    double stallMs(int i) const;
    double deadlineMs() const { return m_deadline_ms; }
    int warmupChunks() const { return m_warmup_chunks; }
    int expectedChunks() const { return m_expected_chunks; }
    int lateChunkCount() const;
    // Chunk i for a tooltip: its latency against the deadline, arrival, size, warmup.
    QString describeChunk(int i) const;
    int stallMarkCount() const;
    // The session's p50/p95/p99 as the counters show them (steady once there are steady
    // chunks); nullopt before the second chunk.
    std::optional<double> percentileMs(double fraction) const;
    bool percentilesAreSteady() const;

    // Marks sorted by position; eventsIn gives the index range [first, last) within [x0, x1].
    const std::vector<ChartEventMark>& events() const { return m_events; }
    std::pair<std::size_t, std::size_t> eventsIn(double x0, double x1) const;
    const std::vector<lbm::ChunkRecord>& comparison() const { return m_comparison; }
    const QString& comparisonLabel() const { return m_comparison_label; }
    const QString& primaryLabel() const { return m_primary_label; }

signals:
    void changed();
    // Only the wait for the chunk in flight grew (the same chunk, still awaited): a view can
    // redraw that one bar instead of everything (the window ticks at 10 Hz while waiting).
    void waitingGrew();

private:
    const lbm::LiveSessionMetrics* metrics() const;

    const lbm::LiveSessionMetrics* m_live = nullptr;
    std::unique_ptr<lbm::LiveSessionMetrics> m_owned;
    double m_deadline_ms = 750.0;
    int m_warmup_chunks = 6;
    int m_expected_chunks = 0;
    std::vector<ChartEventMark> m_events;
    std::optional<Waiting> m_waiting;
    std::vector<lbm::ChunkRecord> m_comparison;
    QString m_comparison_label;
    QString m_primary_label;
};

} // namespace lbm::ui
