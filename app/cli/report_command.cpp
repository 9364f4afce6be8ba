#include "app/cli/report_command.h"

#include "app/report/quality_text.h"
#include "app/report/report_error.h"
#include "app/report/session_document.h"
#include "app/report/session_outcome.h"
#include "app/report/text_report.h"
#include "app/session/session_notes.h"
#include "metrics/constants.h"
#include "metrics/metric_error.h"
#include "metrics/session_metrics.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QTextStream>

#include <optional>
#include <stdexcept>

namespace lbm::cli {
namespace {

const QString kUsage = QStringLiteral("lingbot-monitor report [options] FILE.json");

// A usage mistake: reported argparse-style with exit status 2.
class UsageError : public std::runtime_error {
public:
    explicit UsageError(const QString& message)
        : std::runtime_error(message.toStdString())
        , m_message(message) {}
    const QString& message() const { return m_message; }

private:
    QString m_message;
};

struct Overrides {
    std::optional<double> target_fps;
    std::optional<int> warmup_chunks;
    std::optional<double> chunk_slo_ms;
    std::optional<int> playback_buffer_chunks;
};

std::optional<double> numberOption(const QCommandLineParser& parser, const QString& name) {
    if (!parser.isSet(name)) {
        return std::nullopt;
    }
    bool ok = false;
    const QString text = parser.value(name);
    const double value = text.toDouble(&ok);
    if (!ok) {
        throw UsageError(QStringLiteral("--%1 expects a number, got '%2'.").arg(name, text));
    }
    return value;
}

std::optional<int> integerOption(const QCommandLineParser& parser, const QString& name) {
    if (!parser.isSet(name)) {
        return std::nullopt;
    }
    bool ok = false;
    const QString text = parser.value(name);
    const int value = text.toInt(&ok);
    if (!ok) {
        throw UsageError(QStringLiteral("--%1 expects a whole number, got '%2'.").arg(name, text));
    }
    return value;
}

Overrides readOverrides(const QCommandLineParser& parser) {
    Overrides overrides;
    overrides.target_fps = numberOption(parser, QStringLiteral("target-fps"));
    overrides.warmup_chunks = integerOption(parser, QStringLiteral("warmup-chunks"));
    overrides.chunk_slo_ms = numberOption(parser, QStringLiteral("chunk-slo-ms"));
    overrides.playback_buffer_chunks =
        integerOption(parser, QStringLiteral("playback-buffer-chunks"));
    // The benchmark's own argument checks, with its words.
    if (overrides.warmup_chunks && *overrides.warmup_chunks < 0) {
        throw UsageError(QStringLiteral("--warmup-chunks must be non-negative."));
    }
    if (overrides.playback_buffer_chunks && *overrides.playback_buffer_chunks < 1) {
        throw UsageError(QStringLiteral("--playback-buffer-chunks must be at least 1."));
    }
    if (overrides.target_fps && !(*overrides.target_fps > 0)) {
        throw UsageError(QStringLiteral("--target-fps must be positive."));
    }
    if (overrides.chunk_slo_ms && !(*overrides.chunk_slo_ms > 0)) {
        throw UsageError(QStringLiteral("--chunk-slo-ms must be positive."));
    }
    return overrides;
}

// What to do about a metric rule the chosen settings break.
QString metricHint(const QString& message) {
    if (message.contains(QStringLiteral("buffer_chunks="))) {
        return QStringLiteral("Choose a --playback-buffer-chunks no larger than the chunks the "
                              "session received.");
    }
    if (message.contains(QStringLiteral("needs at least one chunk record"))) {
        return QStringLiteral("The session recorded no chunks, so there is nothing to recompute; "
                              "remove it from the document or record the run again.");
    }
    if (message.contains(QStringLiteral("different chunk deadlines"))) {
        return QStringLiteral("Pass --chunk-slo-ms so every session is judged by one deadline.");
    }
    return QStringLiteral("Check the options against the recorded run (lingbot-monitor report "
                          "--help).");
}

// Recomputes every session and the aggregate in place, under the effective settings.
void recompute(report::SessionDocument& document, const Overrides& overrides) {
    report::RunConfig& config = document.config;
    config.target_fps = overrides.target_fps.value_or(config.target_fps);
    config.warmup_chunks = overrides.warmup_chunks.value_or(config.warmup_chunks);
    if (overrides.chunk_slo_ms) {
        config.chunk_slo_ms = overrides.chunk_slo_ms;
    }
    config.playback_buffer_chunks =
        overrides.playback_buffer_chunks.value_or(config.playback_buffer_chunks);
    if (document.sessions.empty()) {
        throw report::ReportError(QStringLiteral("The document holds no sessions to report on."));
    }

    std::vector<lbm::SessionMetrics> all;
    for (std::size_t i = 0; i < document.sessions.size(); ++i) {
        report::SessionEntry& session = document.sessions[i];
        const lbm::MetricsOptions options = report::metricsOptionsFor(config, session);
        try {
            session.metrics = lbm::computeMetrics(session.chunks, options);
        } catch (const lbm::MetricError& error) {
            throw lbm::MetricError(QStringLiteral("sessions[%1]: %2")
                                       .arg(i)
                                       .arg(QString::fromUtf8(error.what()))
                                       .toStdString());
        }
        all.push_back(*session.metrics);
    }
    document.metrics = lbm::aggregateMetrics(all, config.target_fps);
}

void addProvenance(report::SessionDocument& document, const QString& source) {
    if (!document.monitor.has_value()) {
        document.monitor = report::MonitorSection{};
    }
    document.monitor->version = QStringLiteral(LBM_VERSION);
    document.monitor->extras.insert(QStringLiteral("recomputed_from"), source);
}

void printError(const QString& reason, const QString& hint) {
    QTextStream err(stderr);
    err << "ERROR: " << reason << '\n';
    if (!hint.isEmpty()) {
        err << hint << '\n';
    }
}

} // namespace

int runReportCommand(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Recompute a recorded run's metrics from its chunk rows and print the benchmark's "
        "report,\nthen the visual quality section when the document carries the analysis.\n"
        "Reads lingbot-monitor session documents and the Python benchmark's "
        "--output-json files.\nOptions override the file's config; without them the file's "
        "values are used."));
    parser.addPositionalArgument(QStringLiteral("FILE.json"),
                                 QStringLiteral("The session document to report on."));
    const QCommandLineOption help_option({QStringLiteral("h"), QStringLiteral("help")},
                                         QStringLiteral("Show this help and exit."));
    parser.addOption(help_option);
    parser.addOption({QStringLiteral("target-fps"),
                      QStringLiteral("Playback rate for RTF, the chunk deadline and the playback "
                                     "simulation. Default: the file's config.target_fps, else "
                                     "the workload's fps, else %1.")
                          .arg(lbm::kDefaultFps),
                      QStringLiteral("F")});
    parser.addOption({QStringLiteral("warmup-chunks"),
                      QStringLiteral("Chunks excluded from the steady state. Default: the file's "
                                     "config.warmup_chunks, else %1.")
                          .arg(lbm::kDefaultWarmupChunks),
                      QStringLiteral("N")});
    parser.addOption({QStringLiteral("chunk-slo-ms"),
                      QStringLiteral("Steady chunk deadline in ms. Default: the file's "
                                     "config.chunk_slo_ms, else one 12-frame chunk of video at "
                                     "the target fps."),
                      QStringLiteral("MS")});
    parser.addOption({QStringLiteral("playback-buffer-chunks"),
                      QStringLiteral("Chunks buffered before playback starts. Default: the "
                                     "file's config.playback_buffer_chunks, else 1."),
                      QStringLiteral("B")});
    parser.addOption({QStringLiteral("output-json"),
                      QStringLiteral("Also write the recomputed document to OUT (replaced "
                                     "atomically; nothing is written on error). Default: none."),
                      QStringLiteral("OUT")});

    QTextStream out(stdout);
    QTextStream err(stderr);
    const auto usageError = [&err](const QString& message) {
        err << "usage: " << kUsage << '\n' << "lingbot-monitor report: error: " << message << '\n';
        return 2;
    };
    if (!parser.parse(arguments)) {
        return usageError(parser.errorText());
    }
    if (parser.isSet(help_option)) {
        QString text = parser.helpText();
        // QCommandLineParser names the executable only; the command belongs in the usage.
        const qsizetype first_line_end = text.indexOf(QLatin1Char('\n'));
        text.replace(0, first_line_end, QStringLiteral("Usage: ") + kUsage);
        out << text;
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        return usageError(positional.isEmpty()
                              ? QStringLiteral("give the session document to report on.")
                              : QStringLiteral("give exactly one session document (got %1).")
                                    .arg(positional.size()));
    }
    const QString path = positional.front();

    Overrides overrides;
    try {
        overrides = readOverrides(parser);
    } catch (const UsageError& error) {
        return usageError(error.message());
    }

    try {
        report::SessionDocument document = report::readSessionDocument(path);
        for (const QString& warning : document.read_warnings) {
            err << "warning: " << warning << '\n';
        }
        recompute(document, overrides);
        // The benchmark's sections as they are, then our visual quality section when the
        // document carries the analysis.
        const QString text =
            report::formatTextReport(document) + report::formatQualitySection(document);
        const QString output = parser.value(QStringLiteral("output-json"));
        if (!output.isEmpty()) {
            addProvenance(document, path);
            report::writeSessionDocument(document, output);
        }
        out << text;
        // How the session ended, as the window says it (documents the window kept).
        if (document.monitor && !document.sessions.empty()) {
            out << "Outcome: "
                << report::readOutcome(document).sentence(
                       static_cast<qsizetype>(document.sessions.front().chunks.size()),
                       document.workload.value(QStringLiteral("num_chunks")).toInteger())
                << '\n';
        }
        // What the run recorded beyond the numbers: why it is incomplete, what the server did
        // (chunks sent without an index, a silent control loop), and every interaction's fate.
        for (std::size_t i = 0; i < document.sessions.size(); ++i) {
            const QStringList notes =
                session::describeSessionNotes(document.sessions[i].monitor_extras);
            if (!notes.isEmpty()) {
                out << "Session " << i + 1 << ":\n";
                for (const QString& line : notes) {
                    out << "  " << line << '\n';
                }
            }
        }
        if (!output.isEmpty()) {
            out << report::wroteLine(output) << '\n';
        }
        return 0;
    } catch (const report::ReportError& error) {
        const bool field_problem = error.message().contains(QStringLiteral("The field"));
        printError(error.message(),
                   field_problem ? QStringLiteral("Session documents come from lingbot-monitor "
                                                  "or the benchmark's --output-json; restore the "
                                                  "field or record the run again.")
                                 : QString());
    } catch (const lbm::MetricError& error) {
        const QString message = QString::fromUtf8(error.what());
        printError(message, metricHint(message));
    }
    return 1;
}

} // namespace lbm::cli
