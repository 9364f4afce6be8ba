// The session engine on its own: a session on the built-in simulator (its own thread) with
// frames for a view, the one prompt scheduler, several sessions on one engine, the document
// builder reading the live metrics, and the refusals a user can cause.

#include "app/engine/document_writer.h"
#include "app/engine/session_csv.h"
#include "app/engine/session_document_builder.h"
#include "app/engine/session_engine.h"
#include "app/report/session_document.h"
#include "app/sim/frame_barcode.h"
#include "metrics/session_metrics.h"
#include "resources/bundled_resources.h"

#include <QEventLoop>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <catch2/catch.hpp>

using namespace lbm;
using namespace lbm::engine;

namespace {

EngineSettings simulatorSettings(int chunks) {
    EngineSettings settings;
    settings.use_simulator = true;
    settings.simulator_profile = QStringLiteral("fast");
    settings.session.workload = defaultWorkload(bundledFirstFrameDataUrl().toStdString(), chunks);
    settings.session.ping_interval_s = 0;
    settings.session.first_chunk_timeout_s = 30;
    settings.session.chunk_timeout_s = 30;
    return settings;
}

} // namespace

TEST_CASE("the engine runs a simulator session and hands a view every frame in order", "[engine]") {
    QTemporaryDir dir;
    EngineSettings settings = simulatorSettings(5);
    settings.recording_path = dir.filePath(QStringLiteral("stream.m4s"));
    settings.present_frames = true;
    SessionEngine engine;
    QList<qint64> shown;
    // The view: takes frames when the engine says the queue changed, like the window's clock
    // (it is told of every change it needs: no frame is left waiting unannounced).
    QObject::connect(&engine, &SessionEngine::framesReady, [&] {
        const auto pictures = engine.pictureQueue();
        while (const auto frame = pictures->tryPop()) {
            shown.append(sim::readFrameBarcodeLuma(frame->lumaData(), frame->lumaStride(),
                                                   frame->width(), frame->height())
                             .value_or(-1));
        }
    });
    QSignalSpy landed(&engine, &SessionEngine::chunkLanded);
    QString error;
    REQUIRE(engine.start(settings, &error));
    CHECK(engine.running());
    REQUIRE(engine.pictureQueue());
    REQUIRE(engine.waitForFinished(60000));
    REQUIRE(QTest::qWaitFor([&] { return engine.pictureQueue()->isDrained(); }, 10000));
    // Sized by the metadata: (start buffer + 2) chunks of the largest chunk's 12 frames.
    CHECK(engine.pictureQueue()->capacity() == pictureQueueFrames(1, 12));

    const auto& result = *engine.result();
    INFO(result.error.toStdString());
    REQUIRE(result.ok);
    CHECK(landed.count() == 5);
    const qint64 frames = 9 + 4 * 12;
    CHECK(engine.framesAnnounced() == frames);
    CHECK(engine.framesDecoded() == frames);
    REQUIRE(shown.size() == frames);
    for (qint64 n = 0; n < frames; ++n) {
        CHECK(shown[static_cast<int>(n)] == n);
    }
    CHECK(engine.recordedBytes() == result.media_bytes + result.trailer_bytes);
    // Every surface reads the live model; it equals the seed's computation of the records.
    MetricsOptions options = settings.metrics;
    options.ttfc_s = result.ttfc_s;
    options.session_wall_s = result.wall_s;
    const SessionMetrics expected = computeMetrics(result.records, options);
    const SessionMetrics live = engine.liveMetrics().metrics(result.ttfc_s, result.wall_s);
    CHECK(live.video_rtf == expected.video_rtf);
    CHECK(live.interval_all->p99_ms == expected.interval_all->p99_ms);
    CHECK(live.playback.total_stall_s == expected.playback.total_stall_s);
    CHECK(engine.endpointText().startsWith(QStringLiteral("simulator (fast) at ws://127.0.0.1:")));
}

