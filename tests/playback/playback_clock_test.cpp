// The presentation clock as a viewer experiences it: cadence at the target fps without
// drift, nothing on screen before the start buffer, stalls counted when a frame is late.

#include "app/playback/playback_clock.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <catch2/catch.hpp>

#include <chrono>
#include <vector>

using lbm::playback::PlaybackClock;
using lbm::playback::PlaybackFrame;

namespace {

PlaybackFrame makeFrame(qint64 frame_number, qint64 chunk, int index_in_chunk) {
    // The clock never looks at the picture: a null one stands for it.
    PlaybackFrame frame;
    frame.frame_number = frame_number;
    frame.chunk_index = chunk;
    frame.index_in_chunk = index_in_chunk;
    return frame;
}

// Adds a whole chunk (metadata first, as the session announces it).
qint64 addChunk(PlaybackClock& clock, qint64 chunk, int frames, qint64 first_frame_number) {
    clock.announceChunk(chunk, frames);
    for (int i = 0; i < frames; ++i) {
        clock.addFrame(makeFrame(first_frame_number + i, chunk, i));
    }
    return first_frame_number + frames;
}

struct Presentation {
    qint64 frame_number;
    std::chrono::steady_clock::time_point at;
};

} // namespace

TEST_CASE("frames are presented at the target fps without accumulating drift",
          "[playback][timing]") {
    PlaybackClock clock;
    clock.setTargetFps(50.0);
    clock.setStartBufferChunks(1);
    clock.reset();
    std::vector<Presentation> shown;
    QObject::connect(&clock, &PlaybackClock::framePresented, [&](const PlaybackFrame& frame) {
        shown.push_back({frame.frame_number, std::chrono::steady_clock::now()});
    });
    addChunk(clock, 0, 25, 0);
    clock.finishStream();
    QTRY_COMPARE_WITH_TIMEOUT(clock.state(), PlaybackClock::State::Finished, 5000);

    REQUIRE(shown.size() == 25);
    for (std::size_t i = 0; i < shown.size(); ++i) {
        CHECK(shown[i].frame_number == static_cast<qint64>(i));
    }
    // 24 periods of 20 ms: an accumulating timer would be late by its wake-up latency
    // every frame; slots from one anchor keep the whole span on time.
    const double span_ms =
        std::chrono::duration<double, std::milli>(shown.back().at - shown.front().at).count();
    CHECK(span_ms == Approx(480.0).margin(25.0));
    for (std::size_t i = 1; i < shown.size(); ++i) {
        const double gap_ms =
            std::chrono::duration<double, std::milli>(shown[i].at - shown[i - 1].at).count();
        CHECK(gap_ms > 5.0);
        CHECK(gap_ms < 60.0);
    }
    CHECK(clock.stalls().count == 0);
}

TEST_CASE("nothing is shown until the start buffer of whole chunks is decoded", "[playback]") {
    PlaybackClock clock;
    clock.setTargetFps(100.0);
    clock.setStartBufferChunks(2);
    clock.reset();
    QSignalSpy presented(&clock, &PlaybackClock::framePresented);

    qint64 next = addChunk(clock, 0, 9, 0);
    clock.announceChunk(1, 12);
    for (int i = 0; i < 11; ++i) {
        clock.addFrame(makeFrame(next++, 1, i));
    }
    QTest::qWait(60);
    CHECK(presented.isEmpty());
    CHECK(clock.state() == PlaybackClock::State::Buffering);

    // The second chunk's last frame completes the buffer.
    clock.addFrame(makeFrame(next++, 1, 11));
    REQUIRE(presented.count() >= 1);
    CHECK(presented.first().at(0).value<PlaybackFrame>().frame_number == 0);
    CHECK(clock.state() == PlaybackClock::State::Playing);
}

TEST_CASE("without chunk metadata a frame of the next chunk completes the buffer", "[playback]") {
    PlaybackClock clock;
    clock.setTargetFps(100.0);
    clock.setStartBufferChunks(1);
    clock.reset();
    for (int i = 0; i < 9; ++i) {
        clock.addFrame(makeFrame(i, 0, i));
    }
    CHECK(clock.state() == PlaybackClock::State::Buffering);
    // The server's muxer lags one frame: chunk 0's last frame comes with chunk 1.
    clock.addFrame(makeFrame(9, 1, 0));
    CHECK(clock.state() == PlaybackClock::State::Playing);
    CHECK(clock.framesPresented() == 1);
}

