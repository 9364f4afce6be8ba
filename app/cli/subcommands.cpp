#include "app/cli/subcommands.h"

#include "app/cli/bench_command.h"
#include "app/cli/report_command.h"
#include "app/cli/simulate_command.h"

#include <QCoreApplication>
#include <QTextStream>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
}

#include <cstring>
#include <functional>
#include <map>

namespace lbm::cli {
namespace {

using CommandFunction = std::function<int(const QStringList& arguments)>;

struct Command {
    const char* summary;
    CommandFunction run;
};

const std::map<QString, Command>& commands() {
    static const std::map<QString, Command> table = {
        {QStringLiteral("bench"),
         {"stream sessions like the Python realtime benchmark and print its report",
          runBenchCommand}},
        {QStringLiteral("report"),
         {"recompute a recorded run's metrics and print the benchmark's report", runReportCommand}},
        {QStringLiteral("simulate"),
         {"run the built-in LingBot-World server simulator on a port", runSimulateCommand}},
    };
    return table;
}

QString versionText() {
    return QStringLiteral("lingbot-monitor %1 (Qt %2, FFmpeg libavformat %3, libavcodec %4)")
        .arg(QStringLiteral(LBM_VERSION), QString::fromLatin1(qVersion()),
             QString::fromLatin1(AV_STRINGIFY(LIBAVFORMAT_VERSION)),
             QString::fromLatin1(AV_STRINGIFY(LIBAVCODEC_VERSION)));
}

QString usageText() {
    QString text = QStringLiteral(
        "Usage: lingbot-monitor [--endpoint simulator|URL] [--profile NAME] [--workload FILE] "
        "[--start] [--insecure]\n"
        "       lingbot-monitor <command> [options]\n\n"
        "With no command the monitor window opens on the built-in simulator.\n\nCommands:\n");
    for (const auto& [name, command] : commands()) {
        text += QStringLiteral("  %1  %2\n").arg(name, -10).arg(QString::fromUtf8(command.summary));
    }
    text += QStringLiteral("\nRun 'lingbot-monitor <command> --help' for a command's options.\n");
    return text;
}

} // namespace

bool isHeadlessInvocation(int argc, char** argv) {
    if (argc < 2) {
        return false;
    }
    const QString first = QString::fromLocal8Bit(argv[1]);
    return commands().count(first) > 0 || first == QStringLiteral("--version") ||
           first == QStringLiteral("--help") || first == QStringLiteral("-h");
}

int runHeadless(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("lingbot-monitor"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LBM_VERSION));
    QStringList arguments = QCoreApplication::arguments();
    const QString first = arguments.value(1);
    QTextStream out(stdout);
    if (first == QStringLiteral("--version")) {
        out << versionText() << '\n';
        return 0;
    }
    if (first == QStringLiteral("--help") || first == QStringLiteral("-h")) {
        out << usageText();
        return 0;
    }
    const auto found = commands().find(first);
    // argv[0] stays first so each command can hand its list straight to QCommandLineParser.
    arguments.removeAt(1);
    return found->second.run(arguments);
}

} // namespace lbm::cli
