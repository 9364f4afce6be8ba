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
    TestApplication app(argc, argv);
    TestApplication::setOrganizationName(QStringLiteral("lingbot-monitor-tests"));
    TestApplication::setApplicationName(QStringLiteral("lingbot-monitor-tests"));
    return Catch::Session().run(argc, argv);
}
