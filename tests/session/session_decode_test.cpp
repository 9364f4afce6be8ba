#include "app/media/recorder.h"
#include "app/media/remux.h"
#include "app/media/stream_decoder.h"
#include "app/session/session_client.h"
#include "app/sim/frame_barcode.h"
#include "resources/bundled_resources.h"
#include "scripted_server.h"

#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <catch2/catch.hpp>

using namespace lbm;
using namespace lbm::session;

TEST_CASE("chunk events carry a decodable stream: every frame, in order, recorded losslessly",
          "[session][media]") {
    ScriptedServer::Script script;
    script.chunks = 4;
    script.real_video = true;
    ScriptedServer server(script);

    SessionOptions options;
    options.url = server.url();
    options.workload = defaultWorkload(bundledFirstFrameDataUrl().toStdString(), 4);
    options.ping_interval_s = 0;
    QTemporaryDir dir;
    const QString raw = dir.filePath(QStringLiteral("stream.m4s"));
    media::Recorder recorder;
    REQUIRE(recorder.open(raw));
    media::StreamDecoder decoder;
    QList<qint64> barcodes;
    const auto drain = [&] {
        while (const auto frame = decoder.popFrame(0)) {
            barcodes.append(sim::readFrameBarcodeLuma(frame->lumaData(), frame->lumaStride(),
                                                      frame->width(), frame->height())
                                .value_or(-1));
        }
    };
    QObject::connect(&decoder, &media::StreamDecoder::framesAvailable, &decoder, drain);

    SessionClient client;
    QEventLoop loop;
    QObject::connect(&client, &SessionClient::chunkReceived, [&](const ChunkEvent& chunk) {
        REQUIRE(recorder.append(chunk.bytes()));
        media::ChunkInfo info;
        info.transport_index = chunk.transportChunkIndex();
        info.generation_index = chunk.generationChunkIndex();
        info.num_frames = chunk.numFrames();
        info.kind = chunk.isTrailer() ? media::ChunkKind::Trailer : media::ChunkKind::Media;
        decoder.pushChunk(info, chunk.bytes());
    });
    QObject::connect(&client, &SessionClient::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    client.start(options);
    loop.exec();
    REQUIRE(client.result().has_value());
    INFO(client.result()->error.toStdString());
    REQUIRE(client.result()->ok);
    recorder.close();
    decoder.finish();
    while (!decoder.waitForEnd(20)) {
        drain();
    }
    drain();

    qint64 announced = 0;
    for (const ChunkRecord& record : client.result()->records) {
        announced += record.num_frames;
    }
    REQUIRE(announced == 9 + 3 * 12);
    REQUIRE(decoder.stats().frames_decoded == announced);
    QList<qint64> expected;
    for (qint64 n = 0; n < announced; ++n) {
        expected.append(n);
    }
    REQUIRE(barcodes == expected);

    const media::RemuxResult remux =
        media::remuxToMp4(raw, dir.filePath(QStringLiteral("out.mp4")));
    INFO(remux.error.toStdString());
    REQUIRE(remux.ok);
    REQUIRE(remux.packets_written == announced);
}
