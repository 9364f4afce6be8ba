// The side-by-side window with two real kept sessions (a K=1 and a K=3 prompt transition, the
// second session shorter): one transport shows the same frame index on both sides (proved by
// the frame number each picture carries in its barcode), the shorter side holds its last
// frame, the player's keys work, both charts span the same chunks; and a path that is not a
// playable session shows a clear error on its side while the other side plays.

#include "app/sim/frame_barcode.h"
#include "kept_session.h"
#include "ui/latency_chart.h"
#include "ui/quality_track.h"
#include "ui/scrub_bar.h"
#include "ui/side_by_side_pane.h"
#include "ui/side_by_side_window.h"
#include "ui/video_view.h"

#include <QChart>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <catch2/catch.hpp>

using lbm::ui::SideBySideWindow;

namespace {

// The frame number the simulator stamped into the picture the side shows, or -1.
qint64 frameOnScreen(SideBySideWindow& window, int side) {
    const auto& shown = window.pane(side)->videoView()->displayedFrame();
    if (!shown) {
        return -1;
    }
    const auto* frame = &*shown;
    return lbm::sim::readFrameBarcodeLuma(frame->lumaData(), frame->lumaStride(), frame->width(),
                                          frame->height())
        .value_or(-2);
}

bool shows(SideBySideWindow& window, qint64 left, qint64 right) {
    return QTest::qWaitFor(
        [&] { return frameOnScreen(window, 0) == left && frameOnScreen(window, 1) == right; },
        10000);
}

std::pair<double, double> chunkRange(lbm::ui::LatencyChart* chart) {
    const auto* axis = qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Horizontal).value(0));
    return {axis->min(), axis->max()};
}

} // namespace

TEST_CASE("the side-by-side window plays two sessions locked by frame index",
          "[ui][quality][sidebyside]") {
    QTemporaryDir root;
    REQUIRE(root.isValid());
    const auto k1 = lbm::ui::test::runKeptSession(lbm::ui::test::transitionSpec(1), root.path());
    auto spec = lbm::ui::test::transitionSpec(3);
    spec.num_chunks = 12;
    const auto k3 = lbm::ui::test::runKeptSession(spec, root.path());
    const int left_frames = 9 + 15 * 12;
    const int right_frames = 9 + 11 * 12;

    SideBySideWindow window;
    QSignalSpy ready(&window, &SideBySideWindow::ready);
    // A folder on the left, its document on the right: both are sessions.
    REQUIRE(window.load(0, k1.folder));
    REQUIRE(window.load(1, k3.document_path));
    window.resize(1600, 1000);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    REQUIRE((ready.count() > 0 || ready.wait(20000)));
    CHECK(window.pane(0)->frameCount() == left_frames);
    CHECK(window.pane(1)->frameCount() == right_frames);
    CHECK(window.frameCount() == left_frames);
    CHECK(window.scrubBar()->count() == left_frames);
    CHECK(shows(window, 0, 0));

    // Both charts and both quality tracks span the longer session's 16 chunks.
    auto* left_chart = window.pane(0)->latencyChart();
    auto* right_chart = window.pane(1)->latencyChart();
    left_chart->flush();
    right_chart->flush();
    CHECK(chunkRange(left_chart) == std::pair{-0.5, 15.5});
    CHECK(chunkRange(right_chart) == std::pair{-0.5, 15.5});
    window.pane(1)->qualityTrack()->flush();
    CHECK(window.pane(1)->qualityTrack()->visibleAxisRange() == std::pair{-0.5, 15.5});
    CHECK(window.pane(1)->qualityTrack()->chunkCount() == 12);

    window.seekFrame(57);
    CHECK(shows(window, 57, 57));
    // Numbered from 0, of the recording's frame count: as the window's own line says.
    REQUIRE_FALSE(window.pane(1)->hudLines().isEmpty());
    CHECK(window.pane(1)->hudLines().front().endsWith(
        QStringLiteral("frame 57 / %1").arg(right_frames)));
    QTest::keyClick(&window, Qt::Key_Right);
    CHECK(window.position() == 58);
    CHECK(shows(window, 58, 58));
    QTest::keyClick(&window, Qt::Key_Left);
    QTest::keyClick(&window, Qt::Key_Left);
    CHECK(shows(window, 56, 56));
    // Shift+Right: the next chunk's first frame (frame 56 is in chunk 4, which starts at 45).
    QTest::keyClick(&window, Qt::Key_Right, Qt::ShiftModifier);
    CHECK(window.position() == 9 + 4 * 12);
    QTest::keyClick(&window, Qt::Key_Left, Qt::ShiftModifier);
    CHECK(window.position() == 9 + 3 * 12);
    // Past the shorter recording's end it holds its last frame.
    QTest::keyClick(&window, Qt::Key_End);
    CHECK(window.position() == left_frames - 1);
    CHECK(shows(window, left_frames - 1, right_frames - 1));
    CHECK(window.scrubBar()->label().contains(QStringLiteral("holding its last frame")));
    QTest::keyClick(&window, Qt::Key_Home);
    CHECK(shows(window, 0, 0));
    // A click on a chunk of either chart seeks both there.
    emit window.pane(1)->qualityTrack()->chunkClicked(6);
    CHECK(window.position() == 9 + 5 * 12);
    CHECK(shows(window, 69, 69));
    // Space plays both, and again pauses.
    QTest::keyClick(&window, Qt::Key_Space);
    CHECK(window.isPlaying());
    REQUIRE(QTest::qWaitFor([&] { return window.position() >= 75; }, 5000));
    QTest::keyClick(&window, Qt::Key_Space);
    CHECK_FALSE(window.isPlaying());
    const int paused_at = window.position();
    CHECK(shows(window, paused_at, paused_at));

    // A zoom on one chart shows the same chunks on the other.
    qobject_cast<QValueAxis*>(left_chart->chart()->axes(Qt::Horizontal).value(0))
        ->setRange(3.5, 9.5);
    CHECK(chunkRange(right_chart) == std::pair{3.5, 9.5});

    // The titles say what each side is.
    CHECK(window.pane(0)->session()->promptLine().contains(QStringLiteral("K=1")));
    CHECK(window.pane(1)->session()->promptLine().contains(QStringLiteral("K=3")));
    CHECK(window.pane(0)->session()->title().contains(k1.request_id));
}

