#include "tests/fuzz/seed_corpus.h"

#include "app/report/metrics_json.h"
#include "app/report/session_document.h"
#include "app/report/workload_json.h"
#include "app/sim/fmp4_encoder.h"
#include "metrics/metric_error.h"
#include "metrics/session_metrics.h"
#include "tests/fuzz/fuzz_entries.h"
#include "tests/report/golden_json.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <stdexcept>

namespace lbm::fuzz {
namespace {

QByteArray readFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        throw std::runtime_error("cannot read " + path.toStdString());
    }
    return file.readAll();
}

QByteArray compact(const QJsonObject& object) {
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QJsonArray strings(std::initializer_list<const char*> items) {
    QJsonArray array;
    for (const char* item : items) {
        array.append(QString::fromLatin1(item));
    }
    return array;
}

// A video.chunk_metadata exactly as SimulatorSession::sendMetadata writes it.
QJsonObject chunkMetadata(bool trailer, int transport, int frames, double bytes,
                          const QJsonArray& started, const QJsonArray& active,
                          const QJsonArray& completed) {
    return QJsonObject{
        {QStringLiteral("type"), QStringLiteral("video.chunk_metadata")},
        {QStringLiteral("request_id"), QStringLiteral("video_stream-5f3a9c")},
        {QStringLiteral("kind"), trailer ? QStringLiteral("trailer") : QStringLiteral("media")},
        {QStringLiteral("transport_chunk_index"), transport},
        {QStringLiteral("generation_chunk_index"), trailer ? QJsonValue() : QJsonValue(transport)},
        {QStringLiteral("num_frames"), frames},
        {QStringLiteral("byte_length"), bytes},
        {QStringLiteral("started_event_ids"), started},
        {QStringLiteral("active_event_ids"), active},
        {QStringLiteral("completed_event_ids"), completed}};
}

QImage encoderFrame(int number) {
    QImage image(kDecoderWidth, kDecoderHeight, QImage::Format_RGB32);
    for (int y = 0; y < image.height(); ++y) {
        auto* row = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            row[x] = qRgb((x * 3 + number * 9) & 0xff, (y + number * 4) & 0xff, (x + y) & 0xff);
        }
    }
    return image;
}

// The bytes after the init segment for `frames` frames; the trailer when `with_trailer`.
QByteArray encodedAfterInit(int frames, bool with_trailer) {
    sim::Fmp4Encoder encoder(kDecoderWidth, kDecoderHeight, kDecoderFps);
    QByteArray after;
    for (int i = 0; i < frames; ++i) {
        const QByteArray out = encoder.encode(encoderFrame(i));
        if (i == 0) {
            if (out != decoderInitSegment()) {
                throw std::runtime_error("the encoder's init segment differs from the one the "
                                         "stream_decoder target uses (non-deterministic encoder?)");
            }
            continue;
        }
        after += out;
    }
    if (with_trailer) {
        after += encoder.finish();
    }
    return after;
}

