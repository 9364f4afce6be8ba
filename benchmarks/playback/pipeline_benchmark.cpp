// The decode -> present half of the pipeline, below the session engine: fragmented-MP4
// chunks from the server's own encoder (Fmp4Encoder, barcoded frames) go chunk by chunk into
// StreamDecoder, whose YUV frames go into the picture queue PlaybackClock presents from (as
// the engine and the window's playback feed connect them) and are converted to RGB at display size
// when presented (what the video view does on its converter thread). No network: the stream is
// pre-encoded, so what is measured is decoding and presenting. Three measurements, each
// against a baseline taken in the same run:
//  (a) bytes landed -> first frame presented while the player is stalled waiting for them:
//      pushChunk() to the presenter receiving the frame those bytes complete (checked by its
//      barcode), against one frame period;
//  (b) process CPU (user + sys over wall, % of one core) at 1x real time, against the clock
//      alone presenting ready-made images at the same fps;
//  (c) RSS growth over a 2000-chunk session fed as fast as the pipeline takes it, RSS at
//      chunk 2000 against RSS at chunk 100;
//  (d) (a) on the window's whole path: a SessionEngine session on the built-in simulator,
//      paced slower than playback so every chunk finds the player stalled, its picture queue
//      presented through PlaybackFeed and PlaybackClock as the window does; the engine taking
//      a payload (payloadLanded) -> the frame those bytes complete on screen, against (a).
// Encoding 24000 frames would dominate the run, so the chunks are cut from a pre-encoded
// cycle of frame fragments that restarts at its first frame (an IDR); in (c) the barcodes and
// the container's timestamps therefore repeat every cycle, which the decoder's frame
// numbering (by stream order) does not depend on and which does not matter for memory.
//
// Usage: lbm_playback_pipeline_benchmark [latency_samples=30] [cpu_seconds=10]
//        [memory_chunks=2000] [memory_fps=400]   (latency_samples serves (a) and (d))

#include "app/engine/session_engine.h"
#include "app/media/stream_decoder.h"
#include "app/playback/playback_clock.h"
#include "app/sim/camera_pose.h"
#include "app/sim/fmp4_encoder.h"
#include "app/sim/frame_barcode.h"
#include "app/sim/frame_renderer.h"
#include "benchmarks/benchmark_exit.h"
#include "benchmarks/playback/benchmark_support.h"
#include "metrics/workload.h"
#include "resources/bundled_resources.h"
#include "ui/playback_feed.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QGuiApplication>
#include <QImage>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sys/resource.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using lbm::playback::PlaybackClock;

constexpr int kWidth = 832;
constexpr int kHeight = 480;
constexpr double kStreamFps = 16.0;
constexpr int kFramesPerChunk = 12;
// Pre-encoded frames: enough distinct chunks that (a) and (b) never see a repeated frame.
constexpr int kCycleChunks = 34;
constexpr int kCycleFrames = kCycleChunks * kFramesPerChunk;
// As ui/playback_feed.cpp for a one-chunk start buffer: frames the clock holds ahead.
constexpr int kMaxFramesAhead = 36;
// The size the video view converts to (its picture rect in a 1280x800 window).
const QSize kDisplaySize(640, 369);

using lbm::bench::cpuSeconds;
using lbm::bench::percentileOf;

double residentMegabytes() {
    std::ifstream statm("/proc/self/statm");
    long total_pages = 0;
    long resident_pages = 0;
    statm >> total_pages >> resident_pages;
    return static_cast<double>(resident_pages) * static_cast<double>(sysconf(_SC_PAGESIZE)) /
           (1024.0 * 1024.0);
}

// VmHWM: the process's peak resident set so far.
double peakResidentMegabytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0) {
            return std::stod(line.substr(6)) / 1024.0;
        }
    }
    return 0.0;
}

double millisecondsBetween(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}

// Runs the event loop until done() holds or timeout_s passes; false on timeout. The loop
// sleeps between events as the application's does; a 1 ms timer bounds how late done() is
// noticed when nothing else wakes it.
template <typename Predicate>
bool spinUntil(Predicate done, double timeout_s) {
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(timeout_s));
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.start(1);
    while (!done()) {
        if (Clock::now() > deadline) {
            return false;
        }
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    return true;
}

