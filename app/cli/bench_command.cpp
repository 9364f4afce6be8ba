#include "app/cli/bench_command.h"

#include "app/cli/bench_arguments.h"
#include "app/cli/bench_broadcast.h"
#include "app/engine/first_frame.h"
#include "app/engine/session_csv.h"
#include "app/engine/session_document_builder.h"
#include "app/engine/session_engine.h"
#include "app/media/remux.h"
#include "app/report/quality_text.h"
#include "app/report/report_error.h"
#include "app/report/session_document.h"
#include "app/report/text_report.h"
#include "app/report/workload_json.h"
#include "app/sim/fault_spec.h"
#include "metrics/geometry.h"
#include "metrics/session_metrics.h"
#include "resources/bundled_resources.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>

#include <functional>
#include <limits>

namespace lbm::cli {
namespace {

struct BenchError {
    QString message;
};

QTextStream& out() {
    static QTextStream stream(stdout);
    return stream;
}

QTextStream& err() {
    static QTextStream stream(stderr);
    return stream;
}

std::optional<QString> gitRevision() {
    QProcess git;
    git.start(QStringLiteral("git"), {QStringLiteral("-C"), QCoreApplication::applicationDirPath(),
                                      QStringLiteral("rev-parse"), QStringLiteral("HEAD")});
    if (!git.waitForFinished(3000) || git.exitStatus() != QProcess::NormalExit ||
        git.exitCode() != 0) {
        return std::nullopt;
    }
    const QString sha = QString::fromUtf8(git.readAllStandardOutput()).trimmed();
    return sha.isEmpty() ? std::nullopt : std::optional<QString>(sha);
}

// Output paths are checked before connecting: a run can take many minutes, and learning at
// the end that its document cannot be written would lose it.
void checkOutputPath(const QString& flag, const std::optional<QString>& path) {
    if (!path) {
        return;
    }
    const QFileInfo target(*path);
    if (target.isDir()) {
        throw BenchError{
            QStringLiteral("%1 %2 is a directory; give a file path.").arg(flag, *path)};
    }
    const QFileInfo parent(target.absolutePath());
    const QString shown = QDir::toNativeSeparators(parent.filePath());
    if (!parent.exists()) {
        throw BenchError{QStringLiteral("%1 %2: the directory %3 does not exist; create it or "
                                        "choose another path.")
                             .arg(flag, *path, shown)};
    }
    if (!parent.isDir()) {
        throw BenchError{QStringLiteral("%1 %2: %3 is not a directory; choose a path in a "
                                        "directory you can write to.")
                             .arg(flag, *path, shown)};
    }
    if (!parent.isWritable()) {
        throw BenchError{QStringLiteral("%1 %2: the directory %3 is not writable; choose a path "
                                        "in a directory you can write to.")
                             .arg(flag, *path, shown)};
    }
}

Workload buildWorkload(const BenchArgs& args, bool* used_bundled) {
    const auto resolver = [&](const QString& value) -> QString {
        return engine::resolveFirstFrame(args.image.value_or(value));
    };
    Workload workload;
    if (args.workload) {
        workload = report::loadWorkloadFile(*args.workload, args.overrides, resolver);
    } else {
        QString image_url;
        if (args.image) {
            image_url = engine::resolveFirstFrame(*args.image);
        } else {
            image_url = bundledFirstFrameDataUrl();
            *used_bundled = true;
        }
        const auto& o = args.overrides;
        workload = defaultWorkload(
            image_url.toStdString(), args.num_chunks, args.camera_pattern.toStdString(),
            o.prompt ? o.prompt->toStdString() : std::string(kDefaultPrompt),
            o.width.value_or(kDefaultWidth), o.height.value_or(kDefaultHeight),
            o.fps.value_or(kDefaultFps), o.seed.value_or(kDefaultSeed),
            o.flow_shift.value_or(kDefaultFlowShift),
            o.negative_prompt ? std::optional<std::string>(o.negative_prompt->toStdString())
                              : std::nullopt);
    }
    for (const QString& entry : args.prompt_updates) {
        const QStringList parts = entry.split(QLatin1Char(':'));
        PromptUpdate update;
        update.after_chunk = static_cast<int>(*pythonInt(parts[0]));
        update.transition_chunks = static_cast<int>(*pythonInt(parts[1]));
        update.prompt = parts.mid(2).join(QLatin1Char(':')).toStdString();
        update.validate();
        workload.prompt_updates.push_back(update);
    }
    workload.validate();
    return workload;
}

// The one translation of bench's flags into the engine's settings; everything after reads
// the settings. --target-fps defaults to the fps the workload sends.
engine::EngineSettings engineSettings(const BenchArgs& args, const Workload& workload) {
    engine::EngineSettings settings;
    settings.use_simulator = args.simulate_profile.has_value();
    settings.simulator_profile = args.simulate_profile.value_or(QStringLiteral("fast"));
    settings.simulator_faults = args.faults;
    settings.simulator_realism = args.realism.value_or(QStringLiteral("low"));
    settings.analyze_quality = args.quality;
    settings.session.url = QUrl(benchEndpointUrl(args));
    settings.session.model = args.model;
    settings.session.workload = workload;
    settings.session.ping_interval_s = args.ping_interval_s;
    settings.session.first_chunk_timeout_s = args.first_chunk_timeout_s;
    settings.session.chunk_timeout_s = args.chunk_timeout_s;
    settings.session.insecure = args.insecure;
    settings.metrics.fps = args.target_fps.value_or(static_cast<double>(workload.fps));
    settings.metrics.playback_buffer_chunks = args.playback_buffer_chunks;
    settings.metrics.warmup_chunks = args.warmup_chunks;
    settings.metrics.slo_ms = args.chunk_slo_ms;
    settings.camera_pattern = args.camera_pattern;
    settings.workload_file = args.workload;
    settings.sessions = args.sessions;
    settings.warmup_sessions = args.warmup_sessions;
    return settings;
}

// Runs one session on the engine to its end, printing the client's warnings (and each chunk
// with --print-chunks) as they come.
void runSession(engine::SessionEngine& engine, const engine::EngineSettings& settings,
                bool print_chunks) {
    QString error;
    if (!engine.start(settings, &error)) {
        throw BenchError{error};
    }
    QMetaObject::Connection chunk_printer;
    if (print_chunks) {
        chunk_printer = QObject::connect(&engine, &engine::SessionEngine::chunkLanded,
                                         [](const ChunkRecord& record, double) {
                                             out() << report::chunkProgressLine(record) << Qt::endl;
                                         });
    }
    // Bounded by the session's own timeouts; decoding is bounded by the bytes received.
    engine.waitForFinished(std::numeric_limits<int>::max());
    QObject::disconnect(chunk_printer);
}

void printTimeline(const engine::SessionEngine& engine, int session_number) {
    out() << "Interaction timeline (session " << session_number << "):" << Qt::endl;
    const QStringList lines = engine.timeline().describeLines();
    if (lines.isEmpty()) {
        out() << "  (no interactions)" << Qt::endl;
    }
    for (const QString& line : lines) {
        out() << "  " << line << Qt::endl;
    }
}

void writeCsv(const QString& path, const engine::SessionEngine& engine) {
    report::ChunkCsvTable table = engine::sessionCsvTable(engine);
    if (engine.analyzingQuality()) {
        report::addQualityColumns(table, engine.qualityChunks());
    }
    table.write(path);
}

int runBench(const BenchArgs& args) {
    bool used_bundled = false;
    Workload workload = buildWorkload(args, &used_bundled);
    // Fitted here (not only in the engine) so the note prints before "Connecting to".
    const engine::FitResult fit = engine::fitSessionStart(workload, args.model);
    checkOutputPath(QStringLiteral("--output-json"), args.output_json);
    checkOutputPath(QStringLiteral("--csv"), args.csv);
    checkOutputPath(QStringLiteral("--save-raw"), args.save_raw);
    checkOutputPath(QStringLiteral("--save-video"), args.save_video);

    if (const QString outside = sim::faultOutsideSession(args.faults, workload.numChunks());
        !outside.isEmpty()) {
        throw BenchError{outside};
    }

    engine::EngineSettings settings = engineSettings(args, workload);
    engine::SessionEngine engine;
    QObject::connect(&engine, &engine::SessionEngine::warning,
                     [](const QString& text) { err() << text << Qt::endl; });
    QObject::connect(&engine, &engine::SessionEngine::recordingFailed,
                     [](const QString& text) { err() << "WARNING: " << text << Qt::endl; });
    QString endpoint_error;
    const QUrl url = engine.prepareEndpoint(settings, &endpoint_error);
    if (!url.isValid()) {
        throw BenchError{
            QStringLiteral("--simulate=%1: %2").arg(settings.simulator_profile, endpoint_error)};
    }

    BenchBroadcast broadcast;
    if (QString broadcast_error; !broadcast.start(args.broadcast, engine, &broadcast_error)) {
        throw BenchError{broadcast_error};
    }
    if (broadcast.running()) {
        err() << "Broadcasting to browsers at " << broadcast.viewerUrl().toString()
              << " (HLS playlist: " << broadcast.playlistUrl().toString() << ")" << Qt::endl;
    }

    if (report::leavesNoSteadyChunk(settings.metrics.warmup_chunks, workload.numChunks())) {
        err() << report::noSteadyChunkWarning(settings.metrics.warmup_chunks, workload.numChunks())
              << Qt::endl;
    }
    if (used_bundled) {
        out() << "First frame: the bundled 832x480 image (no --image given)" << Qt::endl;
    }
    if (fit.changed) {
        out() << fit.note << Qt::endl;
    }
    if (args.simulate_profile) {
        out() << "Simulator: built-in, profile " << *args.simulate_profile;
        if (!args.faults.isEmpty()) {
            out() << ", faults " << args.faults.join(QLatin1Char(' '));
        }
        out() << Qt::endl;
    }
    out() << report::connectingLine(url.toString()) << Qt::endl;
    out() << report::rolloutLine(workload.numChunks(), workload.numFrames(),
                                 workload.videoSeconds())
          << Qt::endl;
    out() << report::realTimeBasisLine(settings.metrics.fps, args.target_fps
                                                                 ? std::optional<int>(workload.fps)
                                                                 : std::nullopt)
          << Qt::endl;

    engine::SessionDocumentBuilder builder(settings, url.toString());
    builder.setGitRevision(gitRevision());
    if (fit.changed) {
        builder.addMonitorExtra(QStringLiteral("first_frame_note"), fit.note);
    }
    const auto writePartial = [&](const report::SessionDocument& document) {
        if (args.output_json) {
            try {
                report::writeSessionDocument(document, *args.output_json);
                out() << report::wroteLine(*args.output_json) << Qt::endl;
            } catch (const std::exception& error) {
                err() << "WARNING: " << QString::fromUtf8(error.what()) << Qt::endl;
            }
        }
    };

    for (int index = 0; index < args.warmup_sessions; ++index) {
        out() << "Warmup session " << index + 1 << '/' << args.warmup_sessions
              << " (not measured)..." << Qt::endl;
        runSession(engine, settings, false);
        if (!engine.result()->ok) {
            report::SessionDocument document = builder.document();
            document.monitor->incomplete_reason = engine.result()->error;
            writePartial(document);
            err() << "ERROR: " << engine.result()->error << Qt::endl;
            return 1;
        }
    }

    // The raw recording of the last measured session; --save-video without --save-raw records
    // into a temporary file that only feeds the remux.
    QTemporaryDir scratch;
    const QString raw_path = args.save_raw     ? *args.save_raw
                             : args.save_video ? scratch.filePath(QStringLiteral("stream.m4s"))
                                               : QString();
    for (int index = 0; index < args.sessions; ++index) {
        if (args.sessions > 1) {
            out() << "Session " << index + 1 << '/' << args.sessions << "..." << Qt::endl;
        }
        const bool record = !raw_path.isEmpty() && index == args.sessions - 1;
        settings.recording_path = record ? raw_path : QString();
        runSession(engine, settings, args.print_chunks);
        builder.addSession(engine);
        if (args.timeline) {
            printTimeline(engine, index + 1);
        }
        const session::SessionResult& result = *engine.result();
        if (!result.ok) {
            if (args.csv && !engine.liveMetrics().empty()) {
                try {
                    writeCsv(*args.csv, engine);
                } catch (const std::exception& error) {
                    err() << "WARNING: " << QString::fromUtf8(error.what()) << Qt::endl;
                }
            }
            writePartial(builder.document());
            if (record) {
                err() << "Partial recording kept at " << raw_path << " (" << engine.recordedBytes()
                      << " bytes)" << Qt::endl;
            }
            err() << "ERROR: " << result.error << Qt::endl;
            return 1;
        }
    }
    const report::SessionDocument document = builder.document();
    // The benchmark's sections as they are; ours after them.
    out() << '\n' << report::formatTextReport(document) << report::formatQualitySection(document);
    out().flush();

    // Each output on its own: one that cannot be written (a full disk) must not cost the
    // others. Every failure is reported and the run exits 1.
    QStringList output_errors;
    if (!engine.recordingError().isEmpty()) {
        output_errors.append(engine.recordingError());
    }
    const auto attempt = [&output_errors](const std::function<void()>& write) {
        try {
            write();
        } catch (const BenchError& error) {
            output_errors.append(error.message);
        } catch (const std::exception& error) {
            output_errors.append(QString::fromUtf8(error.what()));
        }
    };
    if (args.save_video) {
        attempt([&] {
            const media::RemuxResult remux = media::remuxToMp4(raw_path, *args.save_video);
            if (!remux.ok) {
                throw BenchError{remux.error};
            }
            const auto& result = *engine.result();
            out() << report::savedVideoLine(result.media_bytes + result.trailer_bytes,
                                            QFileInfo(*args.save_video).size(), *args.save_video)
                  << Qt::endl;
        });
    }
    if (args.csv) {
        attempt([&] { writeCsv(*args.csv, engine); });
    }
    if (args.output_json) {
        attempt([&] {
            report::writeSessionDocument(document, *args.output_json);
            out() << report::wroteLine(*args.output_json) << Qt::endl;
        });
    }
    for (const QString& error : output_errors) {
        err() << "ERROR: " << error << Qt::endl;
    }
    if (broadcast.running()) {
        err() << "Broadcast: the whole session stays at " << broadcast.viewerUrl().toString()
              << " for " << args.broadcast_linger_s << " s (--broadcast-linger)" << Qt::endl;
        const broadcast::BroadcastStats stats = broadcast.linger(args.broadcast_linger_s);
        err() << "Broadcast ended: " << stats.viewers << " viewer(s) at most, " << stats.bytes_sent
              << " bytes sent, " << stats.dropped_viewers << " slow viewer(s) dropped, "
              << stats.refused_requests << " request(s) refused" << Qt::endl;
    }
    return output_errors.isEmpty() ? 0 : 1;
}

} // namespace

int runBenchCommand(const QStringList& arguments) {
    BenchArgs args;
    try {
        if (parseBenchArguments(arguments, args) == ParseOutcome::Help) {
            out() << benchHelpText();
            out().flush();
            return 0;
        }
    } catch (const ArgumentError& error) {
        err() << benchUsageLine() << '\n'
              << kBenchProgram << ": error: " << error.message << Qt::endl;
        return 2;
    }
    try {
        return runBench(args);
    } catch (const BenchError& error) {
        err() << "ERROR: " << error.message << Qt::endl;
    } catch (const engine::FirstFrameError& error) {
        err() << "ERROR: " << error.message() << Qt::endl;
    } catch (const report::ReportError& error) {
        err() << "ERROR: " << error.message() << Qt::endl;
    } catch (const std::exception& error) {
        err() << "ERROR: " << QString::fromUtf8(error.what()) << Qt::endl;
    }
    return 1;
}

} // namespace lbm::cli
