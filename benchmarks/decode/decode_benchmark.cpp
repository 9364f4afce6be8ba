// Decode throughput of StreamDecoder (chunks pushed one by one from a producer thread, frames
// popped by a consumer) against `ffmpeg -i stream.m4s -f null -` on the same file in the same
// run, single-threaded and with default threading. Ratio = our frames/s over ffmpeg's
// (goal >= 0.9). ffmpeg's time is its own -benchmark rtime, which excludes process start-up
// and input probing, so the comparison does not flatter us.
//
// Usage: lbm_decode_benchmark [CHUNKS] [REPEATS]   (defaults: 200 chunks, 3 repeats, best kept)

#include "app/media/av_ptr.h"
#include "app/media/decoded_frame.h"
#include "app/media/stream_decoder.h"
#include "app/sim/fmp4_encoder.h"
#include "app/sim/frame_barcode.h"
#include "benchmarks/benchmark_exit.h"
#include "resources/bundled_resources.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextStream>

extern "C" {
#include <libavutil/log.h>
}

#include <algorithm>
#include <limits>
#include <optional>
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
};

// The bundled first frame panning sideways: every frame differs (real P-frame residuals, as
// generated video has) while costing one blit to draw.
std::vector<Chunk> buildStream(int chunk_count, qint64& total_frames) {
    const QImage base = QImage::fromData(lbm::bundledFirstFramePng())
                            .convertToFormat(QImage::Format_RGB32)
                            .scaled(kWidth, kHeight);
    lbm::sim::Fmp4Encoder encoder(kWidth, kHeight, kFps);
    std::vector<Chunk> chunks;
    QImage frame(kWidth, kHeight, QImage::Format_RGB32);
    qint64 number = 0;
    for (int index = 0; index < chunk_count; ++index) {
        Chunk chunk;
        chunk.info = ChunkIdentity{index, index, index == 0 ? 9 : 12, ChunkKind::Media};
        for (int i = 0; i < chunk.info.num_frames; ++i) {
            const int shift = static_cast<int>((number * 3) % kWidth);
            {
                QPainter painter(&frame);
                painter.drawImage(-shift, 0, base);
                painter.drawImage(kWidth - shift, 0, base);
            }
            lbm::sim::drawFrameBarcode(frame, number++);
            chunk.bytes += encoder.encode(frame);
        }
        chunks.push_back(chunk);
    }
    chunks.push_back(
        Chunk{ChunkIdentity{chunk_count, std::nullopt, 0, ChunkKind::Trailer}, encoder.finish()});
    total_frames = number;
    return chunks;
}

struct Run {
    double seconds = 0.0;
    qint64 frames = 0;
    bool ok = false;
    QString note;
};

Run runOurs(const std::vector<Chunk>& chunks, int threads, bool low_latency) {
    lbm::media::DecoderOptions options;
    options.thread_count = threads;
    options.low_latency = low_latency;
    QElapsedTimer timer;
    timer.start();
    lbm::media::StreamDecoder decoder(options);
    // The network thread's role: push each payload and move on.
    std::thread producer([&] {
        for (const Chunk& chunk : chunks) {
            decoder.pushChunk(chunk.info, chunk.bytes);
        }
        decoder.finish();
    });
    Run run;
    qint64 expected_barcode = 0;
    bool in_order = true;
    while (auto frame = decoder.popFrame(-1)) {
        // Spot-check order without turning the consumer into the bottleneck.
        if (run.frames % 256 == 0) {
            const auto code = lbm::sim::readFrameBarcodeLuma(frame->lumaData(), frame->lumaStride(),
                                                             frame->width(), frame->height());
            in_order = in_order && code == std::optional<qint64>(expected_barcode);
        }
        ++run.frames;
        ++expected_barcode;
    }
    run.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    producer.join();
    const auto stats = decoder.stats();
    run.ok =
        stats.state == lbm::media::DecoderState::Finished && stats.error_count == 0 && in_order;
    if (!run.ok) {
        run.note = stats.first_error.isEmpty() ? QStringLiteral("barcodes out of order")
                                               : stats.first_error;
    }
    return run;
}

