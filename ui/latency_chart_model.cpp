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