void runEventLoopFor(double seconds) {
    QEventLoop loop;
    QTimer::singleShot(static_cast<int>(seconds * 1000.0), Qt::PreciseTimer, &loop,
                       &QEventLoop::quit);
    loop.exec();
}

// Position of a box's payload (after size and type) inside bytes, or -1.
qsizetype boxPayload(const QByteArray& bytes, const char* type) {
    const qsizetype at = bytes.indexOf(type);
    return at < 4 ? -1 : at + 4;
}

quint64 readBigEndian(const QByteArray& bytes, qsizetype at, int size) {
    quint64 value = 0;
    for (int i = 0; i < size; ++i) {
        value = (value << 8) | static_cast<quint8>(bytes[at + i]);
    }
    return value;
}

void writeBigEndian(QByteArray& bytes, qsizetype at, int size, quint64 value) {
    for (int i = size - 1; i >= 0; --i) {
        bytes[at + i] = static_cast<char>(value & 0xff);
        value >>= 8;
    }
}

// The fragment's baseMediaDecodeTime (tfdt): its offset and width, so a repeated cycle can
// be moved forward in time and the demuxer sees one continuous stream.
std::pair<qsizetype, int> decodeTimeField(const QByteArray& fragment) {
    const qsizetype payload = boxPayload(fragment, "tfdt");
    if (payload < 0) {
        return {-1, 0};
    }
    return {payload + 4, fragment[payload] == 1 ? 8 : 4};
}

// The server's byte stream, one fragment per frame, so chunks of any global index can be
// cut from it the way the mov muxer delivers them (a chunk's last frame with the next one).
struct EncodedCycle {
    QByteArray init_segment;
    std::vector<QByteArray> fragments; // fragments[i]: moof + mdat of frame i

    double encode_s = 0.0;

    quint64 cycle_duration = 0; // in the track's timescale

    // Frame g of the session: the cycle's fragment for g, moved to the cycle g falls in.
    QByteArray fragmentFor(qint64 frame) const {
        const qint64 cycle = frame / kCycleFrames;
        QByteArray bytes = fragments[static_cast<std::size_t>(frame % kCycleFrames)];
        if (cycle > 0) {
            const auto [at, size] = decodeTimeField(bytes);
            if (at >= 0) {
                writeBigEndian(bytes, at, size,
                               readBigEndian(bytes, at, size) +
                                   static_cast<quint64>(cycle) * cycle_duration);
            }
            const qsizetype sequence = boxPayload(bytes, "mfhd");
            if (sequence >= 0) {
                writeBigEndian(bytes, sequence + 4, 4, static_cast<quint64>(frame + 1));
            }
        }
        return bytes;
    }

    QByteArray chunkBytes(qint64 chunk) const {
        QByteArray bytes;
        const qint64 first = chunk == 0 ? 0 : chunk * kFramesPerChunk - 1;
        const qint64 last = chunk * kFramesPerChunk + kFramesPerChunk - 2;
        if (chunk == 0) {
            bytes = init_segment;
        }
        for (qint64 frame = first; frame <= last; ++frame) {
            bytes += fragmentFor(frame);
        }
        return bytes;
    }
};

EncodedCycle encodeCycle() {
    EncodedCycle cycle;
    const auto began = Clock::now();
    const QImage first_frame = QImage::fromData(lbm::bundledFirstFramePng());
    const lbm::sim::FrameRenderer renderer(first_frame, kWidth, kHeight);
    const auto velocity =
        lbm::sim::CameraVelocity::fromKeys({QStringLiteral("w"), QStringLiteral("l")});
    lbm::sim::FrameState state;
    state.caption = QStringLiteral("a walk through the city");
    lbm::sim::Fmp4Encoder encoder(kWidth, kHeight, static_cast<int>(kStreamFps));
    // One frame more than the cycle: its encode() closes the cycle's last fragment, and
    // finish() (which would append mfra) is never needed.
    for (int frame = 0; frame <= kCycleFrames; ++frame) {
        state.frame_number = frame;
        state.generation_chunk_index = frame / kFramesPerChunk;
        QImage image = renderer.render(state);
        lbm::sim::drawFrameBarcode(image, frame);
        const QByteArray bytes = encoder.encode(image);
        if (frame == 0) {
            cycle.init_segment = bytes;
        } else {
            cycle.fragments.push_back(bytes);
        }
        state.pose = state.pose.advanced(velocity);
    }
    const auto [first_at, first_size] = decodeTimeField(cycle.fragments[0]);
    const auto [second_at, second_size] = decodeTimeField(cycle.fragments[1]);
    if (first_at < 0 || second_at < 0) {
        throw lbm::sim::Fmp4EncoderError("fragments without a tfdt box");
    }
    cycle.cycle_duration = (readBigEndian(cycle.fragments[1], second_at, second_size) -
                            readBigEndian(cycle.fragments[0], first_at, first_size)) *
                           kCycleFrames;
    cycle.encode_s = millisecondsBetween(began, Clock::now()) / 1000.0;
    return cycle;
}