TEST_CASE("a frame that is due and missing is a stall, counted once with its length",
          "[playback]") {
    PlaybackClock clock;
    clock.setTargetFps(100.0);
    clock.setStartBufferChunks(1);
    clock.reset();
    QSignalSpy started(&clock, &PlaybackClock::stallStarted);
    QSignalSpy ended(&clock, &PlaybackClock::stallEnded);

    qint64 next = addChunk(clock, 0, 3, 0);
    QTRY_COMPARE_WITH_TIMEOUT(clock.state(), PlaybackClock::State::Stalled, 2000);
    CHECK(started.count() == 1);
    QElapsedTimer waited;
    waited.start();
    QTest::qWait(150);
    CHECK(clock.stalls().ongoing_s >= 0.14);

    next = addChunk(clock, 1, 3, next);
    const double waited_s = static_cast<double>(waited.elapsed()) / 1000.0;
    CHECK(clock.state() == PlaybackClock::State::Playing);
    REQUIRE(ended.count() == 1);
    const auto stalls = clock.stalls();
    CHECK(stalls.count == 1);
    CHECK(stalls.total_s >= 0.14);
    // The stall began when the fourth frame was due, a little before we started waiting.
    CHECK(stalls.total_s < waited_s + 0.1);
    CHECK(stalls.longest_s == Approx(stalls.total_s));
    CHECK(stalls.ongoing_s == 0.0);

    // A second gap is a second stall; the longest keeps the first.
    QTRY_COMPARE_WITH_TIMEOUT(clock.state(), PlaybackClock::State::Stalled, 2000);
    QTest::qWait(30);
    addChunk(clock, 2, 3, next);
    CHECK(clock.stalls().count == 2);
    CHECK(clock.stalls().longest_s == Approx(stalls.longest_s));
    CHECK(clock.stalls().total_s > stalls.total_s);
}

TEST_CASE("the end of the stream is not a stall", "[playback]") {
    PlaybackClock clock;
    clock.setTargetFps(100.0);
    clock.reset();
    addChunk(clock, 0, 4, 0);
    clock.finishStream();
    QTRY_COMPARE_WITH_TIMEOUT(clock.state(), PlaybackClock::State::Finished, 2000);
    CHECK(clock.framesPresented() == 4);
    CHECK(clock.stalls().count == 0);
}

TEST_CASE("pause holds the picture, frame-step advances one frame, resume continues",
          "[playback]") {
    PlaybackClock clock;
    clock.setTargetFps(50.0);
    clock.reset();
    addChunk(clock, 0, 20, 0);
    clock.finishStream();
    QTRY_VERIFY_WITH_TIMEOUT(clock.framesPresented() >= 3, 2000);
    clock.pause();
    const qint64 at_pause = clock.framesPresented();
    QTest::qWait(120);
    CHECK(clock.framesPresented() == at_pause);
    CHECK(clock.stalls().count == 0);

    REQUIRE(clock.stepForward());
    CHECK(clock.framesPresented() == at_pause + 1);
    CHECK(clock.currentFrame()->frame_number == at_pause);

    clock.resume();
    QTRY_COMPARE_WITH_TIMEOUT(clock.state(), PlaybackClock::State::Finished, 3000);
    CHECK(clock.framesPresented() == 20);
    CHECK_FALSE(clock.stepForward());
}

TEST_CASE("a pause during a stall does not count as stall time", "[playback]") {
    PlaybackClock clock;
    clock.setTargetFps(100.0);
    clock.reset();
    qint64 next = addChunk(clock, 0, 2, 0);
    QTRY_COMPARE_WITH_TIMEOUT(clock.state(), PlaybackClock::State::Stalled, 2000);
    clock.pause();
    QTest::qWait(200);
    addChunk(clock, 1, 2, next);
    clock.resume();
    CHECK(clock.stalls().count == 1);
    CHECK(clock.stalls().total_s < 0.15);
}

TEST_CASE("each frame reaches the presenter at its slot, in order, unaltered", "[playback]") {
    PlaybackClock clock;
    std::vector<qint64> presented;
    clock.setPresenter(
        [&](const PlaybackFrame& frame) { presented.push_back(frame.frame_number); });
    clock.setTargetFps(100.0);
    clock.reset();
    addChunk(clock, 0, 2, 0);
    // The first frame goes out as the start buffer fills; the second at its slot.
    REQUIRE(presented == std::vector<qint64>{0});
    CHECK(clock.currentFrame()->frame_number == 0);
    QTest::qWait(40);
    CHECK(presented == std::vector<qint64>{0, 1});
}
