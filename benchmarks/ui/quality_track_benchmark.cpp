// What the visual quality views cost per analysed chunk as a session grows: a chunk's result
// reaches the quality track (synced under a latency chart that follows the latest chunks, the
// window's live default) and the quality counters; the track redraws and paints. The same
// ticks are timed with 50 and with 5,000 chunks already analysed, in one process, interleaved
// in rounds so machine noise hits both alike; the median per-tick time of each and their
// ratio are printed (goal: 5,000 within 1.2x of 50: the live views read only what is visible).
// The whole-session view is timed the same way for information (decimated to 800 columns).
//
// Usage: QT_QPA_PLATFORM=offscreen lbm_quality_track_benchmark [ticks_per_round=40] [rounds=9]

#include "benchmarks/benchmark_exit.h"
#include "metrics/geometry.h"
#include "metrics/live_session_metrics.h"
#include "ui/latency_chart.h"
#include "ui/latency_chart_model.h"
#include "ui/quality_counters_panel.h"
#include "ui/quality_track.h"

#include <QApplication>
#include <QPixmap>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using lbm::quality::ChunkQuality;
using lbm::quality::QualityFlag;

// A session's chunks and their quality: ordinary signals, a flag now and then.
class Feed {
public:
    std::pair<lbm::ChunkRecord, ChunkQuality> next() {
        lbm::ChunkRecord record;
        record.index = m_index;
        record.inter_arrival_s = m_index == 0 ? 1.5 : m_interval(m_random);
        m_arrival += record.inter_arrival_s;
        record.arrival_s = m_arrival;
        record.num_frames = lbm::pixelFramesInChunk(m_index);
        record.byte_length = 90000;
        ChunkQuality quality;
        quality.generation_index = m_index;
        quality.frame_count = record.num_frames;
        if (m_index > 0) {
            quality.seam_score = m_signal(m_random) * 1.5;
        }
        quality.sharpness_ratio = 1.0 - m_signal(m_random) * 0.2;
        quality.chroma_drift = m_signal(m_random) * 2.0;
        quality.in_transition = m_index % 40 < 3;
        if (m_index % 97 == 50) {
            quality.flags = QualityFlag::Seam;
            quality.seam_score = 9.0;
        }
        quality.is_final = true;
        ++m_index;
        return {record, quality};
    }

private:
    std::mt19937 m_random{42};
    std::uniform_real_distribution<double> m_interval{0.65, 0.90};
    std::uniform_real_distribution<double> m_signal{0.0, 1.0};
    std::int64_t m_index = 0;
    double m_arrival = 0.0;
};

struct QualityView {
    QualityView(int chunks_before, bool follow)
        : metrics(lbm::MetricsOptions{}) {
        auto* layout = new QVBoxLayout(&column);
        layout->addWidget(chart);
        layout->addWidget(track);
        column.resize(1200, 600);
        chart->setFollow(follow);
        chart->model()->attach(&metrics, 0);
        track->syncWith(chart);
        for (int i = 0; i < chunks_before; ++i) {
            const auto [record, quality] = feed.next();
            metrics.addRecord(record);
            track->addChunk(quality);
            counters.addChunk(quality);
        }
        chart->model()->chunkAdded();
        chart->flush();
        tick(); // warm: first layout and paint
    }

    // The quality views' share of a chunk (the chart's own cost is the live view benchmark's).
    void tick() {
        const auto [record, quality] = feed.next();
        metrics.addRecord(record);
        chart->model()->chunkAdded();
        chart->flush(); // the axis the track follows
        const auto began = Clock::now();
        track->addChunk(quality);
        counters.addChunk(quality);
        track->flush();
        pixmap = track->grab(); // paint it, as the screen would
        spent_us += std::chrono::duration<double, std::micro>(Clock::now() - began).count();
    }

    lbm::LiveSessionMetrics metrics;
    Feed feed;
    QWidget column;
    lbm::ui::LatencyChart* chart = new lbm::ui::LatencyChart();
    lbm::ui::QualityTrack* track = new lbm::ui::QualityTrack();
    lbm::ui::QualityCountersPanel counters;
    QPixmap pixmap;
    double spent_us = 0.0;
};

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values.empty() ? 0.0 : values[values.size() / 2];
}

std::pair<double, double> compare(QualityView& small, QualityView& large, int ticks, int rounds) {
    std::vector<double> small_us;
    std::vector<double> large_us;
    for (int round = 0; round < rounds; ++round) {
        for (QualityView* view : {&small, &large}) {
            view->spent_us = 0.0;
            for (int i = 0; i < ticks; ++i) {
                view->tick();
            }
            (view == &small ? small_us : large_us).push_back(view->spent_us / ticks);
        }
    }
    return {median(small_us), median(large_us)};
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    const int ticks = args.size() > 1 ? args.at(1).toInt() : 40;
    const int rounds = args.size() > 2 ? args.at(2).toInt() : 9;
    if (ticks < 1 || rounds < 1) {
        std::fprintf(stderr, "usage: lbm_quality_track_benchmark [ticks_per_round>0] [rounds>0]\n");
        return 2;
    }
    std::printf("per tick: one chunk's quality reaches the track and the counters, the track "
                "redraws and paints (1200 wide); %d ticks x %d rounds, medians\n",
                ticks, rounds);
    QualityView follow_small(50, true);
    QualityView follow_large(5000, true);
    const auto [follow_50, follow_5000] = compare(follow_small, follow_large, ticks, rounds);
    const double ratio = follow_5000 / follow_50;
    std::printf("follow latest:  at 50 chunks %8.1f us, at 5000 chunks %8.1f us, ratio %.3f "
                "(goal <= 1.2)\n",
                follow_50, follow_5000, ratio);
    QualityView whole_small(50, false);
    QualityView whole_large(5000, false);
    const auto [whole_50, whole_5000] = compare(whole_small, whole_large, ticks, rounds);
    std::printf("whole session:  at 50 chunks %8.1f us, at 5000 chunks %8.1f us, ratio %.3f "
                "(information: at most 800 columns)\n",
                whole_50, whole_5000, whole_5000 / whole_50);
    std::printf("goal met: %s\n", ratio <= 1.2 ? "yes" : "no");
    return lbm::benchmarks::exitCodeFor(true, ratio <= 1.2);
}