TEST_CASE("the document's config is the settings' one translation and reads back as the live "
          "metrics' options",
          "[engine][settings]") {
    EngineSettings settings = simulatorSettings(5);
    settings.metrics.fps = 20.0;
    settings.metrics.warmup_chunks = 2;
    settings.metrics.slo_ms = 432.5;
    settings.metrics.playback_buffer_chunks = 3;
    settings.session.workload.fps = 24;
    const report::RunConfig config = runConfigFor(settings);
    CHECK(config.target_fps == 20.0);
    CHECK(config.mux_fps == 24);
    CHECK(config.warmup_chunks == 2);
    CHECK(config.chunk_slo_ms == std::optional<double>(432.5));
    CHECK(config.playback_buffer_chunks == 3);
    // What a saved document's metrics are computed with equals what the engine measured with.
    const MetricsOptions read_back = report::metricsOptionsFor(config);
    CHECK(read_back.fps == settings.metrics.fps);
    CHECK(read_back.warmup_chunks == settings.metrics.warmup_chunks);
    CHECK(read_back.slo_ms == settings.metrics.slo_ms);
    CHECK(read_back.playback_buffer_chunks == settings.metrics.playback_buffer_chunks);
    CHECK(chunkDeadlineMs(read_back) == 432.5);
}

TEST_CASE("prompts scheduled after a chunk go out through the session's one scheduler",
          "[engine]") {
    EngineSettings settings = simulatorSettings(8);
    settings.session.workload.prompt_updates = {PromptUpdate{1, "A snowy street", 1}};
    SessionEngine engine;
    QSignalSpy scheduled(&engine, &SessionEngine::promptScheduled);
    QString later_id, late_id;
    QObject::connect(&engine, &SessionEngine::chunkLanded, [&](const ChunkRecord& record, double) {
        if (record.index == 0) {
            later_id = engine.schedulePrompt(3, QStringLiteral("Night falls"), 0);
        }
        if (record.index == 5) {
            // After a chunk that already landed: sent at once.
            late_id = engine.schedulePrompt(2, QStringLiteral("Dawn"), 1);
        }
    });
    QString error;
    REQUIRE(engine.start(settings, &error));
    REQUIRE(engine.waitForFinished(60000));
    REQUIRE(engine.result()->ok);
    REQUIRE(scheduled.count() == 2);
    CHECK(scheduled.at(0).at(0).toString() == later_id);
    const auto& timeline = engine.timeline();
    const auto* workload_update = timeline.find(QStringLiteral("chunk-1"));
    const auto* later = timeline.find(later_id);
    const auto* late = timeline.find(late_id);
    REQUIRE(workload_update);
    REQUIRE(later);
    REQUIRE(late);
    REQUIRE(later->started_chunk);
    CHECK(*later->started_chunk >= 4); // sent right after chunk 3 landed
    CHECK(*later->sent_s >= engine.liveMetrics().records()[3].arrival_s);
    CHECK(*later->sent_s < engine.liveMetrics().records()[4].arrival_s);
    REQUIRE(late->started_chunk);
    CHECK(*late->started_chunk >= 6);
    // Each prompt's K is kept on its record, whoever scheduled it.
    CHECK(workload_update->transition_chunks == 1);
    CHECK(later->transition_chunks == 0);
    CHECK(late->transition_chunks == 1);
    // The CSV lists the ids where the server reported them.
    const QByteArray csv = sessionCsvTable(engine).toCsv();
    CHECK(csv.contains(later_id.toUtf8()));
}

TEST_CASE("one engine runs sessions in turn and the builder documents each", "[engine]") {
    EngineSettings settings = simulatorSettings(3);
    settings.sessions = 2;
    SessionEngine engine;
    QString error;
    REQUIRE(engine.prepareEndpoint(settings, &error).isValid());
    SessionDocumentBuilder builder(settings, engine.prepareEndpoint(settings, &error).toString());
    QUrl first_url;
    for (int i = 0; i < 2; ++i) {
        REQUIRE(engine.start(settings, &error));
        if (i == 0) {
            first_url = engine.url();
        }
        REQUIRE(engine.waitForFinished(60000));
        REQUIRE(engine.result()->ok);
        const auto& entry = builder.addSession(engine);
        CHECK(entry.session_index == i);
        REQUIRE(entry.metrics);
        CHECK(entry.metrics->chunks_received == 3);
        CHECK(entry.monitor_extras.value(QStringLiteral("frames_decoded")).toInt() == 33);
    }
    // The simulator stayed up between sessions.
    CHECK(engine.url() == first_url);
    const auto document = builder.document();
    REQUIRE(document.monitor);
    CHECK(document.monitor->complete);
    REQUIRE(document.metrics);
    CHECK(document.metrics->sessions == 2);
    CHECK(document.config.sessions == 2);
}

