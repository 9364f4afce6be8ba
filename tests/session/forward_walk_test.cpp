// A 200-chunk `forward` session as a user saves it (`bench --save-video`), checked the way
// issue 19 says: libavfilter's blurdetect finds the last ten chunks as sharp as the first ten
// (0.8-1.25x), freezedetect finds no frozen stretch anywhere, and the simulator's ground truth
// log shows new objects entering the picture in every stretch of ten chunks. The simulator
// runs in this process on a fixed 1 ms pace (as fast as it renders and encodes), so the
// session's length is its production cost, not a real-time schedule. Hidden
// ([.forward-walk]): the ctest entry lbm_forward_walk_tests runs it on its own, so a
// sanitizer build's slower minute does not count against the other bench tests' timeout.

#include "app/sim/ground_truth.h"
#include "app/sim/simulator_server.h"

#include <QEventLoop>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <catch2/catch.hpp>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/log.h>
}

#include <algorithm>
#include <memory>
#include <set>
#include <vector>

using namespace lbm::sim;

namespace {

constexpr int kChunks = 200;
constexpr int kCompared = 10; // chunks at each end compared for sharpness
// The measured window: the caption band above and the frame-number band below are left
// out (their text changes every frame, and it is not the world).
constexpr const char* kWindow = "crop=iw:ih*8/10:0:ih/10";
// freezedetect's default noise (-60 dB: a mean difference of 0.1 % of full scale, about the
// quality analysis's 0.3 levels) held for three frame intervals at 16 fps, instead of its 2 s
// default: four near-identical frames in a row, one latent frame's worth, which is what the
// quality analysis calls a freeze (app/quality/quality_settings.h, freeze_min_frames).
constexpr const char* kFreeze = "freezedetect=n=0.001:d=0.1875";

// One libavfilter chain fed decoded frames: buffer -> CHAIN -> buffersink.
class FilterChain {
public:
    FilterChain(const AVCodecContext& decoder, AVRational time_base, const QString& chain) {
        m_graph = avfilter_graph_alloc();
        const QString source_args =
            QStringLiteral("video_size=%1x%2:pix_fmt=%3:time_base=%4/%5:pixel_aspect=1/1")
                .arg(decoder.width)
                .arg(decoder.height)
                .arg(decoder.pix_fmt)
                .arg(time_base.num)
                .arg(time_base.den);
        AVFilterInOut* outputs = avfilter_inout_alloc();
        AVFilterInOut* inputs = avfilter_inout_alloc();
        bool built =
            m_graph != nullptr && outputs != nullptr && inputs != nullptr &&
            avfilter_graph_create_filter(&m_source, avfilter_get_by_name("buffer"), "in",
                                         source_args.toUtf8().constData(), nullptr, m_graph) >= 0 &&
            avfilter_graph_create_filter(&m_sink, avfilter_get_by_name("buffersink"), "out",
                                         nullptr, nullptr, m_graph) >= 0;
        if (built) {
            outputs->name = av_strdup("in");
            outputs->filter_ctx = m_source;
            inputs->name = av_strdup("out");
            inputs->filter_ctx = m_sink;
            built = avfilter_graph_parse_ptr(m_graph, chain.toUtf8().constData(), &inputs, &outputs,
                                             nullptr) >= 0 &&
                    avfilter_graph_config(m_graph, nullptr) >= 0;
        }
        avfilter_inout_free(&inputs);
        avfilter_inout_free(&outputs);
        m_ok = built;
    }
    ~FilterChain() { avfilter_graph_free(&m_graph); }
    FilterChain(const FilterChain&) = delete;
    FilterChain& operator=(const FilterChain&) = delete;