// StreamDecoder -> picture queue -> PlaybackClock -> RGB at display size, as the engine, the
// playback feed and the video view connect them.
class Pipeline {
public:
    Pipeline(const EncodedCycle& cycle, double fps)
        : m_cycle(cycle)
        , m_pictures(std::make_shared<lbm::media::BoundedFrameQueue>(kMaxFramesAhead))
        , m_decoder(decoderOptions(m_pictures)) {
        m_clock.setPresenter([this](const lbm::media::DecodedFrame& frame) {
            m_shown = frame.toImage(kDisplaySize);
            m_shown_at = Clock::now();
        });
        m_clock.setTargetFps(fps);
        m_clock.setStartBufferChunks(1);
        m_clock.reset(m_pictures);
        QObject::connect(&m_decoder, &lbm::media::StreamDecoder::framesAvailable, &m_clock,
                         &PlaybackClock::update);
        QObject::connect(&m_decoder, &lbm::media::StreamDecoder::ended, &m_clock,
                         &PlaybackClock::update);
    }
    ~Pipeline() { m_decoder.abort(); }
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;

    void pushChunk(qint64 chunk) {
        const QByteArray bytes = m_cycle.chunkBytes(chunk);
        lbm::ChunkIdentity info;
        info.transport_index = chunk;
        info.generation_index = chunk;
        info.num_frames = kFramesPerChunk;
        m_decoder.pushChunk(info, bytes);
        m_clock.announceChunk(chunk, kFramesPerChunk);
        ++m_chunks_pushed;
    }
    // The trailer: the last frame's fragment, which the muxer writes only at the end.
    void finish() {
        lbm::ChunkIdentity info;
        info.transport_index = m_chunks_pushed;
        info.kind = lbm::ChunkKind::Trailer;
        m_decoder.pushChunk(info, m_cycle.fragmentFor(m_chunks_pushed * kFramesPerChunk - 1));
        m_decoder.finish();
    }

    PlaybackClock& clock() { return m_clock; }
    // The picture last presented and when.
    const QImage& shown() const { return m_shown; }
    Clock::time_point shownAt() const { return m_shown_at; }
    lbm::media::StreamDecoder& decoder() { return m_decoder; }
    qint64 chunksPushed() const { return m_chunks_pushed; }

private:
    static lbm::media::DecoderOptions
    decoderOptions(std::shared_ptr<lbm::media::BoundedFrameQueue> pictures) {
        lbm::media::DecoderOptions options;
        options.picture_queue = std::move(pictures); // as the engine's decoder
        return options;
    }

    const EncodedCycle& m_cycle;
    std::shared_ptr<lbm::media::BoundedFrameQueue> m_pictures;
    PlaybackClock m_clock;
    QImage m_shown;
    Clock::time_point m_shown_at;
    lbm::media::StreamDecoder m_decoder;
    qint64 m_chunks_pushed = 0;
};

struct LatencyResult {
    std::vector<double> latencies_ms;
    int barcode_mismatches = 0;
    bool timed_out = false;
};

