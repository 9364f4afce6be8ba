// The presenter as a viewer experiences it: cadence at the target fps without drift, nothing
// on screen before the start buffer, stalls counted when a frame is late. The clock reads a
// virtual time source here and its timer is stood in for by waking it at the moment it asked
// for (nextWakeUp), so every time below is exact and no test waits on the wall clock; one
// case runs the real timer to the end of a stream.

#include "app/media/bounded_frame_queue.h"
#include "app/playback/playback_clock.h"

#include <QSignalSpy>
#include <QTest>

#include <catch2/catch.hpp>

#include <chrono>
#include <memory>
#include <vector>

using lbm::media::BoundedFrameQueue;
using lbm::media::DecodedFrame;
using lbm::media::FrameTag;
using lbm::playback::PlaybackClock;
using namespace std::chrono_literals;

namespace {

using TimePoint = PlaybackClock::TimePoint;

double msBetween(TimePoint from, TimePoint to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}

// The window's player on virtual time: the decoder's picture queue, the clock reading it and
// a presenter that notes what it showed when.
struct Player {
    struct Shown {
        qint64 frame_number;
        TimePoint at;
    };

    TimePoint start = TimePoint{} + 1h; // any origin; not the epoch, so stalls can begin before
    TimePoint now = start;
    std::shared_ptr<BoundedFrameQueue> pictures = std::make_shared<BoundedFrameQueue>(1000);
    PlaybackClock clock;
    std::vector<Shown> shown;
    qint64 next_frame = 0;

    Player(double fps, int start_buffer_chunks) {
        clock.setTimeSource([this] { return now; });
        clock.setTargetFps(fps);
        clock.setStartBufferChunks(start_buffer_chunks);
        clock.setPresenter([this](const DecodedFrame& frame) {
            shown.push_back({frame.globalFrameNumber(), now});
        });
        clock.reset(pictures);
    }

    // frames of chunk decoded; announced (its metadata) first unless told otherwise.
    void decode(qint64 chunk, int frames, int first_index = 0, bool announce = true,
                int announced_frames = 0) {
        if (announce) {
            clock.announceChunk(chunk, announced_frames > 0 ? announced_frames : frames);
        }
        for (int i = first_index; i < first_index + frames; ++i) {
            FrameTag tag;
            tag.global_frame_number = next_frame++;
            tag.chunk = lbm::ChunkIdentity{chunk, chunk, 0, lbm::ChunkKind::Media};
            tag.index_in_chunk = i;
            pictures->push(DecodedFrame(tag));
        }
        clock.update(); // the engine's framesReady
    }

    void endStream() {
        pictures->close();
        clock.update();
    }

    // Lets time pass to `to`, waking the clock whenever its timer would fire, late_by after
    // the moment it asked for (a busy event loop).
    void runTo(TimePoint to, std::chrono::nanoseconds late_by = 0ns) {
        while (const auto wake = clock.nextWakeUp()) {
            if (*wake + late_by > to) {
                break;
            }
            now = *wake + late_by;
            clock.update();
        }
        now = to;
    }
    void runFor(std::chrono::nanoseconds span, std::chrono::nanoseconds late_by = 0ns) {
        runTo(now + span, late_by);
    }
};

} // namespace

TEST_CASE("frames are presented at the target fps without accumulating drift", "[playback]") {
    const auto late_by = GENERATE(0ms, 3ms);
    Player player(50.0, 1);
    player.decode(0, 25);
    player.endStream();
    player.runFor(2s, late_by);

    CHECK(player.clock.state() == PlaybackClock::State::Finished);
    REQUIRE(player.shown.size() == 25);
    for (std::size_t i = 0; i < player.shown.size(); ++i) {
        CHECK(player.shown[i].frame_number == static_cast<qint64>(i));
        // Slots count from one anchor, so a timer that always wakes 3 ms late shows every
        // frame 3 ms late, not 3 ms more late each time.
        const double expected_ms =
            i == 0 ? 0.0 : 20.0 * static_cast<double>(i) + 3.0 * (late_by > 0ms);
        CHECK(msBetween(player.start, player.shown[i].at) == Approx(expected_ms).margin(0.01));
    }
    CHECK(player.clock.stalls().count == 0);
}

