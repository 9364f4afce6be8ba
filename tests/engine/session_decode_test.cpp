#include "decoded_session.h"
#include "resources/bundled_resources.h"
#include "tests/session/scripted_server.h"

#include <catch2/catch.hpp>

using namespace lbm;
using namespace lbm::engine;

TEST_CASE("chunk events carry a decodable stream: every frame, in order, recorded losslessly",
          "[engine][media]") {
    ScriptedServer::Script script;
    script.chunks = 4;
    script.real_video = true;
    ScriptedServer server(script);

    const DecodedSession run = runDecodedSession(testSettings(server.url(), 4), 60000);
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
