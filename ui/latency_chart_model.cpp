#include "ui/latency_chart_model.h"

#include "metrics/geometry.h"

#include <algorithm>

namespace lbm::ui {

LatencyChartModel::LatencyChartModel(QObject* parent)
    : QObject(parent) {}

LatencyChartModel::~LatencyChartModel() = default;

void LatencyChartModel::reset(double deadline_ms, int warmup_chunks, int expected_chunks) {
    m_live = nullptr;
    m_owned.reset();
    m_deadline_ms = deadline_ms;
    m_warmup_chunks = std::max(0, warmup_chunks);
    m_expected_chunks = std::max(0, expected_chunks);
    m_events.clear();
    m_waiting.reset();
    m_primary_label.clear();
    emit changed();
}

void LatencyChartModel::attach(const lbm::LiveSessionMetrics* metrics, int expected_chunks) {
    m_owned.reset();
    m_live = metrics;
    m_events.clear();
    if (metrics) {
        m_deadline_ms = metrics->deadlineMs();
        m_warmup_chunks = metrics->options().warmup_chunks;
    }
    m_expected_chunks = std::max(0, expected_chunks);
    emit changed();
}

void LatencyChartModel::chunkAdded() {
    m_waiting.reset(); // the awaited chunk landed
    emit changed();
}

void LatencyChartModel::showRecords(const std::vector<lbm::ChunkRecord>& records,
                                    const lbm::MetricsOptions& options, int expected_chunks) {
    m_live = nullptr;
    m_owned = std::make_unique<lbm::LiveSessionMetrics>(options);
    for (const lbm::ChunkRecord& record : records) {
        m_owned->addRecord(record);
    }
    m_deadline_ms = m_owned->deadlineMs();
    m_warmup_chunks = options.warmup_chunks;
    m_expected_chunks = std::max(0, expected_chunks);
    m_events.clear();
    emit changed();
}

const lbm::LiveSessionMetrics* LatencyChartModel::metrics() const {
    return m_owned ? m_owned.get() : m_live;
}

void LatencyChartModel::addEventMark(const ChartEventMark& mark) {
    // Kept sorted by position (marks arrive almost in order), so a visible window is found
    // by binary search however many interactions a long steering session sent.
    const auto at = std::upper_bound(m_events.begin(), m_events.end(), mark.chunk_position,
                                     [](double position, const ChartEventMark& other) {
                                         return position < other.chunk_position;
                                     });
    m_events.insert(at, mark);
    emit changed();
}

void LatencyChartModel::addTimelineEvent(const lbm::session::TimelineEvent& event,
                                         const lbm::session::InteractionRecord& record,
                                         int chunks_received) {
    using lbm::session::InteractionKind;
    using lbm::session::TimelineEventType;
    const bool camera = record.kind == InteractionKind::CameraVelocity ||
                        record.kind == InteractionKind::CameraTarget;
    const ChartEventMark::Subject subject =
        camera ? ChartEventMark::Subject::Camera : ChartEventMark::Subject::Prompt;
    const QString label =
        QStringLiteral("%1 %2: %3")
            .arg(lbm::session::interactionKindName(record.kind),
                 lbm::session::timelineEventTypeName(event.type), record.summary.left(60));
    const double between_chunks = chunks_received - 0.5;
    const double at_chunk = static_cast<double>(event.chunk_index.value_or(0));
    switch (event.type) {
    case TimelineEventType::Sent:
        addEventMark({ChartEventMark::Kind::Sent, subject, between_chunks, label});
        break;
    case TimelineEventType::Started:
        // A camera velocity "starts" in every chunk after it is sent; the sent mark says it.
        if (!camera) {
            addEventMark({ChartEventMark::Kind::Started, subject, at_chunk, label});
        }
        break;
    case TimelineEventType::Completed:
        if (!camera) {
            addEventMark({ChartEventMark::Kind::Completed, subject, at_chunk, label});
        }
        break;
    case TimelineEventType::Error:
        addEventMark({ChartEventMark::Kind::Failed, subject, between_chunks,
                      label + QStringLiteral(" — ") + event.detail});
        break;
    default:
        break;
    }
}

void LatencyChartModel::setWaiting(const std::optional<Waiting>& waiting) {
    if (!waiting && !m_waiting) {
        return;
    }
    const bool same_chunk = waiting && m_waiting && waiting->index == m_waiting->index;
    m_waiting = waiting;
    same_chunk ? emit waitingGrew() : emit changed();
}

std::pair<std::size_t, std::size_t> LatencyChartModel::eventsIn(double x0, double x1) const {
    const auto first = std::lower_bound(
        m_events.begin(), m_events.end(), x0,
        [](const ChartEventMark& mark, double position) { return mark.chunk_position < position; });
    const auto last = std::upper_bound(
        first, m_events.end(), x1,
        [](double position, const ChartEventMark& mark) { return position < mark.chunk_position; });
    return {static_cast<std::size_t>(first - m_events.begin()),
            static_cast<std::size_t>(last - m_events.begin())};
}

void LatencyChartModel::setComparison(const std::vector<lbm::ChunkRecord>& records,
                                      const QString& label) {
    m_comparison = records;
    m_comparison_label = label;
    emit changed();
}

void LatencyChartModel::clearComparison() {
    m_comparison.clear();
    m_comparison_label.clear();
    emit changed();
}

void LatencyChartModel::setPrimaryLabel(const QString& label) {
    m_primary_label = label;
    emit changed();
}

int LatencyChartModel::chunkCount() const {
    const auto* source = metrics();
    return source ? source->chunkCount() : 0;
}

const lbm::ChunkRecord& LatencyChartModel::record(int i) const {
    return metrics()->records()[static_cast<std::size_t>(i)];
}

double LatencyChartModel::stallMs(int i) const {
    return metrics()->simulatedStallMs(static_cast<std::size_t>(i));
}

int LatencyChartModel::lateChunkCount() const {
    const auto* source = metrics();
    return source ? source->lateChunkCount() : 0;
}

QString LatencyChartModel::describeChunk(int i) const {
    if (i < 0 || i >= chunkCount()) {
        return {};
    }
    const auto& chunk = record(i);
    const double ms = chunk.interArrivalMs();
    QString text =
        tr("chunk %1: %2 ms after the previous chunk").arg(chunk.index).arg(ms, 0, 'f', 1);
    if (chunk.index == 0) {
        text = tr("chunk 0: first chunk after %1 ms (TTFC)").arg(ms, 0, 'f', 1);
    } else if (ms > m_deadline_ms) {
        text += tr(", late by %1 ms").arg(ms - m_deadline_ms, 0, 'f', 1);
    } else {
        text += tr(", %1 ms to spare").arg(m_deadline_ms - ms, 0, 'f', 1);
    }
    text += tr("\narrived at %1 s · %2 frames · %3 KiB")
                .arg(chunk.arrival_s, 0, 'f', 3)
                .arg(chunk.num_frames)
                .arg(static_cast<double>(chunk.byte_length) / 1024.0, 0, 'f', 1);
    if (stallMs(i) > 0) {
        text +=
            tr("\nthe simulated viewer stalled %1 ms waiting for it").arg(stallMs(i), 0, 'f', 1);
    }
    if (chunk.index < m_warmup_chunks) {
        text += tr("\nwarmup chunk (not in the steady statistics)");
    }
    return text + tr("\nclick to show this chunk");
}

int LatencyChartModel::stallMarkCount() const {
    const auto* source = metrics();
    const auto playback = source ? source->simulatedPlayback() : std::nullopt;
    return playback ? playback->underrun_count : 0;
}

std::optional<double> LatencyChartModel::percentileMs(double fraction) const {
    const auto* source = metrics();
    return source ? source->intervalPercentileMs(fraction) : std::nullopt;
}

bool LatencyChartModel::percentilesAreSteady() const {
    const auto* source = metrics();
    return source && source->percentilesAreSteady();
}

} // namespace lbm::ui