TEST_CASE("nothing is shown until the start buffer of whole chunks is decoded", "[playback]") {
    Player player(100.0, 2);
    QSignalSpy presented(&player.clock, &PlaybackClock::framePresented);

    player.decode(0, 9);
    player.decode(1, 11, 0, true, 12);
    player.runFor(1s);
    CHECK(presented.isEmpty());
    CHECK(player.clock.state() == PlaybackClock::State::Buffering);
    CHECK(player.clock.nextWakeUp() == std::nullopt); // nothing to wait for but the decoder

    // The second chunk's last frame completes the buffer.
    player.decode(1, 1, 11, false);
    REQUIRE(presented.count() == 1);
    CHECK(presented.first().at(0).value<DecodedFrame>().globalFrameNumber() == 0);
    CHECK(player.clock.state() == PlaybackClock::State::Playing);
    CHECK(player.clock.queuedFrames() == 20);
}

TEST_CASE("without chunk metadata a frame of the next chunk completes the buffer", "[playback]") {
    Player player(100.0, 1);
    player.decode(0, 9, 0, false);
    CHECK(player.clock.state() == PlaybackClock::State::Buffering);
    // The server's muxer lags one frame: chunk 0's last frame comes with chunk 1.
    player.decode(1, 1, 0, false);
    CHECK(player.clock.state() == PlaybackClock::State::Playing);
    CHECK(player.clock.framesPresented() == 1);
}

TEST_CASE("a frame that is due and missing is a stall, counted once with its length",
          "[playback]") {
    Player player(100.0, 1);
    QSignalSpy started(&player.clock, &PlaybackClock::stallStarted);
    QSignalSpy ended(&player.clock, &PlaybackClock::stallEnded);

    player.decode(0, 3); // shown at 0, 10 and 20 ms; the fourth is due at 30 ms
    player.runTo(player.start + 100ms);
    CHECK(player.clock.state() == PlaybackClock::State::Stalled);
    CHECK(started.count() == 1);
    // The stall began when the frame was due, not when the clock noticed.
    CHECK(player.clock.stalls().ongoing_s == Approx(0.070));

    player.runTo(player.start + 180ms);
    player.decode(1, 3);
    CHECK(player.clock.state() == PlaybackClock::State::Playing);
    CHECK(player.shown.back().frame_number == 3);
    CHECK(msBetween(player.start, player.shown.back().at) == Approx(180.0));
    REQUIRE(ended.count() == 1);
    CHECK(ended.first().at(0).toDouble() == Approx(0.150));
    const auto stalls = player.clock.stalls();
    CHECK(stalls.count == 1);
    CHECK(stalls.total_s == Approx(0.150));
    CHECK(stalls.longest_s == Approx(0.150));
    CHECK(stalls.ongoing_s == 0.0);

    // A second gap is a second stall: frames 4 and 5 at 190 and 200 ms, the sixth due at
    // 210 ms and decoded at 230 ms. The longest keeps the first.
    player.runFor(50ms);
    CHECK(player.clock.state() == PlaybackClock::State::Stalled);
    player.decode(2, 3);
    CHECK(player.clock.stalls().count == 2);
    CHECK(player.clock.stalls().total_s == Approx(0.170));
    CHECK(player.clock.stalls().longest_s == Approx(0.150));
}

TEST_CASE("the end of the stream is not a stall", "[playback]") {
    Player player(100.0, 1);
    QSignalSpy started(&player.clock, &PlaybackClock::stallStarted);
    player.decode(0, 4);
    player.endStream();
    player.runFor(1s);
    CHECK(player.clock.state() == PlaybackClock::State::Finished);
    CHECK(player.clock.framesPresented() == 4);
    CHECK(player.clock.stalls().count == 0);
    CHECK(started.isEmpty());
}

TEST_CASE("a stream that ends before any frame finishes the player", "[playback]") {
    Player player(100.0, 1);
    player.endStream();
    CHECK(player.clock.state() == PlaybackClock::State::Finished);
    CHECK(player.shown.empty());
}

