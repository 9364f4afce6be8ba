// Test main that owns the Qt application object, so tests can use event loops, sockets,
// timers and (in the GUI variant) widgets. LBM_TEST_GUI selects QApplication. Catch2 itself
// is compiled once, in tests/catch_runner.cpp.
#include "tests/catch_runner.h"
#ifdef LBM_TEST_GUI
#include "tests/own_display.h"
#endif

#include <QFile>
#include <QTemporaryDir>

#include <cstdio>
#include <cstring>
#include <optional>

#ifdef LBM_TEST_GUI
#include <QApplication>
using TestApplication = QApplication;
#else
#include <QCoreApplication>
using TestApplication = QCoreApplication;
#endif

namespace {

// CTest discovers the cases at build time by listing them: no application (and so no
// display) is needed for that.
bool onlyListing(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--list", 6) == 0 || std::strcmp(argv[i], "-l") == 0) {
            return true;
        }
    }
    return false;
}

} // namespace

int main(int argc, char** argv) {
    if (const int status = lbm::test::prepareCatch(argc, argv); status != 0) {
        return status;
    }
    if (onlyListing(argc, argv)) {
        return lbm::test::runCatch();
    }
#ifdef LBM_TEST_GUI
    // A suite that grabs the screen asks for an X server of its own (LBM_TEST_OWN_DISPLAY,
    // the screen's geometry), so its cases can run beside each other. Declared before the
    // application, it outlives it: Qt closes its connection before the server goes.
    std::optional<lbm::test::OwnDisplay> own_display;
    const QByteArray own_screen = qgetenv("LBM_TEST_OWN_DISPLAY");
    if (!own_screen.isEmpty() && !qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) {
        own_display.emplace(own_screen.toStdString());
        if (own_display->started()) {
            qputenv("DISPLAY", own_display->display().c_str());
            qputenv("QT_QPA_PLATFORM", "xcb");
        } else if (own_display->missing()) {
            // Without Xvfb the cases grab the window offscreen: weaker, but they still run.
            std::fprintf(stderr, "note: %s; windows render offscreen\n",
                         own_display->why().c_str());
        } else {
            // Installed but not up: fail rather than pass on an offscreen grab unnoticed.
            std::fprintf(stderr, "error: no X server of its own: %s\n", own_display->why().c_str());
            return 1;
        }
    }
    // Windows render offscreen unless the platform is chosen from outside; the screenshot
    // suite asks for the real X server when there is one (the quick start runs the tests
    // under Xvfb), so that its grab is what a person would see.
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) {
        const bool x11 = qEnvironmentVariableIsSet("LBM_TEST_PREFER_X11") &&
                         qEnvironmentVariableIsSet("DISPLAY");
        qputenv("QT_QPA_PLATFORM", x11 ? "xcb" : "offscreen");
    }
#endif
    // Tests never read or write the user's settings or kept sessions: a home of their own.
    QTemporaryDir home;
    if (!qEnvironmentVariableIsSet("LBM_TEST_KEEP_XDG")) {
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(home.filePath(QStringLiteral("config"))));
        qputenv("XDG_DATA_HOME", QFile::encodeName(home.filePath(QStringLiteral("data"))));
    }
    TestApplication app(argc, argv);
    TestApplication::setOrganizationName(QStringLiteral("lingbot-monitor-tests"));
    TestApplication::setApplicationName(QStringLiteral("lingbot-monitor-tests"));
    return lbm::test::runCatch();
}