// A session document written by our own writer for one golden metrics case.
QByteArray writtenDocument(const QJsonObject& golden, bool complete, const QString& directory,
                           int number) {
    const QJsonObject kwargs = golden.value(QStringLiteral("kwargs")).toObject();
    report::SessionEntry session;
    session.request_id = QStringLiteral("video_stream-%1").arg(number);
    session.video_start_ms = 12.5;
    session.chunks = report::chunkRecordsFromJson(golden.value(QStringLiteral("records")),
                                                  QStringLiteral("records"));
    if (!complete && session.chunks.size() > 2) {
        session.chunks.resize(session.chunks.size() / 2);
    }
    const QJsonValue ttfc = kwargs.value(QStringLiteral("ttfc_s"));
    if (ttfc.isDouble()) {
        session.ttfc_s = ttfc.toDouble();
    }
    const QJsonValue wall = kwargs.value(QStringLiteral("session_wall_s"));
    if (wall.isDouble()) {
        session.wall_s = wall.toDouble();
    }
    report::SessionDocument document;
    document.timestamp = QStringLiteral("2026-12-02T11:41:49.123000+00:00");
    document.endpoint = QStringLiteral("ws://127.0.0.1:8000/v1/realtime/video");
    document.hostname = QStringLiteral("fuzz-seed");
    const lbm::Workload workload = report::loadWorkloadDocument(
        QJsonObject{{QStringLiteral("image"), QStringLiteral("data:image/png;base64,AAAA")},
                    {QStringLiteral("num_chunks"),
                     static_cast<qint64>(std::max<size_t>(session.chunks.size(), 1))}});
    document.workload = report::describeWorkload(workload);
    document.config.target_fps = kwargs.value(QStringLiteral("fps")).toDouble(16.0);
    document.config.warmup_chunks = kwargs.value(QStringLiteral("warmup_chunks")).toInt(6);
    document.config.playback_buffer_chunks =
        kwargs.value(QStringLiteral("playback_buffer_chunks")).toInt(1);
    const QJsonValue slo = kwargs.value(QStringLiteral("slo_ms"));
    if (slo.isDouble()) {
        document.config.chunk_slo_ms = slo.toDouble();
    }
    try {
        session.metrics = lbm::computeMetrics(session.chunks,
                                              report::metricsOptionsFor(document.config, session));
        document.metrics = lbm::aggregateMetrics({*session.metrics}, document.config.target_fps);
    } catch (const lbm::MetricError&) {
        // Our writer leaves metrics out when they cannot be computed; that file is a seed too.
    }
    session.monitor_extras = QJsonObject{
        {QStringLiteral("frames_decoded"), 45},
        {QStringLiteral("timeline"),
         QJsonArray{QJsonObject{{QStringLiteral("event_id"), QStringLiteral("prompt-1")},
                                {QStringLiteral("sent_s"), 1.25}}}}};
    document.sessions.push_back(session);
    report::MonitorSection monitor;
    monitor.complete = complete;
    if (!complete) {
        monitor.incomplete_reason = QStringLiteral("The server closed the connection");
    }
    monitor.extras.insert(QStringLiteral("simulator_profile"), QStringLiteral("fast"));
    document.monitor = monitor;
    const QString path = QDir(directory).filePath(QStringLiteral("doc%1.json").arg(number));
    report::writeSessionDocument(document, path);
    return readFile(path);
}

} // namespace

std::vector<Seed> serverMessageSeeds() {
    const QString request = QStringLiteral("video_stream-5f3a9c");
    const QJsonObject config{
        {QStringLiteral("type"), QStringLiteral("session.start")},
        {QStringLiteral("model"),
         QStringLiteral("robbyant/lingbot-world-v2-14b-causal-fast-diffusers")},
        {QStringLiteral("prompt"), QStringLiteral("A quiet village road at sunset.")},
        {QStringLiteral("image_reference"),
         QJsonObject{{QStringLiteral("image_url"), QStringLiteral("data:image/png;base64,AAAA")}}},
        {QStringLiteral("width"), 832},
        {QStringLiteral("height"), 480},
        {QStringLiteral("num_frames"), 45},
        {QStringLiteral("fps"), 16},
        {QStringLiteral("seed"), 42},
        {QStringLiteral("extra_params"),
         QJsonObject{{QStringLiteral("flow_shift"), 5.0},
                     {QStringLiteral("camera_action_script"),
                      QJsonArray{QJsonArray{strings({"w"}), strings({"w", "j"}), strings({})}}}}}};
    std::vector<Seed> seeds;
    const auto add = [&seeds](const char* name, const QByteArray& bytes) {
        seeds.push_back({QString::fromLatin1(name), bytes});
    };
    add("video_start.json", compact({{QStringLiteral("type"), QStringLiteral("video.start")},
                                     {QStringLiteral("request_id"), request},
                                     {QStringLiteral("format"), QStringLiteral("m4s")},
                                     {QStringLiteral("config"), config}}));
    add("chunk_first.json", compact(chunkMetadata(false, 0, 9, 61234.0, {}, {}, {})));
    add("chunk_events.json",
        compact(chunkMetadata(false, 3, 12, 88001.0, strings({"prompt-2"}),
                              strings({"prompt-1", "prompt-2"}), strings({"prompt-1"}))));
    add("chunk_trailer.json", compact(chunkMetadata(true, 4, 0, 1733.0, {}, {}, {})));
    add("queued.json",
        compact({{QStringLiteral("type"), QStringLiteral("session.interaction.queued")},
                 {QStringLiteral("request_id"), request},
                 {QStringLiteral("event_id"), QStringLiteral("prompt-1")}}));
    add("pong.json", compact({{QStringLiteral("type"), QStringLiteral("session.pong")},
                              {QStringLiteral("request_id"), request}}));
    add("done.json", compact({{QStringLiteral("type"), QStringLiteral("session.done")},
                              {QStringLiteral("request_id"), request},
                              {QStringLiteral("chunks"), 5},
                              {QStringLiteral("stopped"), false}}));
    add("done_stopped.json", compact({{QStringLiteral("type"), QStringLiteral("session.done")},
                                      {QStringLiteral("request_id"), request},
                                      {QStringLiteral("chunks"), 2},
                                      {QStringLiteral("stopped"), true}}));
    add("error_start.json", compact({{QStringLiteral("type"), QStringLiteral("error")},
                                     {QStringLiteral("message"),
                                      QStringLiteral("session.start must be a JSON object")}}));
    add("error_interaction.json",
        compact({{QStringLiteral("type"), QStringLiteral("error")},
                 {QStringLiteral("message"),
                  QStringLiteral("Invalid interaction: event must carry a prompt or "
                                 "multi_modal_data.camera.")},
                 {QStringLiteral("code"), QStringLiteral("invalid_interaction")},
                 {QStringLiteral("request_id"), request},
                 {QStringLiteral("event_id"), QStringLiteral("camera-7")}}));
    add("error_numeric_code.json", compact({{QStringLiteral("type"), QStringLiteral("error")},
                                            {QStringLiteral("message"), 42},
                                            {QStringLiteral("code"), 500}}));
    add("unknown_type.json", compact({{QStringLiteral("type"), QStringLiteral("session.stats")},
                                      {QStringLiteral("gpu_util"), 0.93}}));
    // The simulator's `garbage` fault, word for word.
    add("garbage_fault.txt", QByteArray("{\"type\": \"video.chunk_metadata\", garbage"));
    return seeds;
}

