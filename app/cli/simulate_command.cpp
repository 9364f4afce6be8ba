#include "app/cli/simulate_command.h"

#include "app/report/session_document.h"
#include "app/sim/simulator_server.h"
#include "app/sim/timing_profile.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QHostAddress>
#include <QTextStream>

#include <cmath>

extern "C" {
#include <libavutil/log.h>
}

namespace lbm::cli {

int runSimulateCommand(const QStringList& arguments) {
    QTextStream out(stdout);
    QTextStream err(stderr);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Run the built-in LingBot-World server simulator (WS %1): real fMP4 from "
                       "libx264, timing profiles and injected faults.")
            .arg(sim::SimulatorServer::kPath));
    parser.addHelpOption();
    const sim::SimulatorConfig defaults;
    const QCommandLineOption host(QStringLiteral("host"),
                                  QStringLiteral("Address to listen on (default 127.0.0.1)."),
                                  QStringLiteral("HOST"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption port(QStringLiteral("port"),
                                  QStringLiteral("Port to listen on; 0 picks a free one "
                                                 "(default 8000)."),
                                  QStringLiteral("PORT"), QStringLiteral("8000"));
    const QCommandLineOption profile(
        QStringLiteral("profile"),
        QStringLiteral("Timing profile: %1 (default %2).")
            .arg(sim::TimingProfile::names().join(QStringLiteral(", ")), defaults.profile),
        QStringLiteral("NAME"), defaults.profile);
    const QCommandLineOption fault(
        QStringLiteral("fault"),
        QStringLiteral("Inject a fault at a media chunk, repeatable: KIND@CHUNK with KIND one of "
                       "%1 (default none).")
            .arg(sim::FaultSpec::kindNames().join(QStringLiteral(", "))),
        QStringLiteral("KIND@CHUNK"));
    const QCommandLineOption log(
        QStringLiteral("log"),
        QStringLiteral("Append a JSON line per sent message with the server's steady time, and "
                       "the world's ground truth per frame: pose, velocity, transition, faults "
                       "(default off)."),
        QStringLiteral("FILE"));
    const QCommandLineOption realism(
        QStringLiteral("realism"),
        QStringLiteral("How much the picture looks like diffusion video: none, low or high "
                       "(grain, exposure flicker, white balance wander; default low)."),
        QStringLiteral("LEVEL"), QStringLiteral("low"));
    const QCommandLineOption independent(
        QStringLiteral("independent-chunks"),
        QStringLiteral("Send 9 frames in every chunk, like a server without the streaming "
                       "decoder (default off: 9 then 12)."));
    const QCommandLineOption stall(
        QStringLiteral("stall-timeout"),
        QStringLiteral("Seconds without generation progress or ping before the server aborts "
                       "(default %1).")
            .arg(defaults.stall_timeout_ms / 1000),
        QStringLiteral("S"), QString::number(defaults.stall_timeout_ms / 1000));
    const QCommandLineOption start_timeout(
        QStringLiteral("start-timeout"),
        QStringLiteral("Seconds a connection may take to send session.start (default %1).")
            .arg(defaults.start_timeout_ms / 1000),
        QStringLiteral("S"), QString::number(defaults.start_timeout_ms / 1000));
    const QCommandLineOption handler(
        QStringLiteral("handler"),
        QStringLiteral("The vLLM-Omni handler version to answer as: snapshot (prompt transitions "
                       "only), newest (camera interactions too) or combined (the snapshot's "
                       "answers, the newest's for camera events; default)."),
        QStringLiteral("VERSION"), QStringLiteral("combined"));
    const QCommandLineOption mux_delay(
        QStringLiteral("mux-delay"),
        QStringLiteral("The handler's own per-chunk muxing delay, MIN:MAX seconds drawn per chunk "
                       "(default %1:%2, as measured on the real handler; 0:0 turns it off).")
            .arg(defaults.mux_delay_min_ms / 1000.0)
            .arg(defaults.mux_delay_max_ms / 1000.0),
        QStringLiteral("MIN:MAX"));
    parser.addOptions({host, port, profile, fault, log, realism, independent, stall, start_timeout,
                       handler, mux_delay});
    if (!parser.parse(arguments)) {
        err << parser.errorText() << "\nRun 'lingbot-monitor simulate --help' for the options.\n";
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText().replace(arguments.value(0),
                                         QStringLiteral("lingbot-monitor simulate"));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "simulate takes no positional arguments (got '"
            << parser.positionalArguments().join(QStringLiteral(" ")) << "').\n";
        return 2;
    }

    sim::SimulatorConfig config;
    config.profile = parser.value(profile);
    config.read_replay = report::readReplayIntervals;
    config.log_path = parser.value(log);
    config.independent_chunks = parser.isSet(independent);
    QString realism_error;
    const auto level = sim::parseRealism(parser.value(realism), &realism_error);
    if (!level) {
        err << "--realism: " << realism_error << '\n';
        return 2;
    }
    config.realism = *level;
    bool ok = false;
    const double stall_s = parser.value(stall).toDouble(&ok);
    if (!ok || stall_s <= 0) {
        err << "--stall-timeout must be a positive number of seconds (got '" << parser.value(stall)
            << "').\n";
        return 2;
    }
    config.stall_timeout_ms = static_cast<int>(stall_s * 1000);
    const double start_s = parser.value(start_timeout).toDouble(&ok);
    if (!ok || start_s <= 0) {
        err << "--start-timeout must be a positive number of seconds (got '"
            << parser.value(start_timeout) << "').\n";
        return 2;
    }
    config.start_timeout_ms = static_cast<int>(start_s * 1000);
    const QString version = parser.value(handler);
    if (version == QStringLiteral("snapshot")) {
        config.handler = sim::HandlerVersion::Snapshot;
    } else if (version == QStringLiteral("newest")) {
        config.handler = sim::HandlerVersion::Newest;
    } else if (version == QStringLiteral("combined")) {
        config.handler = sim::HandlerVersion::Combined;
    } else {
        err << "--handler must be snapshot, newest or combined (got '" << version << "').\n";
        return 2;
    }
    if (parser.isSet(mux_delay)) {
        const QStringList bounds = parser.value(mux_delay).split(QLatin1Char(':'));
        bool min_ok = false;
        bool max_ok = false;
        const double min_s = bounds.value(0).toDouble(&min_ok);
        const double max_s = bounds.value(1).toDouble(&max_ok);
        if (bounds.size() != 2 || !min_ok || !max_ok || min_s < 0 || max_s < min_s) {
            err << "--mux-delay must be MIN:MAX seconds with 0 <= MIN <= MAX, e.g. 0.1:0.3 (got '"
                << parser.value(mux_delay) << "').\n";
            return 2;
        }
        config.mux_delay_min_ms = static_cast<int>(std::lround(min_s * 1000));
        config.mux_delay_max_ms = static_cast<int>(std::lround(max_s * 1000));
    }
    for (const QString& text : parser.values(fault)) {
        QString error;
        const auto spec = sim::FaultSpec::parse(text, &error);
        if (!spec) {
            err << error << '\n';
            return 2;
        }
        config.faults.push_back(*spec);
    }
    const int port_number = parser.value(port).toInt(&ok);
    if (!ok || port_number < 0 || port_number > 65535) {
        err << "--port must be 0..65535 (got '" << parser.value(port) << "').\n";
        return 2;
    }
    QHostAddress address;
    if (parser.value(host) == QStringLiteral("localhost")) {
        address = QHostAddress::LocalHost;
    } else if (!address.setAddress(parser.value(host))) {
        err << "--host must be an IP address such as 127.0.0.1 (got '" << parser.value(host)
            << "').\n";
        return 2;
    }

    // libx264 prints statistics per session at info level; keep the console to our lines.
    av_log_set_level(AV_LOG_ERROR);
    sim::SimulatorServer server(config);
    if (!server.listen(address, static_cast<quint16>(port_number))) {
        err << "ERROR: " << server.errorString() << '\n';
        return 1;
    }
    QUrl url = server.url();
    url.setHost(address.toString());
    out << "Simulating LingBot-World on " << url.toString() << " (profile " << config.profile;
    if (!config.faults.empty()) {
        QStringList faults;
        for (const auto& spec : config.faults) {
            faults.append(spec.toString());
        }
        out << ", faults " << faults.join(QStringLiteral(", "));
    }
    out << "). Press Ctrl+C to stop.\n";
    out.flush();
    return QCoreApplication::exec();
}

} // namespace lbm::cli
