// What one tick of the live view costs as a session grows: a chunk lands in the live metrics
// model, the counters read it (as the window's 25 Hz refresh does) and the latency chart
// redraws and paints (follow-latest, the live default). The same ticks are timed with 50 and
// with 5,000 chunks already received, in one process, interleaved in rounds so machine noise
// hits both alike; the median per-tick time of each and their ratio are printed (goal: 5,000
// within 1.2x of 50). The whole-session view is timed the same way for information: it
// decimates to at most 800 bars, so its cost grows with the session until that cap.
//
// Usage: QT_QPA_PLATFORM=offscreen lbm_live_view_benchmark [ticks_per_round=40] [rounds=9]

#include "benchmarks/benchmark_exit.h"
#include "metrics/geometry.h"
#include "metrics/live_session_metrics.h"
#include "ui/counters_panel.h"
#include "ui/latency_chart.h"
#include "ui/latency_chart_model.h"

#include <QApplication>
#include <QPixmap>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// A session's chunks: TTFC 1.5 s, then 650-900 ms apart (some late against 750 ms).
class SessionFeed {
public:
    lbm::ChunkRecord next() {
        lbm::ChunkRecord record;
        record.index = m_index;
        record.inter_arrival_s = m_index == 0 ? 1.5 : m_interval(m_random);
        m_arrival += record.inter_arrival_s;
        record.arrival_s = m_arrival;
        record.num_frames = lbm::pixelFramesInChunk(m_index);
        record.byte_length = 90000;
        ++m_index;
        return record;
    }

private:
    std::mt19937 m_random{42};
    std::uniform_real_distribution<double> m_interval{0.65, 0.90};
    std::int64_t m_index = 0;
    double m_arrival = 0.0;
};

// One live view: the model every surface reads, the counters and the chart.
struct LiveView {
    explicit LiveView(int chunks_before, bool follow)
        : metrics(lbm::MetricsOptions{}) {
        counters.reset(0, 0, metrics.deadlineMs());
        chart.resize(1200, 330);
        chart.setFollow(follow);
        chart.model()->attach(&metrics, 0);
        for (int i = 0; i < chunks_before; ++i) {
            metrics.addRecord(feed.next());
        }
        chart.model()->chunkAdded();
        tick(); // warm: first layout and paint
    }

    void tick() {
        metrics.addRecord(feed.next());
        chart.model()->chunkAdded();
        const auto& records = metrics.records();
        if (const auto m =
                metrics.tryMetrics(records.front().arrival_s, records.back().arrival_s)) {
            counters.showMetrics(*m, false);
        }
        const double now = records.back().arrival_s + 0.1;
        counters.showSimulatedPlayback(metrics.simulatedPlayback(),
                                       metrics.playback().bufferedAheadSeconds(now),
                                       metrics.playback().stalledAt(now));
        chart.flush();
        pixmap = chart.grab(); // paint it, as the screen would
    }

    lbm::LiveSessionMetrics metrics;
    SessionFeed feed;
    lbm::ui::CountersPanel counters;
    lbm::ui::LatencyChart chart;
    QPixmap pixmap;
};

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values.empty() ? 0.0 : values[values.size() / 2];
}

// Median microseconds per tick of each view, over rounds that alternate between them.
std::pair<double, double> compare(LiveView& small, LiveView& large, int ticks, int rounds) {
    std::vector<double> small_us;
    std::vector<double> large_us;
    for (int round = 0; round < rounds; ++round) {
        for (LiveView* view : {&small, &large}) {
            const auto began = Clock::now();
            for (int i = 0; i < ticks; ++i) {
                view->tick();
            }
            const double us =
                std::chrono::duration<double, std::micro>(Clock::now() - began).count() / ticks;
            (view == &small ? small_us : large_us).push_back(us);
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
        std::fprintf(stderr, "usage: lbm_live_view_benchmark [ticks_per_round>0] [rounds>0]\n");
        return 2;
    }
    std::printf("per tick: one chunk lands, counters refresh, chart redraws and paints "
                "(1200x330); %d ticks x %d rounds, medians\n",
                ticks, rounds);
    LiveView follow_small(50, true);
    LiveView follow_large(5000, true);
    const auto [follow_50, follow_5000] = compare(follow_small, follow_large, ticks, rounds);
    const double ratio = follow_5000 / follow_50;
    std::printf("follow latest:  at 50 chunks %8.1f us, at 5000 chunks %8.1f us, ratio %.3f "
                "(goal <= 1.2)\n",
                follow_50, follow_5000, ratio);
    LiveView whole_small(50, false);
    LiveView whole_large(5000, false);
    const auto [whole_50, whole_5000] = compare(whole_small, whole_large, ticks, rounds);
    std::printf("whole session:  at 50 chunks %8.1f us, at 5000 chunks %8.1f us, ratio %.3f "
                "(information: at most 800 bars)\n",
                whole_50, whole_5000, whole_5000 / whole_50);
    std::printf("goal met: %s\n", ratio <= 1.2 ? "yes" : "no");
    return lbm::benchmarks::exitCodeFor(true, ratio <= 1.2);
}
