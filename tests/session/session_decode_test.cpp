#include "decoded_session.h"
#include "resources/bundled_resources.h"
#include "scripted_server.h"

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
    const DecodedSession run = runDecodedSession(options, 60000);
    INFO(run.result.error.toStdString());
    REQUIRE(run.result.ok);
    REQUIRE(run.recorded_every_chunk);

    const qint64 announced = announcedFrames(run.result);
    REQUIRE(announced == 9 + 3 * 12);
    REQUIRE(run.frames_decoded == announced);
    QList<qint64> expected;
    for (qint64 n = 0; n < announced; ++n) {
        expected.append(n);
    }
    REQUIRE(run.barcodes == expected);
    INFO(run.remux.error.toStdString());
    REQUIRE(run.remux.ok);
    REQUIRE(run.remux.packets_written == announced);
}