// (a) Each chunk lands only after the player has shown everything before it and stalled,
// plus a varying extra wait, so every push finds the clock waiting for the chunk's first
// frame (the previous chunk's last frame, carried by this chunk's bytes).
LatencyResult measureLatency(const EncodedCycle& cycle, int samples) {
    LatencyResult result;
    Pipeline pipeline(cycle, kStreamFps);
    std::optional<qint64> awaited_frame;
    std::optional<double> landed_ms;
    Clock::time_point pushed_at;
    QObject::connect(&pipeline.clock(), &PlaybackClock::framePresented, &pipeline.clock(),
                     [&](const lbm::media::DecodedFrame& frame) {
                         if (!awaited_frame || landed_ms) {
                             return;
                         }
                         landed_ms = millisecondsBetween(pushed_at, pipeline.shownAt());
                         const auto barcode =
                             lbm::sim::readFrameBarcode(pipeline.shown().scaled(kWidth, kHeight));
                         if (frame.globalFrameNumber() != *awaited_frame ||
                             barcode != *awaited_frame) {
                             ++result.barcode_mismatches;
                         }
                     });
    pipeline.pushChunk(0);
    pipeline.pushChunk(1);
    for (int sample = 0; sample < samples; ++sample) {
        const qint64 chunk = sample + 2;
        if (!spinUntil([&] { return pipeline.clock().state() == PlaybackClock::State::Stalled; },
                       10.0)) {
            result.timed_out = true;
            break;
        }
        // 0..28 ms late on top of the stall, so the push does not line up with any timer.
        const auto extra = std::chrono::milliseconds((sample * 7) % 29);
        const auto wake = Clock::now() + extra;
        spinUntil([&] { return Clock::now() >= wake; }, 1.0);
        awaited_frame = chunk * kFramesPerChunk - 1;
        landed_ms.reset();
        pushed_at = Clock::now();
        pipeline.pushChunk(chunk);
        if (!spinUntil([&] { return landed_ms.has_value(); }, 10.0)) {
            result.timed_out = true;
            break;
        }
        result.latencies_ms.push_back(*landed_ms);
    }
    return result;
}

struct CpuResult {
    double pipeline_percent = 0.0;
    double clock_only_percent = 0.0;
    qint64 frames_presented = 0;
    int stalls = 0;
};

// (b) Chunks land on a real-time schedule one chunk ahead of the playhead, the steady state
// of a healthy session; CPU is taken over the playing span only.
CpuResult measureCpu(const EncodedCycle& cycle, double seconds) {
    CpuResult result;
    const double chunk_s = kFramesPerChunk / kStreamFps;
    {
        Pipeline pipeline(cycle, kStreamFps);
        pipeline.pushChunk(0);
        pipeline.pushChunk(1);
        spinUntil([&] { return pipeline.clock().state() == PlaybackClock::State::Playing; }, 10.0);
        const auto began = Clock::now();
        const double cpu_before = cpuSeconds();
        const qint64 presented_before = pipeline.clock().framesPresented();
        const int stalls_before = pipeline.clock().stalls().count;
        // A timer, as the network would: the event loop sleeps between chunks and frames.
        qint64 next_chunk = 2;
        QTimer arrivals;
        arrivals.setTimerType(Qt::PreciseTimer);
        QObject::connect(&arrivals, &QTimer::timeout, [&] {
            if (next_chunk < kCycleChunks) {
                pipeline.pushChunk(next_chunk++);
            }
        });
        arrivals.start(static_cast<int>(chunk_s * 1000.0));
        runEventLoopFor(seconds);
        const double wall_s = millisecondsBetween(began, Clock::now()) / 1000.0;
        result.pipeline_percent = 100.0 * (cpuSeconds() - cpu_before) / wall_s;
        result.frames_presented = pipeline.clock().framesPresented() - presented_before;
        result.stalls = pipeline.clock().stalls().count - stalls_before;
    }
    {
        // Baseline: the clock and the presenter alone, with decoded frames already in memory.
        std::vector<lbm::media::DecodedFrame> decoded;
        {
            lbm::media::StreamDecoder decoder;
            for (qint64 chunk = 0; chunk < 3; ++chunk) {
                lbm::ChunkIdentity info;
                info.transport_index = chunk;
                info.generation_index = chunk;
                info.num_frames = kFramesPerChunk;
                decoder.pushChunk(info, cycle.chunkBytes(chunk));
            }
            decoder.finish();
            while (const auto frame = decoder.popFrame(-1)) {
                decoded.push_back(*frame);
            }
        }
        const int frames = static_cast<int>(seconds * kStreamFps) + 2;
        auto pictures = std::make_shared<lbm::media::BoundedFrameQueue>(frames);
        PlaybackClock clock;
        QImage shown;
        clock.setPresenter([&shown](const lbm::media::DecodedFrame& frame) {
            shown = frame.toImage(kDisplaySize);
        });
        clock.setTargetFps(kStreamFps);
        clock.reset(pictures);
        clock.announceChunk(0, frames);
        for (int frame = 0; frame < frames; ++frame) {
            const auto& picture = decoded[static_cast<std::size_t>(frame) % decoded.size()];
            lbm::media::FrameTag tag = picture.tag();
            tag.global_frame_number = frame;
            tag.chunk = lbm::ChunkIdentity{0, 0, 0, lbm::ChunkKind::Media};
            tag.index_in_chunk = frame;
            pictures->push(lbm::media::DecodedFrame(picture.avFrame(), tag));
        }
        clock.update();
        const auto began = Clock::now();
        const double cpu_before = cpuSeconds();
        runEventLoopFor(seconds);
        const double wall_s = millisecondsBetween(began, Clock::now()) / 1000.0;
        result.clock_only_percent = 100.0 * (cpuSeconds() - cpu_before) / wall_s;
    }
    return result;
}

