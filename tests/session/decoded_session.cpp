#include "decoded_session.h"

#include "app/media/recorder.h"
#include "app/media/stream_decoder.h"
#include "app/sim/frame_barcode.h"

#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <catch2/catch.hpp>

namespace lbm::session {

DecodedSession
runDecodedSession(const SessionOptions& options, int timeout_ms,
                  const std::function<void(SessionClient&, const ChunkEvent&)>& on_chunk) {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString raw = dir.filePath(QStringLiteral("stream.m4s"));
    media::Recorder recorder;
    REQUIRE(recorder.open(raw));
    media::StreamDecoder decoder;
    DecodedSession run;
    const auto drain = [&] {
        while (const auto frame = decoder.popFrame(0)) {
            run.barcodes.append(sim::readFrameBarcodeLuma(frame->lumaData(), frame->lumaStride(),
                                                          frame->width(), frame->height())
                                    .value_or(-1));
        }
    };
    QObject::connect(&decoder, &media::StreamDecoder::framesAvailable, &decoder, drain);

    SessionClient client;
    QEventLoop loop;
    QObject::connect(&client, &SessionClient::chunkReceived, [&](const ChunkEvent& chunk) {
        if (!recorder.append(chunk.bytes())) {
            run.recorded_every_chunk = false;
        }
        media::ChunkInfo info;
        info.transport_index = chunk.transportChunkIndex();
        info.generation_index = chunk.generationChunkIndex();
        info.num_frames = chunk.numFrames();
        info.kind = chunk.isTrailer() ? media::ChunkKind::Trailer : media::ChunkKind::Media;
        decoder.pushChunk(info, chunk.bytes());
        if (on_chunk) {
            on_chunk(client, chunk);
        }
    });
    QObject::connect(&client, &SessionClient::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeout_ms, &loop, &QEventLoop::quit);
    client.start(options);
    loop.exec();
    REQUIRE(client.result().has_value());
    run.result = *client.result();
    run.timeline = client.timeline();
    recorder.close();
    decoder.finish();
    while (!decoder.waitForEnd(20)) {
        drain();
    }
    drain();
    run.frames_decoded = decoder.stats().frames_decoded;
    run.remux = media::remuxToMp4(raw, dir.filePath(QStringLiteral("stream.mp4")));
    return run;
}

qint64 announcedFrames(const SessionResult& result) {
    qint64 frames = 0;
    for (const ChunkRecord& record : result.records) {
        frames += record.num_frames;
    }
    return frames;
}

} // namespace lbm::session
