#include "decoded_session.h"

#include "app/sim/frame_barcode.h"
#include "resources/bundled_resources.h"

#include <QFileInfo>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

#include <mutex>

namespace lbm::engine {

EngineSettings testSettings(const QUrl& url, int chunks) {
    EngineSettings settings;
    settings.use_simulator = false;
    settings.session.url = url;
    settings.session.workload = defaultWorkload(bundledFirstFrameDataUrl().toStdString(), chunks);
    settings.session.ping_interval_s = 0;
    settings.session.first_chunk_timeout_s = 30;
    settings.session.chunk_timeout_s = 30;
    return settings;
}

DecodedSession
runDecodedSession(const EngineSettings& base, int timeout_ms,
                  const std::function<void(SessionEngine&, const ChunkRecord&)>& on_chunk) {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    EngineSettings settings = base;
    settings.recording_path = dir.filePath(QStringLiteral("stream.m4s"));
    settings.decode = true;

    DecodedSession run;
    std::mutex barcodes_mutex;
    SessionEngine engine;
    // A frame consumer runs on the engine's pump thread.
    engine.addFrameConsumer([&](const media::DecodedFrame& frame) {
        const qint64 barcode = sim::readFrameBarcodeLuma(frame.lumaData(), frame.lumaStride(),
                                                         frame.width(), frame.height())
                                   .value_or(-1);
        std::lock_guard lock(barcodes_mutex);
        run.barcodes.append(barcode);
    });
    qint64 bytes_landed = 0;
    QObject::connect(&engine, &SessionEngine::chunkLanded, [&](const ChunkRecord& record, double) {
        bytes_landed += record.byte_length;
        if (on_chunk) {
            on_chunk(engine, record);
        }
    });
    QString error;
    REQUIRE(engine.start(settings, &error));
    engine.waitForFinished(timeout_ms);
    REQUIRE(engine.result().has_value());
    REQUIRE(engine.decodingFinished());
    run.result = *engine.result();
    run.timeline = engine.timeline();
    run.frames_decoded = engine.framesDecoded();
    // Media bytes plus the trailer's must all be in the file.
    run.recorded_every_chunk = engine.recordingError().isEmpty() &&
                               QFileInfo(settings.recording_path).size() ==
                                   run.result.media_bytes + run.result.trailer_bytes &&
                               bytes_landed == run.result.media_bytes;
    run.remux =
        media::remuxToMp4(settings.recording_path, dir.filePath(QStringLiteral("stream.mp4")));
    std::lock_guard lock(barcodes_mutex);
    return run;
}

qint64 announcedFrames(const session::SessionResult& result) {
    qint64 frames = 0;
    for (const ChunkRecord& record : result.records) {
        frames += record.num_frames;
    }
    return frames;
}

} // namespace lbm::engine