TEST_CASE("the side-by-side window explains a path that is not a playable session",
          "[ui][quality][sidebyside][kept-acceptance]") {
    const auto& kept = lbm::ui::test::acceptanceSession();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    SideBySideWindow window;
    QSignalSpy ready(&window, &SideBySideWindow::ready);
    REQUIRE(window.load(1, kept.folder));

    const auto refused = [&](const QString& path, const QString& problem) {
        INFO(path.toStdString());
        CHECK_FALSE(window.load(0, path));
        const QString error = window.errorText(0);
        INFO(error.toStdString());
        CHECK(error.contains(problem));
        return error;
    };
    CHECK(refused(dir.filePath(QStringLiteral("missing")), QStringLiteral("does not exist"))
              .contains(QStringLiteral("Pick a session folder")));
    refused(dir.path(), QStringLiteral("holds no session.json"));
    // A document whose recording was not kept beside it.
    const QString lone = dir.filePath(QStringLiteral("lone.json"));
    REQUIRE(QFile::copy(kept.document_path, lone));
    CHECK(refused(lone, QStringLiteral("has no recording beside it"))
              .contains(QStringLiteral("--save-raw")));
    // Not JSON at all.
    const QString garbage = dir.filePath(QStringLiteral("garbage.json"));
    {
        QFile file(garbage);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("this is not json");
    }
    refused(garbage, QStringLiteral("is not a session document we can read"));
    // A recording without its document.
    QDir(dir.path()).mkdir(QStringLiteral("raw"));
    const QString raw = dir.filePath(QStringLiteral("raw/stream.m4s"));
    REQUIRE(QFile::copy(kept.recording_path, raw));
    refused(raw, QStringLiteral("without its session document"));
    // A document beside a recording that is not one.
    QDir(dir.path()).mkdir(QStringLiteral("broken"));
    REQUIRE(QFile::copy(kept.document_path, dir.filePath(QStringLiteral("broken/session.json"))));
    {
        QFile file(dir.filePath(QStringLiteral("broken/stream.m4s")));
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x'));
    }
    QSignalSpy failed(window.pane(0), &lbm::ui::SideBySidePane::failed);
    CHECK(window.load(0, dir.filePath(QStringLiteral("broken"))));
    REQUIRE((failed.count() > 0 || failed.wait(10000)));
    CHECK(window.errorText(0).contains(QStringLiteral("cannot be read")));

    // The other side plays on its own.
    REQUIRE((ready.count() > 0 || ready.wait(20000)));
    CHECK(window.errorText(1).isEmpty());
    CHECK(window.frameCount() == 9 + 23 * 12);
    window.seekFrame(100);
    REQUIRE(QTest::qWaitFor(
        [&] {
            const auto& shown = window.pane(1)->videoView()->displayedFrame();
            return shown && shown->globalFrameNumber() == 100;
        },
        10000));
}