struct MemoryResult {
    double rss_start_mb = 0.0; // at chunk 100
    double rss_end_mb = 0.0;   // at the last chunk, everything shown
    double rss_peak_mb = 0.0;  // the process's peak, the earlier measurements included
    qint64 frames_presented = 0;
    qint64 frames_decoded = 0;
    qint64 frames_corrupt = 0;
    int decoder_errors = 0;
    double wall_s = 0.0;
    bool completed = false;
};

// (c) Chunks are pushed whenever the player is fewer than kMaxFramesAhead frames ahead, the
// clock runs at memory_fps so the session takes seconds instead of 25 minutes.
MemoryResult measureMemory(const EncodedCycle& cycle, qint64 chunks, double fps) {
    MemoryResult result;
    const auto began = Clock::now();
    Pipeline pipeline(cycle, fps);
    const qint64 total_frames = chunks * kFramesPerChunk;
    QTimer tick;
    tick.start(1);
    while (pipeline.chunksPushed() < chunks) {
        const qint64 ahead =
            pipeline.chunksPushed() * kFramesPerChunk - pipeline.clock().framesPresented();
        if (ahead < kMaxFramesAhead) {
            pipeline.pushChunk(pipeline.chunksPushed());
            if (pipeline.chunksPushed() == 100) {
                result.rss_start_mb = residentMegabytes();
            }
        }
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        if (millisecondsBetween(began, Clock::now()) > 170000.0) {
            break;
        }
    }
    pipeline.finish();
    result.completed =
        spinUntil([&] { return pipeline.clock().state() == PlaybackClock::State::Finished; },
                  30.0) &&
        pipeline.chunksPushed() == chunks;
    result.rss_end_mb = residentMegabytes();
    // The kernel folds per-thread RSS counters into VmHWM lazily, so it can trail a statm
    // reading by a few pages.
    result.rss_peak_mb =
        std::max({peakResidentMegabytes(), result.rss_start_mb, result.rss_end_mb});
    result.frames_presented = pipeline.clock().framesPresented();
    const lbm::media::DecoderStats stats = pipeline.decoder().stats();
    result.frames_decoded = stats.frames_decoded;
    result.frames_corrupt = stats.frames_corrupt;
    result.decoder_errors = stats.error_count;
    result.completed = result.completed && result.frames_presented == total_frames;
    result.wall_s = millisecondsBetween(began, Clock::now()) / 1000.0;
    return result;
}

} // namespace

struct EnginePathResult {
    std::vector<double> latencies_ms;
    int barcode_mismatches = 0;
    bool ok = false;
    QString note;
};

