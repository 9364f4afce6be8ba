#pragma once
// The steering strip under the Quality track: per chunk, on the latency chart's chunk axis,
// the camera command in force (its keys, top row) and how the picture moved (bottom row: the
// share of frames that followed the command, full height when all did; a red "A" where the
// chunk is flagged `action`), with a tick where a command got its first response. Reads the
// quality analysis' steering fields (app/quality/steering_judge.h); paints itself, no chart.

#include "app/quality/chunk_quality.h"
#include "app/quality/steering_summary.h"

#include <QPointer>
#include <QWidget>

#include <map>
#include <optional>
#include <utility>

namespace lbm::ui {

class LatencyChart;

class SteeringStrip : public QWidget {
    Q_OBJECT

public:
    explicit SteeringStrip(QWidget* parent = nullptr);

    // Follow this chart's chunk range and plot edges (nullptr: chunks 0..newest over the width).
    void syncWith(LatencyChart* chart);
    void setChunks(const std::vector<quality::ChunkQuality>& chunks);
    void addChunk(const quality::ChunkQuality& chunk);
    void clear();

    const quality::SteeringSummary& summary() const { return m_summary; }
    // "key 'w' 312 ms (1 chunk)" for the HUD, or empty before any response.
    QString lastResponseText() const;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Column {
        QString keys;
        bool moves = false;
        std::optional<double> following;
        bool action = false;
        bool responded = false;
    };
    // The chunk range shown and the plot's left and right edges in this widget's pixels.
    std::pair<double, double> chunkRange() const;
    std::pair<int, int> plotEdges() const;

    std::map<qint64, Column> m_columns;
    quality::SteeringSummary m_summary;
    QPointer<LatencyChart> m_chart;
};

} // namespace lbm::ui
