// Catch2 main that owns the Qt application object, so tests can use event loops, sockets,
// timers and (in the GUI variant) widgets. LBM_TEST_GUI selects QApplication.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#ifdef LBM_TEST_GUI
#include <QApplication>
using TestApplication = QApplication;
#else
#include <QCoreApplication>
using TestApplication = QCoreApplication;
#endif

int main(int argc, char** argv) {
#ifdef LBM_TEST_GUI
    // Screenshot suites ask for the real X server when one is there (the quick start runs
    // the tests under Xvfb at 1280x800): only then is the grab what a person would see.
    if (qEnvironmentVariableIsSet("LBM_TEST_PREFER_X11") && qEnvironmentVariableIsSet("DISPLAY")) {
        qputenv("QT_QPA_PLATFORM", "xcb");
    }
#endif
    TestApplication app(argc, argv);
    TestApplication::setOrganizationName(QStringLiteral("lingbot-monitor-tests"));
    TestApplication::setApplicationName(QStringLiteral("lingbot-monitor-tests"));
    return Catch::Session().run(argc, argv);
}