    bool ok() const { return m_ok; }
    // Feeds a frame (nullptr: the end) and returns the metadata of every frame that came out.
    std::vector<std::vector<std::pair<QString, QString>>> push(AVFrame* frame) {
        std::vector<std::vector<std::pair<QString, QString>>> results;
        if (av_buffersrc_add_frame_flags(m_source, frame, AV_BUFFERSRC_FLAG_KEEP_REF) < 0) {
            m_ok = false;
            return results;
        }
        AVFrame* out = av_frame_alloc();
        while (av_buffersink_get_frame(m_sink, out) >= 0) {
            std::vector<std::pair<QString, QString>> entries;
            const AVDictionaryEntry* entry = nullptr;
            while ((entry = av_dict_get(out->metadata, "", entry, AV_DICT_IGNORE_SUFFIX))) {
                entries.emplace_back(QString::fromUtf8(entry->key),
                                     QString::fromUtf8(entry->value));
            }
            results.push_back(std::move(entries));
            av_frame_unref(out);
        }
        av_frame_free(&out);
        return results;
    }

private:
    AVFilterGraph* m_graph = nullptr; // owns the two contexts below
    AVFilterContext* m_source = nullptr;
    AVFilterContext* m_sink = nullptr;
    bool m_ok = false;
};

struct WalkMeasures {
    QString error;
    int frames = 0;
    std::vector<double> blur;          // per measured frame, in frame order
    std::vector<qint64> blur_frames;   // the frames fed to blurdetect
    std::vector<QString> freeze_notes; // "freeze_start=T" etc., as freezedetect reports
};

// Decodes the saved video once: every frame through freezedetect, the frames in measured
// through blurdetect.
WalkMeasures measure(const QString& path, const std::set<qint64>& measured) {
    WalkMeasures result;
    AVFormatContext* format = nullptr;
    if (avformat_open_input(&format, path.toUtf8().constData(), nullptr, nullptr) < 0 ||
        avformat_find_stream_info(format, nullptr) < 0) {
        avformat_close_input(&format);
        result.error = QStringLiteral("cannot open ") + path;
        return result;
    }
    const std::unique_ptr<AVFormatContext, void (*)(AVFormatContext*)> format_owner(
        format, [](AVFormatContext* context) { avformat_close_input(&context); });
    const int stream_index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (stream_index < 0) {
        result.error = QStringLiteral("no video stream in ") + path;
        return result;
    }
    const AVStream* stream = format->streams[stream_index];
    const AVCodec* codec = avcodec_find_decoder(stream->codecpar->codec_id);
    AVCodecContext* decoder = avcodec_alloc_context3(codec);
    const std::unique_ptr<AVCodecContext, void (*)(AVCodecContext*)> decoder_owner(
        decoder, [](AVCodecContext* context) { avcodec_free_context(&context); });
    if (codec == nullptr || decoder == nullptr ||
        avcodec_parameters_to_context(decoder, stream->codecpar) < 0 ||
        avcodec_open2(decoder, codec, nullptr) < 0) {
        result.error = QStringLiteral("cannot open the decoder");
        return result;
    }
    FilterChain freeze(*decoder, stream->time_base,
                       QStringLiteral("%1,%2").arg(QLatin1String(kWindow), QLatin1String(kFreeze)));
    FilterChain blur(*decoder, stream->time_base,
                     QStringLiteral("%1,blurdetect").arg(QLatin1String(kWindow)));
    if (!freeze.ok() || !blur.ok()) {
        result.error = QStringLiteral("cannot build the filter graphs");
        return result;
    }
    const auto noteFreezes = [&](const auto& outputs) {
        for (const auto& entries : outputs) {
            for (const auto& [key, value] : entries) {
                if (key.startsWith(QStringLiteral("lavfi.freezedetect."))) {
                    result.freeze_notes.push_back(key.mid(19) + QLatin1Char('=') + value);
                }
            }
        }
    };
    const auto noteBlur = [&](const auto& outputs) {
        for (const auto& entries : outputs) {
            for (const auto& [key, value] : entries) {
                if (key == QStringLiteral("lavfi.blur")) {
                    result.blur.push_back(value.toDouble());
                }
            }
        }
    };
    AVPacket* packet = av_packet_alloc();
    AVFrame* frame = av_frame_alloc();
    const auto drain = [&]() {
        while (avcodec_receive_frame(decoder, frame) >= 0) {
            noteFreezes(freeze.push(frame));
            if (measured.count(result.frames) > 0) {
                result.blur_frames.push_back(result.frames);
                noteBlur(blur.push(frame));
            }
            ++result.frames;
            av_frame_unref(frame);
        }
    };
    while (av_read_frame(format, packet) >= 0) {
        if (packet->stream_index == stream_index && avcodec_send_packet(decoder, packet) >= 0) {
            drain();
        }
        av_packet_unref(packet);
    }
    avcodec_send_packet(decoder, nullptr);
    drain();
    noteFreezes(freeze.push(nullptr));
    noteBlur(blur.push(nullptr));
    av_frame_free(&frame);
    av_packet_free(&packet);
    if (!freeze.ok() || !blur.ok()) {
        result.error = QStringLiteral("libavfilter refused a frame");
    }
    return result;
}

double mean(const std::vector<double>& values, size_t from, size_t to) {
    double sum = 0.0;
    for (size_t i = from; i < to; ++i) {
        sum += values[i];
    }
    return to > from ? sum / static_cast<double>(to - from) : 0.0;
}

} // namespace

