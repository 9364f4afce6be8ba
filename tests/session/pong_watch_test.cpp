#include "app/session/pong_watch.h"

#include <catch2/catch.hpp>

using lbm::session::PongWatch;

TEST_CASE("a server that answers no ping while chunks keep coming is noticed", "[session][ping]") {
    PongWatch watch;
    watch.pingSent(1.0);
    watch.chunkArrived(1.5);
    CHECK_FALSE(watch.silentSince(2.5)); // not waited long enough
    CHECK(watch.silentSince(3.1) == 1.0);
    watch.pongReceived(); // late, but answered
    CHECK_FALSE(watch.silentSince(10.0));

    PongWatch stalled;
    stalled.chunkArrived(0.5);
    stalled.pingSent(1.0);
    // Nothing arrives at all: that is a stall for the chunk timeout, not a silent loop.
    CHECK_FALSE(stalled.silentSince(20.0));
    stalled.chunkArrived(4.0);
    CHECK(stalled.silentSince(20.0) == 1.0);
}
