#include "tests/fuzz/fuzz_entries.h"

#include "app/media/stream_decoder.h"
#include "app/protocol/server_message.h"
#include "app/protocol/session_start_message.h"
#include "app/report/metrics_json.h"
#include "app/report/python_json.h"
#include "app/report/report_error.h"
#include "app/report/session_document.h"
#include "app/report/text_report.h"
#include "app/report/workload_json.h"
#include "app/sim/fmp4_encoder.h"
#include "metrics/geometry.h"
#include "metrics/metric_error.h"
#include "metrics/playback_simulator.h"
#include "metrics/session_metrics.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QTemporaryDir>

extern "C" {
#include <libavutil/log.h>
}

#include <string>
#include <variant>
#include <vector>

namespace lbm::fuzz {
namespace {

void check(bool condition, const char* what) {
    if (!condition) {
        throw InvariantViolation(std::string("fuzz invariant broken: ") + what);
    }
}

// The file readers take a path, so the input goes through a real file like a user's would.
// One directory per process (libFuzzer's -jobs run several), removed at exit. On tmpfs when
// there is one: rewriting a file on ext4 flushes it to disk each time (auto_da_alloc), which
// cut the workload target from thousands of executions a second to a few hundred.
QString inputFile(const uint8_t* data, size_t size, const char* name) {
    static QTemporaryDir directory((QFileInfo(QStringLiteral("/dev/shm")).isWritable()
                                        ? QStringLiteral("/dev/shm")
                                        : QDir::tempPath()) +
                                   QStringLiteral("/lbm_fuzz-XXXXXX"));
    check(directory.isValid(), "a temporary directory for the input file");
    const QString path = directory.filePath(QString::fromLatin1(name));
    QFile file(path);
    check(file.open(QIODevice::WriteOnly | QIODevice::Truncate), "the input file opens");
    const auto written = file.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size));
    check(written == static_cast<qint64>(size), "the input file is written");
    return path;
}

QByteArray bytesOf(const uint8_t* data, size_t size) {
    return QByteArray(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
}

// What the session does with an accepted message relies on these; the parser promises them.
void checkAccepted(const protocol::ServerMessage& message) {
    if (const auto* metadata = std::get_if<protocol::ChunkMetadata>(&message)) {
        check(metadata->transport_chunk_index >= 0, "transport_chunk_index >= 0");
        check(metadata->num_frames >= 0, "num_frames >= 0");
        check(metadata->byte_length >= 0, "byte_length >= 0");
        if (metadata->kind == protocol::ChunkKind::Media) {
            // Null is what the real handler sends for a one-chunk session's media chunk.
            check(!metadata->generation_chunk_index.has_value() ||
                      *metadata->generation_chunk_index >= 0,
                  "a media chunk's generation_chunk_index is null or >= 0");
        } else {
            check(!metadata->generation_chunk_index.has_value(),
                  "a trailer has no generation_chunk_index");
        }
    } else if (const auto* queued = std::get_if<protocol::InteractionQueued>(&message)) {
        check(!queued->event_id.isEmpty(), "an acknowledged interaction names its event");
    } else if (const auto* unknown = std::get_if<protocol::UnknownServerMessage>(&message)) {
        check(!unknown->type.isNull(), "an unknown message keeps its type");
    }
}

Outcome rejected(const char* message) {
    check(message != nullptr && message[0] != '\0', "an error says what was wrong");
    return Outcome::Rejected;
}

// A small moving picture so P-frames carry residuals, as generated video does.
QImage decoderFrame(int number) {
    QImage image(kDecoderWidth, kDecoderHeight, QImage::Format_RGB32);
    for (int y = 0; y < image.height(); ++y) {
        auto* row = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            row[x] = qRgb((x + number * 7) & 0xff, (y * 2 + number) & 0xff, (x ^ y) & 0xff);
        }
    }
    return image;
}

} // namespace

const QByteArray& decoderInitSegment() {
    static const QByteArray init = [] {
        av_log_set_level(AV_LOG_QUIET);
        sim::Fmp4Encoder encoder(kDecoderWidth, kDecoderHeight, kDecoderFps);
        // The muxer's one-frame lag: the first call returns exactly ftyp + moov.
        return encoder.encode(decoderFrame(0));
    }();
    return init;
}

Outcome runServerMessage(const uint8_t* data, size_t size) {
    const QByteArray text = bytesOf(data, size);
    const protocol::ParsedServerMessage parsed = protocol::parseServerMessage(text);
    check(parsed.message.has_value() == parsed.problem.isEmpty(),
          "exactly one of message and problem is set");
    const QJsonDocument document = QJsonDocument::fromJson(text);
    if (!document.isObject()) {
        check(!parsed.message.has_value(), "a frame that is not a JSON object is an error");
    }
    if (!parsed.message) {
        return Outcome::Rejected;
    }
    checkAccepted(*parsed.message);
    // The object overload is what the bytes overload ends in; both must agree.
    const protocol::ParsedServerMessage again = protocol::parseServerMessage(document.object());
    check(again.message.has_value() && again.message->index() == parsed.message->index(),
          "parsing the object again gives the same kind of message");
    return Outcome::Accepted;
}

