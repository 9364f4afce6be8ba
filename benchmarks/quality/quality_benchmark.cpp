// What the visual quality analysis costs, against decoding the same stream in the same run.
// The stream is the simulator's own picture (its first frame under the orbit camera, with a
// prompt transition), encoded as the server does, decoded single-threaded. Per pass:
//
//   decode only          the baseline: process CPU per frame (decoder thread + consumer)
//   decode + analysis    QualityAnalyzer::addFrame on every decoded frame, timed with the
//                        consumer thread's CPU clock; also the process CPU over the baseline
//   decode + worker      QualityWorker::pushFrame (what a caller pays) and the process CPU
//                        over the baseline (what the worker thread adds)
//   decode + libavfilter FilterGraphProbe (crop, signalstats, blurdetect) on every frame:
//                        the filter-graph alternative to our own sums
//
// Requirements (issue 15): the analysis keeps up at >= 10x real time at 16 fps on one core,
// and adds <= 3 % of one core at 1x playback. Best of REPEATS interleaved runs.
//
// Usage: lbm_quality_benchmark [CHUNKS] [REPEATS]   (defaults: 60 chunks, 3 repeats)

#include "app/media/stream_decoder.h"
#include "app/quality/chunk_context_builder.h"
#include "app/quality/quality_analyzer.h"
#include "app/quality/quality_worker.h"
#include "app/sim/fmp4_encoder.h"
#include "app/sim/frame_renderer.h"
#include "app/sim/interaction_engine.h"
#include "benchmarks/benchmark_exit.h"
#include "metrics/camera_script.h"
#include "resources/bundled_resources.h"
#include "tests/quality/filter_graph_probe.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>

extern "C" {
#include <libavutil/log.h>
}

#include <algorithm>
#include <ctime>
#include <functional>
#include <limits>
#include <thread>
#include <vector>

using lbm::ChunkIdentity;
using lbm::ChunkKind;