// (d) The window's path end to end: the engine records, decodes and queues each payload, and
// PlaybackFeed drives the clock from its picture queue. The simulator sends a 12-frame chunk
// every 1.0-1.1 s against 0.75 s of playback, so the player runs dry before each chunk; the
// first frame shown after each stall is the previous chunk's last, which the newly landed
// payload's bytes complete (fragments lag one frame). The first chunks play from the start
// buffer's surplus without a stall, so the session has a few more chunks than samples.
EnginePathResult measureEnginePath(int samples) {
    EnginePathResult result;
    QTemporaryDir dir;
    lbm::engine::SessionEngine engine;
    std::map<qint64, Clock::time_point> landed; // transport index -> when the engine took it
    QObject::connect(&engine, &lbm::engine::SessionEngine::payloadLanded,
                     [&](const lbm::session::ChunkEvent& chunk) {
                         landed[chunk.transportChunkIndex()] = Clock::now();
                     });
    PlaybackClock clock;
    bool after_stall = false;
    QObject::connect(&clock, &PlaybackClock::stallStarted, [&] { after_stall = true; });
    clock.setPresenter([&](const lbm::media::DecodedFrame& frame) {
        const QImage shown = frame.toImage(kDisplaySize); // what the view's converter does
        const auto shown_at = Clock::now();
        if (!std::exchange(after_stall, false)) {
            return;
        }
        const auto carrier = landed.find(frame.tag().carried_by_transport_index);
        if (carrier == landed.end()) {
            return;
        }
        result.latencies_ms.push_back(millisecondsBetween(carrier->second, shown_at));
        const auto barcode = lbm::sim::readFrameBarcode(shown.scaled(kWidth, kHeight));
        if (barcode != frame.globalFrameNumber()) {
            ++result.barcode_mismatches;
        }
    });
    lbm::ui::PlaybackFeed feed(&clock);

    lbm::engine::EngineSettings settings;
    settings.use_simulator = true;
    settings.simulator_profile = QStringLiteral("fixed:1.0:1.1");
    settings.session.workload =
        lbm::defaultWorkload(lbm::bundledFirstFrameDataUrl().toStdString(), samples + 3);
    settings.session.ping_interval_s = 0;
    settings.present_frames = true; // as the window
    settings.analyze_quality = true;
    settings.recording_path = dir.filePath(QStringLiteral("stream.m4s"));
    QString error;
    if (!engine.start(settings, &error)) {
        result.note = error;
        return result;
    }
    feed.attach(&engine);
    const bool finished = spinUntil([&] { return clock.state() == PlaybackClock::State::Finished; },
                                    (samples + 3) * 2.0 + 30);
    result.ok = finished && engine.result() && engine.result()->ok;
    if (!result.ok) {
        result.note = engine.result() ? engine.result()->error : QStringLiteral("timed out");
    }
    return result;
}

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    const int samples = args.size() > 1 ? args.at(1).toInt() : 30;
    const double cpu_seconds = args.size() > 2 ? args.at(2).toDouble() : 10.0;
    const qint64 memory_chunks = args.size() > 3 ? args.at(3).toLongLong() : 2000;
    const double memory_fps = args.size() > 4 ? args.at(4).toDouble() : 400.0;
    if (samples < 1 || samples > kCycleChunks - 2 || cpu_seconds <= 0 ||
        cpu_seconds > (kCycleChunks - 2) * kFramesPerChunk / kStreamFps || memory_chunks < 100 ||
        memory_fps <= 0) {
        std::fprintf(stderr,
                     "usage: lbm_playback_pipeline_benchmark [latency_samples 1..%d] "
                     "[cpu_seconds up to %.0f] [memory_chunks >= 100] [memory_fps > 0]\n",
                     kCycleChunks - 2, (kCycleChunks - 2) * kFramesPerChunk / kStreamFps);
        return 2;
    }
    const double period_ms = 1000.0 / kStreamFps;

    EncodedCycle cycle;
    try {
        cycle = encodeCycle();
    } catch (const std::exception& error) {
        std::fprintf(stderr, "cannot encode the test stream: %s\n", error.what());
        return 2;
    }
    std::printf("stream: %dx%d, %.0f fps, %d frames per chunk; %d frames pre-encoded in %.1f s\n",
                kWidth, kHeight, kStreamFps, kFramesPerChunk, kCycleFrames, cycle.encode_s);

    const LatencyResult latency = measureLatency(cycle, samples);
    const double p50 = percentileOf(latency.latencies_ms, 0.5);
    const double p99 = percentileOf(latency.latencies_ms, 0.99);
    const double max_ms =
        latency.latencies_ms.empty()
            ? 0.0
            : *std::max_element(latency.latencies_ms.begin(), latency.latencies_ms.end());
    std::printf("(a) bytes landed -> first frame on screen, player stalled waiting\n");
    std::printf("    samples=%zu  p50=%.2f ms  p99=%.2f ms  max=%.2f ms%s\n",
                latency.latencies_ms.size(), p50, p99, max_ms,
                latency.timed_out ? "  (TIMED OUT)" : "");
    std::printf("    p99 / frame period (%.1f ms) = %.3f; frame or barcode mismatches: %d "
                "(goal p99 < 15 ms)\n",
                period_ms, p99 / period_ms, latency.barcode_mismatches);

    const CpuResult cpu = measureCpu(cycle, cpu_seconds);
    std::printf("(b) CPU at 1x real time over %.1f s (user+sys / wall, %% of one core)\n",
                cpu_seconds);
    std::printf("    decoder+clock: %.1f%%  (%lld frames shown, %d stalls)\n", cpu.pipeline_percent,
                static_cast<long long>(cpu.frames_presented), cpu.stalls);
    std::printf("    baseline clock + conversion alone, frames decoded in memory: %.1f%%; ratio "
                "%.2f (goal < 30%%)\n",
                cpu.clock_only_percent,
                cpu.clock_only_percent > 0 ? cpu.pipeline_percent / cpu.clock_only_percent : 0.0);

    const MemoryResult memory = measureMemory(cycle, memory_chunks, memory_fps);
    std::printf("(c) RSS over a %lld-chunk session (%lld frames), clock at %.0f fps, %.1f s; "
                "chunks reuse a %d-frame cycle, so barcodes repeat%s\n",
                static_cast<long long>(memory_chunks),
                static_cast<long long>(memory_chunks * kFramesPerChunk), memory_fps, memory.wall_s,
                kCycleFrames, memory.completed ? "" : "  (INCOMPLETE)");
    std::printf("    frames decoded=%lld shown=%lld corrupt=%lld decoder errors=%d\n",
                static_cast<long long>(memory.frames_decoded),
                static_cast<long long>(memory.frames_presented),
                static_cast<long long>(memory.frames_corrupt), memory.decoder_errors);
    std::printf("    RSS at chunk 100: %.1f MB, at chunk %lld: %.1f MB; growth %.1f MB, "
                "end/start %.3f; process peak %.1f MB (goal growth < 100 MB)\n",
                memory.rss_start_mb, static_cast<long long>(memory_chunks), memory.rss_end_mb,
                memory.rss_end_mb - memory.rss_start_mb,
                memory.rss_start_mb > 0 ? memory.rss_end_mb / memory.rss_start_mb : 0.0,
                memory.rss_peak_mb);

    const EnginePathResult engine_path = measureEnginePath(samples);
    const double engine_p50 = percentileOf(engine_path.latencies_ms, 0.5);
    const double engine_p99 = percentileOf(engine_path.latencies_ms, 0.99);
    std::printf("(d) the window's path (SessionEngine on the simulator, PlaybackFeed, the clock): "
                "payload taken by the engine -> the frame it completes on screen, after a stall\n");
    std::printf(
        "    samples=%zu  p50=%.2f ms  p99=%.2f ms; barcode mismatches: %d%s\n",
        engine_path.latencies_ms.size(), engine_p50, engine_p99, engine_path.barcode_mismatches,
        engine_path.ok ? "" : qPrintable(QStringLiteral("  (FAILED: %1)").arg(engine_path.note)));
    std::printf("    p99 against (a)'s decoder -> clock path: %.2fx (goal p99 < 15 ms)\n",
                p99 > 0 ? engine_p99 / p99 : 0.0);

    const bool correct = !latency.timed_out && latency.barcode_mismatches == 0 &&
                         memory.completed && engine_path.ok &&
                         engine_path.barcode_mismatches == 0 && !engine_path.latencies_ms.empty();
    const bool met = p99 < 15.0 && engine_p99 < 15.0 && cpu.pipeline_percent < 30.0 &&
                     memory.rss_end_mb - memory.rss_start_mb < 100.0;
    std::printf("all goals met: %s\n", correct && met ? "yes" : "no");
    return lbm::benchmarks::exitCodeFor(correct, met);
}
