// The window's Broadcast dock, driven as a person would: the toggle starts the broadcast on
// the address typed, shows the link, its QR code and the viewers; a bad address or a taken
// port says what to do and leaves it off. LBM_SCREENSHOT_DIR=... saves the dock.
#include "tests/broadcast/broadcast_fixture.h"
#include "ui/broadcast_panel.h"
#include "ui/main_window.h"

#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QTcpServer>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

using namespace lbm::broadcast::test;
using lbm::ui::BroadcastPanel;

TEST_CASE("the Broadcast toggle shows the link, its QR code and the viewers",
          "[broadcast][ui][paced]") {
    lbm::engine::SessionEngine engine;
    BroadcastPanel panel(&engine);
    panel.resize(360, 620);
    panel.show();
    CHECK(panel.viewerUrl().isEmpty());
    panel.addressField()->setText(QStringLiteral("127.0.0.1:0"));
    panel.toggle()->click();
    REQUIRE(panel.toggle()->isChecked());
    const QUrl url(panel.viewerUrl());
    CHECK(url.host() == QStringLiteral("127.0.0.1"));
    CHECK(url.path().size() == 34); // "/" + 32 hex digits + "/"
    CHECK_FALSE(panel.addressField()->isEnabled());
    REQUIRE_FALSE(panel.qrCode().isNull());
    CHECK(panel.qrCode().width() == panel.qrCode().height());
    CHECK(panel.viewersText() == QStringLiteral("0 viewers"));

    // A browser opens the link: one viewer.
    CHECK(httpGet(static_cast<quint16>(url.port()), url.path()).status == 200);
    REQUIRE(waitUntil([&] { return panel.viewersText() == QStringLiteral("1 viewer"); }, 5000));
    if (const QString dir = qEnvironmentVariable("LBM_SCREENSHOT_DIR"); !dir.isEmpty()) {
        QDir().mkpath(dir);
        panel.grab().save(QDir(dir).filePath(QStringLiteral("broadcast_panel.png")));
    }

    panel.toggle()->click();
    CHECK(panel.viewerUrl().isEmpty());
    CHECK(panel.addressField()->isEnabled());
    CHECK(httpGet(static_cast<quint16>(url.port()), url.path(), 2000).status == 0);
}

TEST_CASE("a bad address or a taken port is explained and the broadcast stays off",
          "[broadcast][ui]") {
    lbm::engine::SessionEngine engine;
    BroadcastPanel panel(&engine);
    panel.addressField()->setText(QStringLiteral("127.0.0.1:http"));
    panel.toggle()->click();
    CHECK_FALSE(panel.toggle()->isChecked());
    CHECK(panel.errorText().contains(QStringLiteral("[ADDR:]PORT")));

    QTcpServer taken;
    REQUIRE(taken.listen(QHostAddress::LocalHost, 0));
    panel.addressField()->setText(QStringLiteral("127.0.0.1:%1").arg(taken.serverPort()));
    panel.toggle()->click();
    CHECK_FALSE(panel.toggle()->isChecked());
    CHECK(panel.errorText().contains(QStringLiteral("cannot listen")));
    CHECK(panel.viewerUrl().isEmpty());
}

TEST_CASE("the window has a Broadcast dock, listed in the View menu", "[broadcast][ui]") {
    QTemporaryDir archive;
    lbm::ui::MainWindow window(nullptr, archive.path());
    const QList<QDockWidget*> docks = window.docks();
    const auto dock = std::find_if(docks.begin(), docks.end(), [](QDockWidget* d) {
        return d->objectName() == QStringLiteral("BroadcastDock");
    });
    REQUIRE(dock != docks.end());
    auto* panel = (*dock)->findChild<BroadcastPanel*>();
    REQUIRE(panel != nullptr);
    CHECK((*dock)->toggleViewAction()->text() == QStringLiteral("Broadcast"));

    // Raised and on, in a 1280x720 window: the link and its QR code fit the dock.
    window.resize(1280, 720);
    window.show();
    (*dock)->raise();
    panel->addressField()->setText(QStringLiteral("127.0.0.1:0"));
    panel->toggle()->click();
    REQUIRE(panel->toggle()->isChecked());
    REQUIRE(waitUntil([&] { return panel->isVisible() && panel->width() > 0; }, 5000));
    CHECK(panel->findChild<QLabel*>() != nullptr);
    if (const QString dir = qEnvironmentVariable("LBM_SCREENSHOT_DIR"); !dir.isEmpty()) {
        QDir().mkpath(dir);
        waitUntil([] { return false; }, 300); // let the dock lay out before the grab
        window.grab().save(QDir(dir).filePath(QStringLiteral("window_broadcast_dock.png")));
    }
}