TEST_CASE("pause holds the picture, frame-step advances one frame, resume continues",
          "[playback]") {
    Player player(50.0, 1);
    player.decode(0, 20);
    player.endStream();
    player.runFor(50ms); // frames 0, 1 and 2
    REQUIRE(player.clock.framesPresented() == 3);
    player.clock.pause();
    CHECK(player.clock.nextWakeUp() == std::nullopt);
    player.runFor(10s);
    player.clock.update(); // the decoder saying more came changes nothing while paused
    CHECK(player.clock.framesPresented() == 3);
    CHECK(player.clock.stalls().count == 0);

    REQUIRE(player.clock.stepForward());
    CHECK(player.clock.framesPresented() == 4);
    CHECK(player.clock.currentFrame()->globalFrameNumber() == 3);

    const TimePoint resumed = player.now;
    player.clock.resume();
    CHECK(player.shown.back().frame_number == 4); // at once, and the cadence restarts there
    CHECK(player.shown.back().at == resumed);
    player.runFor(1s);
    CHECK(player.clock.state() == PlaybackClock::State::Finished);
    CHECK(player.clock.framesPresented() == 20);
    CHECK(msBetween(resumed, player.shown.back().at) == Approx(15 * 20.0));
    CHECK_FALSE(player.clock.stepForward());
}

TEST_CASE("a pause during a stall does not count as stall time", "[playback]") {
    Player player(100.0, 1);
    player.decode(0, 2); // the third frame is due at 20 ms
    player.runTo(player.start + 50ms);
    REQUIRE(player.clock.state() == PlaybackClock::State::Stalled);
    player.clock.pause();
    player.runFor(200ms);
    player.decode(1, 2);
    player.runFor(40ms);
    player.clock.resume();
    CHECK(player.clock.state() == PlaybackClock::State::Playing);
    CHECK(player.clock.stalls().count == 1);
    CHECK(player.clock.stalls().total_s == Approx(0.030));
}

TEST_CASE("a clock woken more than a period late restarts its cadence instead of racing",
          "[playback]") {
    Player player(50.0, 1);
    player.decode(0, 10);
    player.runFor(30ms); // frames 0 and 1
    REQUIRE(player.shown.size() == 2);
    // The event loop was blocked for 100 ms past frame 2's slot (40 ms).
    player.now = player.start + 140ms;
    player.clock.update();
    REQUIRE(player.shown.size() == 3);
    CHECK(player.clock.lastPresentationError() == std::chrono::nanoseconds(100ms));
    CHECK(player.clock.nextWakeUp() == player.now + 20ms);
    player.runFor(1s);
    CHECK(msBetween(player.start, player.shown[3].at) == Approx(160.0));
}

TEST_CASE("a clock without a stream is idle", "[playback]") {
    PlaybackClock clock;
    QSignalSpy changed(&clock, &PlaybackClock::stateChanged);
    clock.reset();
    CHECK(clock.state() == PlaybackClock::State::Idle);
    clock.update();
    CHECK(clock.nextWakeUp() == std::nullopt);
    CHECK_FALSE(clock.stepForward());
    CHECK(changed.isEmpty());
}

TEST_CASE("on its own timer and the real clock, a stream plays to its end", "[playback]") {
    auto pictures = std::make_shared<BoundedFrameQueue>(100);
    PlaybackClock clock;
    std::vector<qint64> presented;
    clock.setPresenter(
        [&](const DecodedFrame& frame) { presented.push_back(frame.globalFrameNumber()); });
    clock.setTargetFps(200.0);
    clock.reset(pictures);
    clock.announceChunk(0, 10);
    for (int i = 0; i < 10; ++i) {
        FrameTag tag;
        tag.global_frame_number = i;
        tag.chunk = lbm::ChunkIdentity{0, 0, 0, lbm::ChunkKind::Media};
        tag.index_in_chunk = i;
        pictures->push(DecodedFrame(tag));
    }
    pictures->close();
    clock.update();
    REQUIRE(presented == std::vector<qint64>{0}); // the first at once, the rest on the timer
    QTRY_COMPARE_WITH_TIMEOUT(clock.state(), PlaybackClock::State::Finished, 5000);
    CHECK(presented == std::vector<qint64>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
}
