#include "ui/gui_main.h"

#include "ui/main_window.h"
#include "ui/screen_fit.h"
#include "ui/session_form.h"
#include "ui/termination_watcher.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QTimer>

#include <cstdio>

namespace lbm::ui {

int runGui(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("lingbot-monitor"));
    QApplication::setApplicationName(QStringLiteral("lingbot-monitor"));
    QApplication::setApplicationVersion(QStringLiteral(LBM_VERSION));
    // The installed desktop entry and icon share this id (packaging/); Wayland compositors
    // match windows to their .desktop file by it.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.lingbot_monitor.LingBotMonitor"));
    QApplication::setWindowIcon(
        QIcon::fromTheme(QStringLiteral("io.github.lingbot_monitor.LingBotMonitor")));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("LingBot Live Monitor: watch, measure and steer a realtime LingBot-World "
                       "session. Subcommands bench, report and simulate run headless."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption endpoint(
        QStringLiteral("endpoint"),
        QStringLiteral("\"simulator\" (default) or the server URL, e.g. http://HOST:8000."),
        QStringLiteral("simulator|URL"));
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QStringLiteral("Simulator timing profile (default fast)."),
                                     QStringLiteral("NAME"));
    const QCommandLineOption workload(QStringLiteral("workload"),
                                      QStringLiteral("Workload file to load into the form."),
                                      QStringLiteral("FILE"));
    const QCommandLineOption start(QStringLiteral("start"),
                                   QStringLiteral("Start the session at once."));
    const QCommandLineOption insecure(
        QStringLiteral("insecure"),
        QStringLiteral("wss:// only: skip TLS certificate verification (self-signed servers)."));
    const QCommandLineOption chunks(QStringLiteral("chunks"),
                                    QStringLiteral("Chunks to generate (the form's Chunks)."),
                                    QStringLiteral("N"));
    const QCommandLineOption target_fps(
        QStringLiteral("target-fps"),
        QStringLiteral("Playback rate the chunks are judged and played at (the form's Target "
                       "fps)."),
        QStringLiteral("FPS"));
    parser.addOptions({endpoint, profile, workload, start, insecure, chunks, target_fps});
    parser.process(app);

    MainWindow window;
    // Most of the screen (so a 1080p projector gets the Quality track under the chart), at
    // least 1280x800 where the screen has room, never more than its available area.
    fitOnScreen(&window, preferredMainWindowSize(window.screen()));
    // SIGTERM / SIGINT end a live session cleanly (its document marked interrupted) and quit.
    TerminationWatcher termination;
    QObject::connect(&termination, &TerminationWatcher::terminationRequested, &window,
                     &MainWindow::terminate);
    if (parser.isSet(endpoint)) {
        const QString value = parser.value(endpoint);
        const bool simulator = value == QLatin1String("simulator");
        window.sessionForm()->setUseSimulator(simulator);
        if (!simulator) {
            window.sessionForm()->setServerUrlText(value);
        }
    }
    window.sessionForm()->setSkipCertificateCheck(parser.isSet(insecure));
    if (parser.isSet(profile)) {
        window.sessionForm()->setSimulatorProfile(parser.value(profile));
    }
    if (parser.isSet(chunks)) {
        window.sessionForm()->setChunks(parser.value(chunks).toInt());
    }
    if (parser.isSet(target_fps)) {
        window.sessionForm()->setTargetFps(parser.value(target_fps).toDouble());
    }
    const bool workload_refused =
        parser.isSet(workload) && !window.openWorkload(parser.value(workload));
    if (workload_refused) {
        std::fprintf(stderr, "%s\n", qUtf8Printable(window.bannerText()));
    }
    window.show();
    if (parser.isSet(start) && workload_refused) {
        // Starting the form's own session instead would replace the banner with a session
        // the user did not ask for.
        std::fprintf(stderr, "Not starting: the workload did not open. Fix it and press F5, "
                             "or start without --workload.\n");
    } else if (parser.isSet(start)) {
        QTimer::singleShot(0, &window, [&window] {
            if (!window.startSession()) {
                std::fprintf(stderr, "%s\n", qUtf8Printable(window.bannerText()));
            }
        });
    }
    return QApplication::exec();
}

} // namespace lbm::ui