namespace {

constexpr int kWidth = 832;
constexpr int kHeight = 480;
constexpr int kFps = 16;

struct Chunk {
    ChunkIdentity info;
    QByteArray bytes;
    lbm::quality::ChunkContext context;
};

double cpuSeconds(clockid_t clock) {
    timespec now{};
    clock_gettime(clock, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

// The simulator's picture: the bundled first frame under the orbit camera script, a prompt
// transition over three chunks from chunk 4, encoded with the server's settings.
std::vector<Chunk> buildStream(int chunk_count, qint64& total_frames) {
    lbm::sim::KeyScript script;
    for (const lbm::ChunkActions& actions : lbm::buildCameraScript(chunk_count, "orbit")) {
        std::vector<std::vector<QString>> latent;
        for (const lbm::FrameActions& keys : actions) {
            std::vector<QString> frame_keys;
            for (const std::string& key : keys) {
                frame_keys.push_back(QString::fromStdString(key));
            }
            latent.push_back(frame_keys);
        }
        script.push_back(latent);
    }
    lbm::sim::InteractionEngine engine(QStringLiteral("A village road at sunset."), script);
    const lbm::sim::FrameRenderer renderer(QImage::fromData(lbm::bundledFirstFramePng()), kWidth,
                                           kHeight);
    lbm::sim::Fmp4Encoder encoder(kWidth, kHeight, kFps);
    lbm::quality::ChunkContextBuilder contexts;
    contexts.addPrompt(QStringLiteral("p"), 3);
    std::vector<Chunk> chunks;
    qint64 number = 0;
    for (int index = 0; index < chunk_count; ++index) {
        if (index == 4) {
            engine.queuePrompt(QStringLiteral("p"), QStringLiteral("A misty lake at dawn."), 3);
        }
        const lbm::sim::ChunkPlan plan = engine.planChunk(index, index == 0 ? 9 : 12, number);
        Chunk chunk;
        chunk.info =
            ChunkIdentity{index, index, static_cast<int>(plan.frames.size()), ChunkKind::Media};
        for (const lbm::sim::FrameState& state : plan.frames) {
            chunk.bytes += encoder.encode(renderer.render(state));
        }
        number += static_cast<qint64>(plan.frames.size());
        chunk.context = contexts.build(index, plan.started_event_ids, plan.active_event_ids,
                                       plan.completed_event_ids);
        chunk.context.camera_moving = true;
        chunks.push_back(chunk);
    }
    chunks.push_back(Chunk{
        ChunkIdentity{chunk_count, std::nullopt, 0, ChunkKind::Trailer}, encoder.finish(), {}});
    total_frames = number;
    return chunks;
}

struct Pass {
    qint64 frames = 0;
    double process_cpu_s = 0.0;  // the whole process during the pass
    double consumer_cpu_s = 0.0; // inside the timed per-frame call on the consumer thread
    double wall_s = 0.0;
};

// Decodes the stream single-threaded; per_frame runs on the consumer thread for every frame
// (timed with that thread's CPU clock), on_context before each chunk's bytes are pushed.
Pass decodePass(const std::vector<Chunk>& chunks,
                const std::function<void(const lbm::quality::ChunkContext&)>& on_context,
                const std::function<void(const lbm::media::DecodedFrame&)>& per_frame,
                const std::function<void()>& at_end) {
    lbm::media::DecoderOptions options;
    options.thread_count = 1;
    const double process_start = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
    QElapsedTimer wall;
    wall.start();
    Pass pass;
    {
        lbm::media::StreamDecoder decoder(options);
        std::thread producer([&] {
            for (const Chunk& chunk : chunks) {
                if (on_context && chunk.info.kind == ChunkKind::Media) {
                    on_context(chunk.context);
                }
                decoder.pushChunk(chunk.info, chunk.bytes);
            }
            decoder.finish();
        });
        while (auto frame = decoder.popFrame(-1)) {
            ++pass.frames;
            if (per_frame) {
                const double start = cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
                per_frame(*frame);
                pass.consumer_cpu_s += cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - start;
            }
        }
        producer.join();
        if (at_end) {
            at_end();
        }
    }
    pass.wall_s = static_cast<double>(wall.nsecsElapsed()) / 1e9;
    pass.process_cpu_s = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - process_start;
    return pass;
}

struct Best {
    double process_cpu_s = std::numeric_limits<double>::infinity();
    double consumer_cpu_s = std::numeric_limits<double>::infinity();
    qint64 frames = 0;
    void add(const Pass& pass) {
        process_cpu_s = std::min(process_cpu_s, pass.process_cpu_s);
        consumer_cpu_s = std::min(consumer_cpu_s, pass.consumer_cpu_s);
        frames = pass.frames;
    }
    double processMsPerFrame() const {
        return 1000.0 * process_cpu_s / static_cast<double>(frames);
    }
    double consumerMsPerFrame() const {
        return 1000.0 * consumer_cpu_s / static_cast<double>(frames);
    }
};

QString ms(double value) {
    return QString::number(value, 'f', 3) + QStringLiteral(" ms");
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    av_log_set_level(AV_LOG_ERROR);
    QTextStream out(stdout);
    const int chunk_count = argc > 1 ? std::max(8, QString::fromLocal8Bit(argv[1]).toInt()) : 60;
    const int repeats = argc > 2 ? std::max(1, QString::fromLocal8Bit(argv[2]).toInt()) : 3;

    QElapsedTimer build_timer;
    build_timer.start();
    qint64 total_frames = 0;
    const std::vector<Chunk> chunks = buildStream(chunk_count, total_frames);
    out << "stream: " << chunk_count << " chunks, " << total_frames << " frames " << kWidth << "x"
        << kHeight << " ("
        << QString::number(static_cast<double>(total_frames) / double(kFps), 'f', 1)
        << " s of video at " << kFps << " fps; built in "
        << QString::number(static_cast<double>(build_timer.elapsed()) / 1000.0, 'f', 1) << " s)\n";
    out << "decoder: single-threaded; best of " << repeats << " interleaved runs\n\n";
    out.flush();

    Best decode_only;
    Best analysis;
    Best worker;
    Best filters;
    qint64 flagged = 0;
    for (int repeat = 0; repeat < repeats; ++repeat) {
        decode_only.add(decodePass(chunks, {}, {}, {}));

        // Contexts come from chunk metadata, ahead of the chunk's frames: all of them are
        // known here, so they go in first and every chunk is evaluated inside addFrame().
        lbm::quality::QualityAnalyzer analyzer;
        for (const Chunk& chunk : chunks) {
            if (chunk.info.kind == ChunkKind::Media) {
                analyzer.setChunkContext(chunk.context);
            }
        }
        analysis.add(decodePass(
            chunks, {}, [&](const lbm::media::DecodedFrame& frame) { analyzer.addFrame(frame); },
            [&] { analyzer.finish(); }));
        flagged = static_cast<qint64>(std::count_if(
            analyzer.chunks().cbegin(), analyzer.chunks().cend(),
            [](const lbm::quality::ChunkQuality& chunk) { return bool(chunk.flags); }));

        lbm::quality::QualityWorker quality_worker;
        worker.add(decodePass(
            chunks,
            [&](const lbm::quality::ChunkContext& context) {
                quality_worker.setChunkContext(context);
            },
            [&](const lbm::media::DecodedFrame& frame) { quality_worker.pushFrame(frame); },
            [&] {
                quality_worker.finish();
                quality_worker.waitForFinished(600000);
            }));

        lbm::quality::FilterGraphProbe probe;
        filters.add(decodePass(chunks, {},
                               [&](const lbm::media::DecodedFrame& frame) {
                                   QString error;
                                   probe.measure(*frame.avFrame(), &error);
                               },
                               {}));
    }

    const double frame_period_ms = 1000.0 / kFps;
    const double decode_ms = decode_only.processMsPerFrame();
    const double analysis_ms = analysis.consumerMsPerFrame();
    const double worker_added_ms = worker.processMsPerFrame() - decode_ms;
    const double realtime_factor = frame_period_ms / analysis_ms;
    const double core_share = analysis_ms / frame_period_ms;
    const double worker_share = worker_added_ms / frame_period_ms;
    out << "decode only (baseline)       " << ms(decode_ms) << " CPU per frame ("
        << QString::number(100.0 * decode_ms / frame_period_ms, 'f', 2) << " % of a core at 1x)\n";
    out << "analysis (QualityAnalyzer)   " << ms(analysis_ms)
        << " CPU per frame = " << QString::number(analysis_ms / decode_ms, 'f', 3)
        << "x the decode\n";
    out << "  process CPU over baseline  " << ms(analysis.processMsPerFrame() - decode_ms)
        << " per frame\n";
    out << "  chunks flagged             " << flagged << " of " << chunk_count
        << " (a clean stream: expected 0)\n";
    out << "worker (QualityWorker)       pushFrame " << ms(worker.consumerMsPerFrame())
        << " per frame on the caller; the process " << ms(worker_added_ms)
        << " per frame over the baseline\n";
    out << "libavfilter alternative      " << ms(filters.consumerMsPerFrame())
        << " CPU per frame (signalstats + blurdetect) = "
        << QString::number(filters.consumerMsPerFrame() / analysis_ms, 'f', 1)
        << "x our analysis\n\n";

    const bool fast_enough = realtime_factor >= 10.0;
    const bool light_enough = core_share <= 0.03 && worker_share <= 0.03;
    out << "real-time factor on one core at " << kFps
        << " fps: " << QString::number(realtime_factor, 'f', 1)
        << "x  (required >= 10x: " << (fast_enough ? "met" : "NOT met") << ")\n";
    out << "share of one core at 1x: analysis " << QString::number(100.0 * core_share, 'f', 2)
        << " %, through the worker " << QString::number(100.0 * worker_share, 'f', 2)
        << " %  (required <= 3 %: " << (light_enough ? "met" : "NOT met") << ")\n";
    return lbm::benchmarks::exitCodeFor(flagged == 0, fast_enough && light_enough);
}