Outcome runWorkloadFile(const uint8_t* data, size_t size) {
    const QString path = inputFile(data, size, "workload.json");
    lbm::Workload workload;
    try {
        workload = report::loadWorkloadFile(path);
    } catch (const report::ReportError& error) {
        return rejected(error.what());
    } catch (const lbm::MetricError& error) {
        return rejected(error.what());
    }
    // What bench and the window do next with a loaded workload. Up to a few hundred thousand
    // chunks are valid, and under ASan's allocator the session.start of the largest takes
    // over a minute (load alone about 3 s): past kPayloadChunks the harness stops after
    // loading, so -timeout=10 reports hangs instead of big valid work.
    constexpr std::size_t kPayloadChunks = 10000;
    check(workload.numChunks() >= 1, "an accepted workload has chunks");
    if (workload.camera_script.size() > kPayloadChunks) {
        return Outcome::Accepted;
    }
    workload.validate();
    const QJsonObject start = protocol::sessionStartMessage(workload, QStringLiteral("model"));
    check(!QJsonDocument(start).toJson(QJsonDocument::Compact).isEmpty(), "a start payload");
    report::describeWorkload(workload);
    for (const lbm::PromptUpdate& update : workload.prompt_updates) {
        protocol::promptUpdateMessage(update);
    }
    return Outcome::Accepted;
}

Outcome runSessionDocument(const uint8_t* data, size_t size) {
    const QString path = inputFile(data, size, "session.json");
    report::SessionDocument document;
    try {
        document = report::readSessionDocument(path);
    } catch (const report::ReportError& error) {
        return rejected(error.what());
    } catch (const lbm::MetricError& error) {
        return rejected(error.what());
    }
    // `report` recomputes every session under the document's own config; the window opens
    // the first session with the live simulator. A MetricError is the message they show.
    const report::RunConfig& config = document.config;
    std::vector<lbm::SessionMetrics> all;
    bool every_session_ok = !document.sessions.empty();
    for (report::SessionEntry& session : document.sessions) {
        try {
            session.metrics =
                lbm::computeMetrics(session.chunks, report::metricsOptionsFor(config, session));
            all.push_back(*session.metrics);
        } catch (const lbm::MetricError& error) {
            rejected(error.what());
            every_session_ok = false;
        }
    }
    if (every_session_ok) {
        try {
            document.metrics = lbm::aggregateMetrics(all, config.target_fps);
        } catch (const lbm::MetricError& error) {
            rejected(error.what());
        }
    }
    if (!document.sessions.empty()) {
        try {
            lbm::steadyChunkDeadlineMs(config.target_fps);
            lbm::LivePlaybackSimulator simulator(config.target_fps, config.playback_buffer_chunks);
            for (const lbm::ChunkRecord& record : document.sessions.front().chunks) {
                simulator.addRecord(record);
                if (simulator.started()) {
                    simulator.result();
                }
                simulator.bufferedAheadSeconds(record.arrival_s);
            }
        } catch (const lbm::MetricError& error) {
            rejected(error.what());
        }
    }
    if (every_session_ok) {
        report::formatTextReport(document);
    }
    const QByteArray written = report::toPythonJson(report::toJson(document), 2);
    check(!written.isEmpty(), "the document writes back");
    return Outcome::Accepted;
}

Outcome runStreamDecoder(const uint8_t* data, size_t size) {
    const QByteArray& init = decoderInitSegment();
    media::DecoderOptions options;
    // One libavcodec thread: the same input always takes the same path.
    options.thread_count = 1;
    options.frame_queue_capacity = 4;
    media::StreamDecoder decoder(options);
    // Transport chunks as the server cuts them: a new payload starts at each moof box after
    // the first (init segment + first fragment are chunk 0), one frame each, and the payload
    // holding mfra is the trailer. The cut is read from the bytes, so every input still is
    // plain stream bytes and the encoder's output is a meaningful seed.
    const QByteArray bytes = bytesOf(data, size);
    std::vector<qsizetype> starts{0};
    for (qsizetype at = bytes.indexOf("moof", 4); at >= 4; at = bytes.indexOf("moof", at + 4)) {
        if (at - 4 > starts.back()) {
            starts.push_back(at - 4);
        }
    }
    starts.push_back(bytes.size());
    for (size_t index = 0; index + 1 < starts.size(); ++index) {
        const QByteArray piece = bytes.mid(starts[index], starts[index + 1] - starts[index]);
        ChunkIdentity info;
        info.transport_index = static_cast<qint64>(index);
        if (index > 0 && piece.contains("mfra")) {
            info.kind = lbm::ChunkKind::Trailer;
        } else {
            info.generation_index = static_cast<qint64>(index);
            info.num_frames = 1;
        }
        if (index == 0) {
            // Consecutive pushes with the same transport index extend one chunk, as the
            // network side's partial deliveries do.
            decoder.pushChunk(info, init);
        }
        decoder.pushChunk(info, piece);
    }
    decoder.finish();
    // A negative timeout waits until a frame comes or decoding ends: no sleeps, and the
    // loop ends because the stream has ended.
    qint64 frames = 0;
    while (auto frame = decoder.popFrame(-1)) {
        check(!frame->isNull(), "a delivered frame has pictures");
        // What a view does with it: libswscale to RGB at a display size.
        check(!frame->toImage(QSize(64, 36)).isNull(), "a delivered frame converts to RGB");
        ++frames;
    }
    check(decoder.waitForEnd(0), "the decoder has ended once its queue is drained");
    const media::DecoderStats stats = decoder.stats();
    check(stats.frames_decoded == frames, "every decoded frame was delivered");
    check(stats.state == media::DecoderState::Finished ||
              stats.state == media::DecoderState::Failed,
          "the decoder finished or failed");
    if (stats.state == media::DecoderState::Failed) {
        check(!stats.first_error.isEmpty(), "a failed decode says why");
        return Outcome::Rejected;
    }
    return Outcome::Accepted;
}

} // namespace lbm::fuzz