TEST_CASE("the engine refuses what a user can get wrong, with the reason", "[engine]") {
    SessionEngine engine;
    QString error;
    SECTION("an unknown simulator fault") {
        EngineSettings settings = simulatorSettings(3);
        settings.simulator_faults = {QStringLiteral("melt@2")};
        CHECK_FALSE(engine.start(settings, &error));
        CHECK(error.contains(QStringLiteral("melt")));
        CHECK_FALSE(engine.running());
    }
    SECTION("a recording path in a missing folder") {
        EngineSettings settings = simulatorSettings(3);
        settings.recording_path = QStringLiteral("/nonexistent-folder/stream.m4s");
        CHECK_FALSE(engine.start(settings, &error));
        CHECK(error.contains(QStringLiteral("/nonexistent-folder")));
    }
    SECTION("a second session while one runs") {
        EngineSettings settings = simulatorSettings(40);
        REQUIRE(engine.start(settings, &error));
        CHECK_FALSE(engine.start(settings, &error));
        CHECK(error.contains(QStringLiteral("already running")));
        engine.stop();
        REQUIRE(engine.waitForFinished(30000));
        CHECK(engine.result()->stop_requested);
    }
}

TEST_CASE("the engine tells how long the stream has been silent", "[engine][paced]") {
    EngineSettings settings = simulatorSettings(6);
    settings.simulator_faults = {QStringLiteral("stall@2")};
    settings.session.chunk_timeout_s = 2;
    SessionEngine engine;
    QString error;
    REQUIRE(engine.start(settings, &error));
    REQUIRE(QTest::qWaitFor([&] { return engine.liveMetrics().chunkCount() == 2; }, 20000));
    // The silence grows while the stall lasts, and is reported as it does.
    REQUIRE(QTest::qWaitFor(
        [&] {
            const auto silent = engine.secondsSinceLastChunk();
            return silent && *silent >= 0.5;
        },
        5000));
    REQUIRE(engine.waitForFinished(30000));
    CHECK_FALSE(engine.result()->ok);
    CHECK(engine.result()->error.startsWith(QStringLiteral("No media chunk for 2 s after 2")));
    CHECK_FALSE(engine.secondsSinceLastChunk());
}

TEST_CASE("the document writer replaces the file off the caller's thread and says what it cost",
          "[engine][keep]") {
    const EngineSettings settings = simulatorSettings(3);
    SessionEngine engine;
    QString error;
    REQUIRE(engine.start(settings, &error));
    REQUIRE(engine.waitForFinished(60000));
    SessionDocumentBuilder builder(settings, engine.url().toString());
    builder.addSession(engine);
    const auto document = builder.document();

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("session.json"));
    lbm::engine::DocumentWriter writer;
    CHECK(writer.lastWriteNs() == 0);
    writer.write(document, path);
    REQUIRE(writer.flush(10000));
    CHECK(writer.writesDone() == 1);
    CHECK(writer.lastError().isEmpty());
    // The keeper spaces its rewrites by this.
    CHECK(writer.lastWriteNs() > 0);
    CHECK(lbm::report::readSessionDocument(path).sessions.front().chunks.size() == 3);

    // A folder that does not exist: the failure names the path, the writer goes on.
    const QString nowhere = dir.filePath(QStringLiteral("missing/session.json"));
    writer.write(document, nowhere);
    REQUIRE(writer.flush(10000));
    CHECK(writer.lastError().contains(QStringLiteral("missing")));
    writer.write(document, path);
    REQUIRE(writer.flush(10000));
    CHECK(writer.lastError().isEmpty());
    CHECK(writer.writesDone() == 3);
}
