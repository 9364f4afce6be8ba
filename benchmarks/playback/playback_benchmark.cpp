// How precisely frames reach the view: p50/p99/max of |actual - ideal| presentation time at
// 16 fps for the PlaybackClock (anchored slots, precise timer) and, as the baseline in the
// same run, a repeating 62 ms QTimer of the kind a naive player uses (whose error grows as
// its interval rounding and wake-up latency accumulate). Also the process CPU per second of
// playback. Usage: lbm_playback_benchmark [seconds=10] [fps=16]

#include "app/media/bounded_frame_queue.h"
#include "app/playback/playback_clock.h"
#include "benchmarks/benchmark_exit.h"
#include "benchmarks/playback/benchmark_support.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QImage>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sys/resource.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

using lbm::bench::cpuSeconds;
using lbm::bench::percentileOf;

void report(const char* name, const std::vector<double>& errors_ms) {
    std::printf("%-28s frames=%5zu  p50=%7.3f ms  p99=%7.3f ms  max=%7.3f ms\n", name,
                errors_ms.size(), percentileOf(errors_ms, 0.5), percentileOf(errors_ms, 0.99),
                errors_ms.empty() ? 0.0 : *std::max_element(errors_ms.begin(), errors_ms.end()));
}

} // namespace

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    const double seconds = args.size() > 1 ? args.at(1).toDouble() : 10.0;
    const double fps = args.size() > 2 ? args.at(2).toDouble() : 16.0;
    const int frames = static_cast<int>(seconds * fps);
    const double period_ms = 1000.0 / fps;

    // The clock, presenting frames to a view that takes them (the timing under test).
    auto pictures = std::make_shared<lbm::media::BoundedFrameQueue>(frames);
    lbm::playback::PlaybackClock clock;
    clock.setPresenter([](const lbm::media::DecodedFrame&) {});
    clock.setTargetFps(fps);
    clock.reset(pictures);
    std::vector<Clock::time_point> shown;
    QObject::connect(&clock, &lbm::playback::PlaybackClock::framePresented,
                     [&] { shown.push_back(Clock::now()); });
    clock.announceChunk(0, frames);
    const double cpu_before = cpuSeconds();
    for (int i = 0; i < frames; ++i) {
        lbm::media::FrameTag tag;
        tag.global_frame_number = i;
        tag.chunk = lbm::ChunkIdentity{0, 0, 0, lbm::ChunkKind::Media};
        tag.index_in_chunk = i;
        pictures->push(lbm::media::DecodedFrame(tag));
    }
    pictures->close();
    clock.update();
    while (clock.state() != lbm::playback::PlaybackClock::State::Finished) {
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    const double clock_cpu = cpuSeconds() - cpu_before;
    // The ideal grid's phase is the median offset of the frames from it, so a one-off
    // slow first frame (first-time allocations) does not shift every error.
    const auto errorsAgainstGrid = [period_ms](const std::vector<Clock::time_point>& times) {
        std::vector<double> offsets;
        for (std::size_t i = 0; i < times.size(); ++i) {
            offsets.push_back(
                std::chrono::duration<double, std::milli>(times[i] - times.front()).count() -
                static_cast<double>(i) * period_ms);
        }
        const double phase = percentileOf(offsets, 0.5);
        std::vector<double> errors;
        for (const double offset : offsets) {
            errors.push_back(std::abs(offset - phase));
        }
        return errors;
    };
    const std::vector<double> clock_errors = errorsAgainstGrid(shown);

    // Baseline: a repeating timer at the rounded period.
    std::vector<Clock::time_point> ticks;
    QTimer naive;
    naive.setInterval(static_cast<int>(period_ms));
    QObject::connect(&naive, &QTimer::timeout, [&] {
        ticks.push_back(Clock::now());
        if (static_cast<int>(ticks.size()) >= frames) {
            naive.stop();
        }
    });
    naive.start();
    while (naive.isActive()) {
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    const std::vector<double> naive_errors = errorsAgainstGrid(ticks);

    std::printf("presentation error |actual - ideal| at %.2f fps over %.1f s\n", fps, seconds);
    report("PlaybackClock", clock_errors);
    report("baseline: repeating QTimer", naive_errors);
    const double p99_clock = percentileOf(clock_errors, 0.99);
    const double p99_naive = percentileOf(naive_errors, 0.99);
    std::printf("p99 ratio clock / baseline: %.3f (goal: clock p99 < 5 ms)\n",
                p99_naive > 0 ? p99_clock / p99_naive : 0.0);
    std::printf("CPU while presenting: %.1f%% of one core (goal < 30%%)\n",
                100.0 * clock_cpu / seconds);
    return lbm::benchmarks::exitCodeFor(true, p99_clock < 5.0);
}