std::vector<Seed> workloadFileSeeds() {
    std::vector<Seed> seeds;
    const QJsonArray cases = lbm::test::goldenGroup(QStringLiteral("workload"));
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject document =
            cases.at(i).toObject().value(QStringLiteral("document")).toObject();
        seeds.push_back({QStringLiteral("golden_%1.json").arg(i, 2, 10, QLatin1Char('0')),
                         QJsonDocument(document).toJson(QJsonDocument::Indented)});
    }
    const QDir examples(QStringLiteral(LBM_SOURCE_DIR "/resources/examples"));
    for (const QString& name :
         examples.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        seeds.push_back({QStringLiteral("example_") + name, readFile(examples.filePath(name))});
    }
    return seeds;
}

std::vector<Seed> sessionDocumentSeeds() {
    std::vector<Seed> seeds;
    QTemporaryDir directory;
    if (!directory.isValid()) {
        throw std::runtime_error("no temporary directory for the written session documents");
    }
    const QJsonArray cases = lbm::test::goldenGroup(QStringLiteral("metrics"));
    int written = 0;
    int benchmark = 0;
    for (qsizetype i = 0; i < cases.size() && (written < 6 || benchmark < 4); ++i) {
        const QJsonObject golden = cases.at(i).toObject();
        if (!golden.contains(QStringLiteral("ok"))) {
            continue;
        }
        if (written < 6) {
            const bool complete = written != 5;
            seeds.push_back({QStringLiteral("ours_%1.json").arg(written),
                             writtenDocument(golden, complete, directory.path(), written)});
            ++written;
        }
        if (benchmark < 4) {
            seeds.push_back({QStringLiteral("benchmark_%1.json").arg(benchmark),
                             QJsonDocument(lbm::test::benchmarkDocumentForMetricsCase(golden))
                                 .toJson(QJsonDocument::Indented)});
            ++benchmark;
        }
    }
    return seeds;
}

std::vector<Seed> streamDecoderSeeds() {
    decoderInitSegment(); // first: it also quiets libx264's banner for the encoders below
    return {
        {QStringLiteral("stream_10_frames.m4s"), encodedAfterInit(10, true)},
        {QStringLiteral("fragments_3_no_trailer.m4s"), encodedAfterInit(4, false)},
        {QStringLiteral("fragment_1.m4s"), encodedAfterInit(2, false)},
        {QStringLiteral("trailer_1_frame.m4s"), encodedAfterInit(1, true)},
    };
}

std::vector<Seed> seedsFor(const QString& target) {
    if (target == QLatin1String(kServerMessageTarget)) {
        return serverMessageSeeds();
    }
    if (target == QLatin1String(kWorkloadFileTarget)) {
        return workloadFileSeeds();
    }
    if (target == QLatin1String(kSessionDocumentTarget)) {
        return sessionDocumentSeeds();
    }
    if (target == QLatin1String(kStreamDecoderTarget)) {
        return streamDecoderSeeds();
    }
    throw std::runtime_error("unknown fuzz target " + target.toStdString());
}

} // namespace lbm::fuzz
