// Every window inside the screen from 1280x720 to 1920x1080 (the main window's docks:
// layout_tests.cpp): a fitted geometry never exceeds the available area; the Compare window
// fits a 1280x720 screen and closes with Esc and Ctrl+W like a dialog; the wheel scrolls the
// form instead of turning its fields; the video keeps its place when bars come and go.

#include "ui/banner.h"
#include "ui/main_window.h"
#include "ui/screen_fit.h"
#include "ui/scrub_bar.h"
#include "ui/session_form.h"
#include "ui/side_by_side_window.h"
#include "ui/video_view.h"

#include <QPointer>
#include <QSettings>
#include <QSpinBox>
#include <QTest>
#include <QWheelEvent>

#include <catch2/catch.hpp>

using lbm::ui::MainWindow;

TEST_CASE("a geometry fitted to the screen is never larger than its available area",
          "[ui][layout]") {
    const QSize frame(8, 36);
    // A 1280x720 laptop with a 40 px panel: 1280x800 would not fit.
    const QRect laptop(0, 0, 1280, 680);
    const QRect fitted = lbm::ui::fittedGeometry(QSize(1280, 800), laptop, frame);
    CHECK(fitted.size() == QSize(1272, 644));
    CHECK(laptop.contains(fitted.adjusted(-4, -32, 4, 4))); // the frame included
    // A 1080p screen has room: the size asked for, centred.
    const QRect projector(0, 0, 1920, 1040);
    const QRect roomy = lbm::ui::fittedGeometry(QSize(1600, 1000), projector, frame);
    CHECK(roomy.size() == QSize(1600, 1000));
    CHECK(projector.contains(roomy.adjusted(-4, -32, 4, 4)));
    CHECK(lbm::ui::preferredMainWindowSize(nullptr) == QSize(1280, 800));
}

TEST_CASE("the Compare window fits a 1280x720 screen and closes with Esc and Ctrl+W",
          "[ui][layout][sidebyside]") {
    for (const QKeySequence& keys :
         {QKeySequence(Qt::Key_Escape), QKeySequence(QKeySequence::Close)}) {
        QPointer<lbm::ui::SideBySideWindow> window = new lbm::ui::SideBySideWindow();
        window->setAttribute(Qt::WA_DeleteOnClose);
        // Its layout asks for less than a 1280x720 screen leaves.
        CHECK(window->minimumSizeHint().width() <= 1272);
        CHECK(window->minimumSizeHint().height() <= 644);
        window->show();
        REQUIRE(QTest::qWaitForWindowActive(window));
        QTest::keySequence(window, keys);
        REQUIRE(QTest::qWaitFor([&] { return window.isNull(); }, 2000));
    }
}

TEST_CASE("the wheel scrolls past the form's fields until one is clicked into", "[ui][form]") {
    lbm::ui::SessionForm form;
    form.show();
    REQUIRE(QTest::qWaitForWindowExposed(&form));
    auto* mux_fps = form.findChild<QSpinBox*>(QStringLiteral("form_mux_fps"));
    REQUIRE(mux_fps);
    const int before = mux_fps->value();
    const auto wheel_up = [&] {
        const QPointF at(mux_fps->width() / 2.0, mux_fps->height() / 2.0);
        QWheelEvent event(at, mux_fps->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(mux_fps, &event);
    };
    wheel_up();
    CHECK(mux_fps->value() == before);
    // Clicked into, the field takes the wheel.
    mux_fps->setFocus();
    REQUIRE(QTest::qWaitFor([&] { return mux_fps->hasFocus(); }, 1000));
    wheel_up();
    CHECK(mux_fps->value() == before + mux_fps->singleStep());
}

TEST_CASE("the video keeps its place when the banner and the scrub bar come and go",
          "[ui][layout]") {
    QSettings().clear();
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    QCoreApplication::processEvents();
    QWidget* video = window.videoView();
    const QRect before = video->geometry();
    auto* banner = window.findChild<lbm::ui::Banner*>();
    REQUIRE(banner);
    banner->showMessage(QStringLiteral("The server closed the connection: a long message that "
                                       "wraps onto a second line at this width, as errors do."));
    QCoreApplication::processEvents();
    CHECK(window.bannerText().startsWith(QStringLiteral("The server closed")));
    CHECK(video->geometry() == before);
    auto* scrub = window.findChild<lbm::ui::ScrubBar*>();
    REQUIRE(scrub);
    scrub->show();
    QCoreApplication::processEvents();
    CHECK(video->geometry() == before);
    banner->dismiss();
    scrub->hide();
    QCoreApplication::processEvents();
    CHECK(video->geometry() == before);
}