// threads < 0: ffmpeg's default (no -threads option).
Run runFfmpeg(const QString& ffmpeg, const QString& path, int threads) {
    QStringList arguments{QStringLiteral("-hide_banner"), QStringLiteral("-nostdin"),
                          QStringLiteral("-benchmark")};
    if (threads >= 0) {
        arguments << QStringLiteral("-threads") << QString::number(threads);
    }
    arguments << QStringLiteral("-i") << path << QStringLiteral("-f") << QStringLiteral("null")
              << QStringLiteral("-");
    QProcess process;
    process.start(ffmpeg, arguments);
    Run run;
    if (!process.waitForFinished(600000) || process.exitCode() != 0) {
        run.note = QStringLiteral("ffmpeg failed: ") %
                   QString::fromUtf8(process.readAllStandardError().right(400));
        return run;
    }
    const QString output =
        QString::fromUtf8(process.readAllStandardOutput() + process.readAllStandardError());
    const auto rtime = QRegularExpression(QStringLiteral("rtime=([0-9.]+)s")).match(output);
    QRegularExpressionMatch frames;
    for (auto it = QRegularExpression(QStringLiteral("frame=\\s*([0-9]+)")).globalMatch(output);
         it.hasNext();) {
        frames = it.next();
    }
    if (!rtime.hasMatch() || !frames.hasMatch()) {
        run.note = QStringLiteral("cannot read ffmpeg's -benchmark output");
        return run;
    }
    run.seconds = rtime.captured(1).toDouble();
    run.frames = frames.captured(1).toLongLong();
    run.ok = true;
    return run;
}

struct Best {
    double seconds = std::numeric_limits<double>::infinity();
    qint64 frames = 0;
    bool ok = true;
    QString note;
    void add(const Run& run) {
        ok = ok && run.ok;
        if (!run.ok && note.isEmpty()) {
            note = run.note;
        }
        if (run.ok && run.seconds < seconds) {
            seconds = run.seconds;
            frames = run.frames;
        }
    }
    double fps() const { return ok && seconds > 0 ? static_cast<double>(frames) / seconds : 0.0; }
};