TEST_CASE("a saved 200-chunk forward session stays sharp, never freezes and keeps showing "
          "new things",
          "[.forward-walk]") {
    av_log_set_level(AV_LOG_ERROR);
    QTemporaryDir directory;
    REQUIRE(directory.isValid());
    SimulatorConfig config;
    config.log_path = directory.filePath(QStringLiteral("sim.jsonl"));
    config.profile = QStringLiteral("fixed:0:0.001");
    config.mux_delay_min_ms = 0;
    config.mux_delay_max_ms = 0;
    SimulatorServer server(config);
    REQUIRE(server.listen(QHostAddress::LocalHost, 0));

    // bench's own defaults otherwise: camera pattern forward, its prompt, 832x480, seed 42.
    const QString video = directory.filePath(QStringLiteral("forward.mp4"));
    QProcess bench;
    bench.setProcessChannelMode(QProcess::MergedChannels);
    QEventLoop loop;
    QObject::connect(&bench, &QProcess::finished, &loop, &QEventLoop::quit);
    QObject::connect(&bench, &QProcess::errorOccurred, &loop, &QEventLoop::quit);
    bench.start(QStringLiteral(LBM_BINARY_DIR "/lingbot-monitor"),
                {QStringLiteral("bench"), QStringLiteral("--base-url"), server.url().toString(),
                 QStringLiteral("--num-chunks"), QString::number(kChunks),
                 QStringLiteral("--save-video"), video});
    // The server answers on this thread's event loop while bench runs; the limit is only a
    // backstop for a hang (a sanitizer build takes minutes).
    QTimer::singleShot(840000, &loop, &QEventLoop::quit);
    loop.exec();
    const QString output = QString::fromUtf8(bench.readAll());
    INFO(output.toStdString());
    REQUIRE(bench.state() == QProcess::NotRunning);
    REQUIRE(bench.exitStatus() == QProcess::NormalExit);
    REQUIRE(bench.exitCode() == 0);

    QString error;
    const auto log = GroundTruthLog::read(config.log_path, &error);
    INFO(error.toStdString());
    REQUIRE(log);
    const std::vector<std::vector<FrameTruth>> chunks = log->chunks();
    REQUIRE(chunks.size() == static_cast<size_t>(kChunks));
    // The frames of the first and last ten chunks, by the log's frame numbers.
    std::set<qint64> measured;
    size_t first_frames = 0; // how many of them belong to the first ten chunks
    for (int chunk = 0; chunk < kChunks; ++chunk) {
        if (chunk < kCompared || chunk >= kChunks - kCompared) {
            for (const FrameTruth& frame : chunks[static_cast<size_t>(chunk)]) {
                measured.insert(frame.frame);
                first_frames += chunk < kCompared ? 1 : 0;
            }
        }
    }

    const WalkMeasures measures = measure(video, measured);
    INFO(measures.error.toStdString());
    REQUIRE(measures.error.isEmpty());
    CHECK(measures.frames == static_cast<int>(log->sessionFrames().size()));
    // blurdetect passes each frame through at once, so its values are the measured frames'
    // in order.
    REQUIRE(measures.blur.size() == measured.size());
    REQUIRE(measures.blur_frames.size() == measured.size());

    // blurdetect's lavfi.blur is an edge width: larger when blurrier.
    const double first = mean(measures.blur, 0, first_frames);
    const double last = mean(measures.blur, first_frames, measures.blur.size());
    INFO("blurdetect: first " << kCompared << " chunks " << first << ", last " << kCompared
                              << " chunks " << last << " (" << last / first << "x)");
    CHECK(last / first >= 0.8);
    CHECK(last / first <= 1.25);

    // No frozen stretch anywhere.
    QString freezes;
    for (const QString& note : measures.freeze_notes) {
        freezes += note + QLatin1Char(' ');
    }
    INFO("freezedetect: " << freezes.toStdString());
    CHECK(measures.freeze_notes.empty());

    // New objects keep entering the picture: in every stretch of ten chunks.
    for (int from = 0; from < kChunks; from += 10) {
        int entered = 0;
        for (int chunk = std::max(1, from); chunk < from + 10; ++chunk) {
            for (const FrameTruth& frame : chunks[static_cast<size_t>(chunk)]) {
                entered += frame.objects_entered;
            }
        }
        INFO("chunks " << from << ".." << from + 9 << ": " << entered << " objects entered");
        CHECK(entered >= 5);
    }
}
