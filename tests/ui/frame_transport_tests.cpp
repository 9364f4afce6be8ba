// The frame-player transport the recording player and Compare share, driven on a real
// ScrubBar: it plays frame after frame at the fps and says so, pauses at once, stops on the
// last frame and starts again from the first, steps by frame and by chunk (the layout's
// chunk-step rule), clamps to the recording, and its keys and shortcuts do the same.

#include "ui/frame_transport.h"
#include "ui/recording_frames.h"
#include "ui/scrub_bar.h"

#include <QKeyEvent>
#include <QSignalSpy>
#include <QTest>
#include <QWidget>

#include <catch2/catch.hpp>

using lbm::ui::FrameTransport;
using lbm::ui::ScrubBar;

namespace {

QList<int> frameArguments(const QSignalSpy& spy) {
    QList<int> frames;
    for (const auto& arguments : spy) {
        frames << arguments.at(0).toInt();
    }
    return frames;
}

bool press(FrameTransport& transport, int key, Qt::KeyboardModifiers modifiers = {}) {
    const QKeyEvent event(QEvent::KeyPress, key, modifiers);
    return transport.handleKey(&event);
}

} // namespace

TEST_CASE("the frame transport plays frame after frame at the fps and pauses at once",
          "[ui][player][transport]") {
    ScrubBar bar;
    FrameTransport transport(&bar);
    CHECK(transport.intervalMs() == 62); // 16 fps until the recording says
    transport.setFps(0.2);
    CHECK(transport.intervalMs() == 1000); // at least 1 fps
    transport.setFps(100.0);
    CHECK(transport.intervalMs() == 10);

    transport.setFrames(40, {});
    CHECK(bar.count() == 40);
    transport.setLabel(QStringLiteral("frame 0 / 40"));
    QSignalSpy moved(&bar, &ScrubBar::positionChanged);
    QSignalSpy playing(&transport, &FrameTransport::playingChanged);
    transport.togglePlay();
    CHECK(transport.isPlaying());
    CHECK(bar.label() == QStringLiteral("frame 0 / 40 · playing"));
    REQUIRE(QTest::qWaitFor([&] { return transport.position() >= 4; }, 10000));
    transport.togglePlay();
    CHECK_FALSE(transport.isPlaying());
    // Paused, the line says so at once, before the owner shows another frame.
    CHECK(bar.label() == QStringLiteral("frame 0 / 40"));
    // One frame at a time, none skipped.
    const QList<int> frames = frameArguments(moved);
    REQUIRE(frames.size() >= 4);
    for (int i = 0; i < frames.size(); ++i) {
        CHECK(frames.at(i) == i + 1);
    }
    REQUIRE(playing.size() == 2);
    CHECK(playing.at(0).at(0).toBool());
    CHECK_FALSE(playing.at(1).at(0).toBool());
}

TEST_CASE("the frame transport stops on the last frame and plays again from the first",
          "[ui][player][transport]") {
    ScrubBar bar;
    FrameTransport transport(&bar);
    transport.setFps(1000.0);
    transport.setFrames(6, {});
    transport.seekFrame(3);
    QSignalSpy playing(&transport, &FrameTransport::playingChanged);
    transport.play();
    REQUIRE(QTest::qWaitFor([&] { return !transport.isPlaying(); }, 10000));
    CHECK(transport.position() == 5);
    CHECK(playing.size() == 2);
    // At the end, play starts from the first frame.
    transport.togglePlay();
    CHECK(transport.isPlaying());
    CHECK(transport.position() == 0);
    transport.pause();
    CHECK_FALSE(transport.isPlaying());
}

TEST_CASE("the frame transport steps by frame and by chunk and clamps to the recording",
          "[ui][player][transport]") {
    ScrubBar bar;
    FrameTransport transport(&bar);
    // Nothing to play yet: the transport does nothing.
    transport.togglePlay();
    CHECK_FALSE(transport.isPlaying());
    CHECK_FALSE(press(transport, Qt::Key_Right));

    // A chunk layout of 9 + 12 + 12 frames (known at once; the missing file fails later, on
    // the worker) under a 40-frame transport, as Compare's shorter side.
    lbm::ui::RecordingFrames layout;
    layout.open(QStringLiteral("/nonexistent/session.m4s"), {9, 12, 12});
    transport.setChunkLayout(&layout);
    transport.setFrames(40, {});

    transport.seekFrame(5);
    transport.stepChunk(+1);
    CHECK(transport.position() == 9);
    transport.stepChunk(+1);
    CHECK(transport.position() == 21);
    transport.stepChunk(+1); // no chunk after the last: the end
    CHECK(transport.position() == 39);
    transport.stepChunk(-1); // back to the start of the chunk it is in
    CHECK(transport.position() == 21);
    transport.step(-3);
    CHECK(transport.position() == 18);
    transport.step(-100);
    CHECK(transport.position() == 0);
    transport.stepChunk(-1);
    CHECK(transport.position() == 0);
    transport.step(100);
    CHECK(transport.position() == 39);
    transport.seekFrame(-5);
    CHECK(transport.position() == 0);

    // A step pauses playback.
    transport.play();
    REQUIRE(transport.isPlaying());
    transport.step(1);
    CHECK_FALSE(transport.isPlaying());

    // The keys: Right / Left a frame, Shift a chunk, Home / End; others are not the
    // transport's.
    transport.seekFrame(0);
    CHECK(press(transport, Qt::Key_Right));
    CHECK(transport.position() == 1);
    CHECK(press(transport, Qt::Key_Right, Qt::ShiftModifier));
    CHECK(transport.position() == 9);
    CHECK(press(transport, Qt::Key_Left));
    CHECK(transport.position() == 8);
    CHECK(press(transport, Qt::Key_End));
    CHECK(transport.position() == 39);
    CHECK(press(transport, Qt::Key_Left, Qt::ShiftModifier));
    CHECK(transport.position() == 21);
    CHECK(press(transport, Qt::Key_Home));
    CHECK(transport.position() == 0);
    CHECK_FALSE(press(transport, Qt::Key_A));

    // Unloaded (the recording closes): keys and play do nothing, the bar keeps its frames.
    transport.unload();
    CHECK_FALSE(press(transport, Qt::Key_End));
    transport.togglePlay();
    CHECK_FALSE(transport.isPlaying());
    CHECK(transport.position() == 0);
    CHECK(bar.count() == 40);
}

TEST_CASE("the frame transport's shortcuts and bar buttons work for a whole window",
          "[ui][player][transport]") {
    QWidget window;
    auto* bar = new ScrubBar(&window);
    FrameTransport transport(bar);
    transport.addShortcuts(&window);
    transport.setFrames(30, {});
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    window.activateWindow();
    REQUIRE(QTest::qWaitForWindowActive(&window));

    QTest::keyClick(&window, Qt::Key_End);
    CHECK(transport.position() == 29);
    QTest::keyClick(&window, Qt::Key_Left);
    CHECK(transport.position() == 28);
    QTest::keyClick(&window, Qt::Key_Home);
    CHECK(transport.position() == 0);
    QTest::keyClick(&window, Qt::Key_Space);
    CHECK(transport.isPlaying());
    QTest::keyClick(&window, Qt::Key_Space);
    CHECK_FALSE(transport.isPlaying());
    // The bar's own step and play buttons reach the transport.
    transport.seekFrame(10);
    emit bar->stepRequested(-1);
    CHECK(transport.position() == 9);
    emit bar->playToggled();
    CHECK(transport.isPlaying());
    emit bar->playToggled();
    CHECK_FALSE(transport.isPlaying());
}