// A view's per-frame conversion to RGB at display size: scaling straight to RGB (Direct, the
// baseline) against scaling in yuv420p and converting at the new size (ViaYuv, what views
// use), on the bundled first frame, best of `repeats` runs of 200 conversions each.
void benchmarkDisplayConversion(QTextStream& out, int repeats) {
    const QImage rgb = QImage::fromData(lbm::bundledFirstFramePng())
                           .convertToFormat(QImage::Format_RGB32)
                           .scaled(kWidth, kHeight);
    lbm::media::AvFramePtr yuv(av_frame_alloc());
    yuv->format = AV_PIX_FMT_YUV420P;
    yuv->width = kWidth;
    yuv->height = kHeight;
    lbm::media::SwsContextPtr to_yuv(sws_getContext(kWidth, kHeight, AV_PIX_FMT_RGB32, kWidth,
                                                    kHeight, AV_PIX_FMT_YUV420P, SWS_BILINEAR,
                                                    nullptr, nullptr, nullptr));
    if (av_frame_get_buffer(yuv.get(), 0) < 0 || !to_yuv) {
        out << "display conversion: FAILED to make a yuv420p frame\n";
        return;
    }
    const uint8_t* source[4] = {rgb.constBits(), nullptr, nullptr, nullptr};
    const int source_stride[4] = {static_cast<int>(rgb.bytesPerLine()), 0, 0, 0};
    sws_scale(to_yuv.get(), source, source_stride, 0, kHeight, yuv->data, yuv->linesize);
    const lbm::media::DecodedFrame frame(yuv.get(), lbm::media::FrameTag{});
    using Path = lbm::media::DecodedFrame::ScalePath;
    const auto msPerFrame = [&](const QSize& size, Path path) {
        constexpr int kConversions = 200;
        double best = std::numeric_limits<double>::max();
        for (int run = 0; run < repeats; ++run) {
            QElapsedTimer timer;
            timer.start();
            for (int i = 0; i < kConversions; ++i) {
                if (frame.toImage(size, path).isNull()) {
                    return -1.0;
                }
            }
            best = std::min(best, static_cast<double>(timer.nsecsElapsed()) / 1e6 / kConversions);
        }
        return best;
    };
    out << "\ndisplay conversion (yuv420p " << kWidth << "x" << kHeight
        << " to RGB32 at display size), ms per frame, best of " << repeats << "\n";
    for (const QSize size : {QSize(640, 368), QSize(960, 554), QSize(1280, 738)}) {
        const double direct = msPerFrame(size, Path::Direct);
        const double via_yuv = msPerFrame(size, Path::ViaYuv);
        out << "  " << size.width() << "x" << size.height() << ": direct (baseline) "
            << QString::number(direct, 'f', 3) << ", via yuv " << QString::number(via_yuv, 'f', 3)
            << ", ratio (via yuv / direct) " << QString::number(via_yuv / direct, 'f', 2) << "\n";
    }
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    av_log_set_level(AV_LOG_ERROR);
    QTextStream out(stdout);
    const int chunk_count = argc > 1 ? std::max(2, QString::fromLocal8Bit(argv[1]).toInt()) : 200;
    const int repeats = argc > 2 ? std::max(1, QString::fromLocal8Bit(argv[2]).toInt()) : 3;
    const QString ffmpeg = QStandardPaths::findExecutable(QStringLiteral("ffmpeg"));
    if (ffmpeg.isEmpty()) {
        out << "ERROR: ffmpeg is not on PATH; install it (apt install ffmpeg) to get the "
               "baseline.\n";
        return 1;
    }

    QElapsedTimer build_timer;
    build_timer.start();
    qint64 total_frames = 0;
    const std::vector<Chunk> chunks = buildStream(chunk_count, total_frames);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("stream.m4s"));
    QFile file(path);
    qint64 total_bytes = 0;
    if (!dir.isValid() || !file.open(QIODevice::WriteOnly)) {
        out << "ERROR: cannot write the temporary stream: " << file.errorString() << "\n";
        return 1;
    }
    for (const Chunk& chunk : chunks) {
        file.write(chunk.bytes);
        total_bytes += chunk.bytes.size();
    }
    file.close();
    out << "stream: " << chunk_count << " chunks + trailer, " << total_frames << " frames "
        << kWidth << "x" << kHeight << ", " << total_bytes / 1024 << " KiB (built in "
        << QString::number(static_cast<double>(build_timer.elapsed()) / 1000.0, 'f', 1) << " s)\n";
    out << "best of " << repeats << " runs each, interleaved\n\n";
    out.flush();

    struct Config {
        QString name;
        int our_threads;
        bool low_latency;
        int ffmpeg_threads;
        Best ours;
        Best theirs;
    };
    std::vector<Config> configs = {
        {QStringLiteral("single thread (ours 1, ffmpeg -threads 1)"), 1, true, 1, {}, {}},
        {QStringLiteral("default threads, ours low-latency (slice threads)"), 0, true, -1, {}, {}},
        {QStringLiteral("default threads, ours frame threads"), 0, false, -1, {}, {}},
    };
    for (int repeat = 0; repeat < repeats; ++repeat) {
        for (Config& config : configs) {
            config.theirs.add(runFfmpeg(ffmpeg, path, config.ffmpeg_threads));
            config.ours.add(runOurs(chunks, config.our_threads, config.low_latency));
        }
    }

    bool all_ok = true;
    bool goals_met = true;
    for (const Config& config : configs) {
        out << config.name << "\n";
        if (!config.ours.ok || !config.theirs.ok) {
            out << "  FAILED: " << (config.ours.ok ? config.theirs.note : config.ours.note) << "\n";
            all_ok = false;
            continue;
        }
        const double ratio = config.ours.fps() / config.theirs.fps();
        goals_met = goals_met && ratio >= 0.9;
        out << "  StreamDecoder: " << config.ours.frames << " frames in "
            << QString::number(config.ours.seconds, 'f', 3)
            << " s = " << QString::number(config.ours.fps(), 'f', 0) << " fps\n";
        out << "  ffmpeg       : " << config.theirs.frames << " frames in "
            << QString::number(config.theirs.seconds, 'f', 3)
            << " s = " << QString::number(config.theirs.fps(), 'f', 0) << " fps\n";
        out << "  ratio (ours / ffmpeg): " << QString::number(ratio, 'f', 2)
            << (ratio >= 0.9 ? "  (goal >= 0.9 met)" : "  (goal >= 0.9 NOT met)") << "\n";
        if (config.ours.frames != total_frames || config.theirs.frames != total_frames) {
            out << "  WARNING: frame counts differ from the " << total_frames << " encoded\n";
        }
    }
    benchmarkDisplayConversion(out, repeats);
    return lbm::benchmarks::exitCodeFor(all_ok, goals_met);
}
