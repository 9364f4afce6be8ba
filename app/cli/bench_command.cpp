#include "app/cli/bench_command.h"

#include "app/media/recorder.h"
#include "app/media/remux.h"
#include "app/media/stream_decoder.h"
#include "app/protocol/camera_keys.h"
#include "app/report/chunk_csv.h"
#include "app/report/report_error.h"
#include "app/report/session_document.h"
#include "app/report/text_report.h"
#include "app/report/workload_json.h"
#include "app/session/first_frame.h"
#include "app/session/session_client.h"
#include "app/session/session_notes.h"
#include "app/sim/simulator_server.h"
#include "metrics/geometry.h"
#include "metrics/metric_error.h"
#include "metrics/session_metrics.h"
#include "resources/bundled_resources.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QHostAddress>
#include <QHostInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace lbm::cli {
namespace {

const QString kProgram = QStringLiteral("lingbot-monitor bench");
const QString kWsPath = QStringLiteral("/v1/realtime/video");

// ---------------------------------------------------------------------------------------
// Arguments, parsed the way argparse does (so errors and exit codes match the benchmark).

enum class ValueType { None, Int, Float, String, Choice, OptionalString };

struct OptionSpec {
    QString name;
    ValueType type;
    QString metavar;
    QString help;
    QStringList choices = {};
    bool repeatable = false;
};

const std::vector<OptionSpec>& optionSpecs() {
    static const std::vector<OptionSpec> specs = {
        {QStringLiteral("--host"), ValueType::String, QStringLiteral("HOST"),
         QStringLiteral("(default: 127.0.0.1)")},
        {QStringLiteral("--port"), ValueType::Int, QStringLiteral("PORT"),
         QStringLiteral("(default: 8000)")},
        {QStringLiteral("--base-url"), ValueType::String, QStringLiteral("BASE_URL"),
         QStringLiteral("Full ws:// URL; overrides --host/--port. (default: None)")},
        {QStringLiteral("--model"), ValueType::String, QStringLiteral("MODEL"),
         QStringLiteral("(default: robbyant/lingbot-world-v2-14b-causal-fast-diffusers)")},
        {QStringLiteral("--workload"), ValueType::String, QStringLiteral("WORKLOAD"),
         QStringLiteral("JSON rollout spec; overrides the built-in workload. (default: None)")},
        {QStringLiteral("--image"), ValueType::String, QStringLiteral("IMAGE"),
         QStringLiteral("First frame: path or URL. Defaults to the bundled 832x480 frame.")},
        {QStringLiteral("--prompt"), ValueType::String, QStringLiteral("PROMPT_OVERRIDE"),
         QStringLiteral("Default: 'The camera moves slowly forward through the scene.'")},
        {QStringLiteral("--negative-prompt"), ValueType::String, QStringLiteral("NEGATIVE_PROMPT"),
         QStringLiteral("(default: None)")},
        {QStringLiteral("--num-chunks"), ValueType::Int, QStringLiteral("NUM_CHUNKS"),
         QStringLiteral("AR blocks per session; ignored with --workload. (default: 16)")},
        {QStringLiteral("--camera-pattern"),
         ValueType::Choice,
         QStringLiteral("{forward,orbit,hold}"),
         QStringLiteral("Camera pattern for the built-in workload only; ignored with --workload. "
                        "(default: forward)"),
         {QStringLiteral("forward"), QStringLiteral("orbit"), QStringLiteral("hold")}},
        {QStringLiteral("--width"), ValueType::Int, QStringLiteral("WIDTH_OVERRIDE"),
         QStringLiteral("Default: 832")},
        {QStringLiteral("--height"), ValueType::Int, QStringLiteral("HEIGHT_OVERRIDE"),
         QStringLiteral("Default: 480")},
        {QStringLiteral("--fps"), ValueType::Int, QStringLiteral("FPS_OVERRIDE"),
         QStringLiteral("Default: 16")},
        {QStringLiteral("--seed"), ValueType::Int, QStringLiteral("SEED_OVERRIDE"),
         QStringLiteral("Default: 42")},
        {QStringLiteral("--flow-shift"), ValueType::Float, QStringLiteral("FLOW_SHIFT"),
         QStringLiteral("Default: 5.0")},
        {QStringLiteral("--sessions"), ValueType::Int, QStringLiteral("SESSIONS"),
         QStringLiteral("Sequential measured rollouts. (default: 1)")},
        {QStringLiteral("--warmup-sessions"), ValueType::Int, QStringLiteral("WARMUP_SESSIONS"),
         QStringLiteral("Unmeasured rollouts first (pays compile cost). (default: 0)")},
        {QStringLiteral("--warmup-chunks"), ValueType::Int, QStringLiteral("WARMUP_CHUNKS"),
         QStringLiteral("Chunks excluded from steady state; the attention window saturates after "
                        "6. (default: 6)")},
        {QStringLiteral("--chunk-slo-ms"), ValueType::Float, QStringLiteral("CHUNK_SLO_MS"),
         QStringLiteral(
             "Deadline a steady chunk must meet. Default: one chunk of video at --target-fps.")},
        {QStringLiteral("--target-fps"), ValueType::Float, QStringLiteral("TARGET_FPS"),
         QStringLiteral("Playback rate for real-time factor, the chunk deadline and the playback "
                        "simulation. Default: the --fps sent to the server.")},
        {QStringLiteral("--playback-buffer-chunks"), ValueType::Int,
         QStringLiteral("PLAYBACK_BUFFER_CHUNKS"),
         QStringLiteral("Chunks buffered before playback starts. (default: 1)")},
        {QStringLiteral("--first-chunk-timeout"), ValueType::Float,
         QStringLiteral("FIRST_CHUNK_TIMEOUT"), QStringLiteral("(default: 900.0)")},
        {QStringLiteral("--chunk-timeout"), ValueType::Float, QStringLiteral("CHUNK_TIMEOUT"),
         QStringLiteral("(default: 300.0)")},
        {QStringLiteral("--ping-interval"), ValueType::Float, QStringLiteral("PING_INTERVAL"),
         QStringLiteral("session.ping cadence; 0 disables. (default: 20.0)")},
        {QStringLiteral("--output-json"), ValueType::String, QStringLiteral("OUTPUT_JSON"),
         QStringLiteral("(default: None)")},
        {QStringLiteral("--save-video"), ValueType::String, QStringLiteral("SAVE_VIDEO"),
         QStringLiteral(
             "Write the last measured session's video here (stream copy, no re-encode).")},
        {QStringLiteral("--print-chunks"), ValueType::None, QString(),
         QStringLiteral("(default: False)")},
        {QStringLiteral("--simulate"), ValueType::OptionalString, QStringLiteral("PROFILE"),
         QStringLiteral("Run against the built-in simulator in this process (profile: fast, "
                        "h200-sp4, h200-stock, single-gpu, edge, replay:FILE; default fast).")},
        {QStringLiteral("--save-raw"), ValueType::String, QStringLiteral("FILE.m4s"),
         QStringLiteral("Append the raw fMP4 bytes of the last measured session as they arrive.")},
        {QStringLiteral("--csv"), ValueType::String, QStringLiteral("FILE"),
         QStringLiteral("One row per chunk of the last measured session.")},
        {QStringLiteral("--prompt-update"),
         ValueType::String,
         QStringLiteral("AFTER:K:TEXT"),
         QStringLiteral(
             "Send prompt TEXT over K chunks right after chunk AFTER lands (repeatable)."),
         {},
         true},
        {QStringLiteral("--timeline"), ValueType::None, QString(),
         QStringLiteral("Print the interaction timeline after each measured session.")},
        {QStringLiteral("--insecure"), ValueType::None, QString(),
         QStringLiteral("wss:// only: do not verify the server's certificate (unsafe).")},
    };
    return specs;
}

QString usageLine() {
    QString text = QStringLiteral("usage: %1 [-h]").arg(kProgram);
    const QString indent(QStringLiteral("usage: %1 ").arg(kProgram).size(), QLatin1Char(' '));
    qsizetype line_length = text.size();
    for (const OptionSpec& spec : optionSpecs()) {
        QString item = spec.type == ValueType::None ? QStringLiteral("[%1]").arg(spec.name)
                       : spec.type == ValueType::OptionalString
                           ? QStringLiteral("[%1 [%2]]").arg(spec.name, spec.metavar)
                           : QStringLiteral("[%1 %2]").arg(spec.name, spec.metavar);
        if (line_length + 1 + item.size() > 80) {
            text += QLatin1Char('\n') + indent.left(indent.size() - 1);
            line_length = indent.size() - 1;
        }
        text += QLatin1Char(' ') + item;
        line_length += 1 + item.size();
    }
    return text;
}

QString helpText() {
    QString text =
        usageLine() +
        QStringLiteral(
            "\n\nBenchmark LingBot-World 2.0 realtime streaming over WS /v1/realtime/video.\n\n"
            "options:\n  -h, --help  show this help message and exit\n");
    for (const OptionSpec& spec : optionSpecs()) {
        QString head = spec.name;
        if (spec.type == ValueType::OptionalString) {
            head += QStringLiteral(" [%1]").arg(spec.metavar);
        } else if (spec.type != ValueType::None) {
            head += QLatin1Char(' ') + spec.metavar;
        }
        text += QStringLiteral("  %1\n                        %2\n").arg(head, spec.help);
    }
    return text;
}

struct BenchArgs {
    QString host = QStringLiteral("127.0.0.1");
    int port = 8000;
    std::optional<QString> base_url;
    QString model =
        QString::fromUtf8(kDefaultModel.data(), static_cast<qsizetype>(kDefaultModel.size()));
    std::optional<QString> workload;
    std::optional<QString> image;
    report::WorkloadOverrides overrides;
    int num_chunks = 16;
    QString camera_pattern = QStringLiteral("forward");
    int sessions = 1;
    int warmup_sessions = 0;
    int warmup_chunks = kDefaultWarmupChunks;
    std::optional<double> chunk_slo_ms;
    std::optional<double> target_fps;
    int playback_buffer_chunks = 1;
    double first_chunk_timeout_s = 900.0;
    double chunk_timeout_s = 300.0;
    double ping_interval_s = 20.0;
    std::optional<QString> output_json;
    std::optional<QString> save_video;
    bool print_chunks = false;
    std::optional<QString> simulate_profile;
    std::optional<QString> save_raw;
    std::optional<QString> csv;
    QStringList prompt_updates;
    bool timeline = false;
    bool insecure = false;
};

struct ArgumentError {
    QString message;
};

// Python's int(): optional sign, digits, surrounding whitespace, underscores between digits.
std::optional<long long> pythonInt(const QString& text) {
    QString cleaned = text.trimmed();
    if (cleaned.contains(QStringLiteral("__")) || cleaned.endsWith(QLatin1Char('_'))) {
        return std::nullopt;
    }
    cleaned.remove(QLatin1Char('_'));
    bool ok = false;
    const long long value = cleaned.toLongLong(&ok, 10);
    return ok ? std::optional<long long>(value) : std::nullopt;
}

std::optional<double> pythonFloat(const QString& text) {
    const QString cleaned = text.trimmed().toLower();
    bool ok = false;
    const double value = cleaned.toDouble(&ok);
    if (ok) {
        return value;
    }
    if (cleaned == QStringLiteral("inf") || cleaned == QStringLiteral("+inf") ||
        cleaned == QStringLiteral("infinity")) {
        return std::numeric_limits<double>::infinity();
    }
    if (cleaned == QStringLiteral("-inf") || cleaned == QStringLiteral("-infinity")) {
        return -std::numeric_limits<double>::infinity();
    }
    return std::nullopt;
}

const OptionSpec* findOption(const QString& name) {
    for (const OptionSpec& spec : optionSpecs()) {
        if (spec.name == name) {
            return &spec;
        }
    }
    // argparse accepts an unambiguous prefix of a long option.
    const OptionSpec* match = nullptr;
    QStringList candidates;
    for (const OptionSpec& spec : optionSpecs()) {
        if (spec.name.startsWith(name) && name.size() > 2) {
            match = &spec;
            candidates.append(spec.name);
        }
    }
    if (candidates.size() > 1) {
        throw ArgumentError{QStringLiteral("ambiguous option: %1 could match %2")
                                .arg(name, candidates.join(QStringLiteral(", ")))};
    }
    return match;
}

void assign(BenchArgs& args, const OptionSpec& spec, const std::optional<QString>& raw) {
    const QString value = raw.value_or(QString());
    const auto toInt = [&]() -> int {
        const auto parsed = pythonInt(value);
        if (!parsed || *parsed < std::numeric_limits<int>::min() ||
            *parsed > std::numeric_limits<int>::max()) {
            throw ArgumentError{
                QStringLiteral("argument %1: invalid int value: '%2'").arg(spec.name, value)};
        }
        return static_cast<int>(*parsed);
    };
    const auto toFloat = [&]() -> double {
        const auto parsed = pythonFloat(value);
        if (!parsed) {
            throw ArgumentError{
                QStringLiteral("argument %1: invalid float value: '%2'").arg(spec.name, value)};
        }
        return *parsed;
    };
    const QString& n = spec.name;
    if (n == QStringLiteral("--host"))
        args.host = value;
    else if (n == QStringLiteral("--port"))
        args.port = toInt();
    else if (n == QStringLiteral("--base-url"))
        args.base_url = value;
    else if (n == QStringLiteral("--model"))
        args.model = value;
    else if (n == QStringLiteral("--workload"))
        args.workload = value;
    else if (n == QStringLiteral("--image"))
        args.image = value;
    else if (n == QStringLiteral("--prompt"))
        args.overrides.prompt = value;
    else if (n == QStringLiteral("--negative-prompt"))
        args.overrides.negative_prompt = value;
    else if (n == QStringLiteral("--num-chunks"))
        args.num_chunks = toInt();
    else if (n == QStringLiteral("--camera-pattern")) {
        if (!spec.choices.contains(value)) {
            QStringList quoted;
            for (const QString& choice : spec.choices) {
                quoted.append(QLatin1Char('\'') + choice + QLatin1Char('\''));
            }
            throw ArgumentError{QStringLiteral("argument %1: invalid choice: '%2' (choose from %3)")
                                    .arg(spec.name, value, quoted.join(QStringLiteral(", ")))};
        }
        args.camera_pattern = value;
    } else if (n == QStringLiteral("--width"))
        args.overrides.width = toInt();
    else if (n == QStringLiteral("--height"))
        args.overrides.height = toInt();
    else if (n == QStringLiteral("--fps"))
        args.overrides.fps = toInt();
    else if (n == QStringLiteral("--seed"))
        args.overrides.seed = toInt();
    else if (n == QStringLiteral("--flow-shift"))
        args.overrides.flow_shift = toFloat();
    else if (n == QStringLiteral("--sessions"))
        args.sessions = toInt();
    else if (n == QStringLiteral("--warmup-sessions"))
        args.warmup_sessions = toInt();
    else if (n == QStringLiteral("--warmup-chunks"))
        args.warmup_chunks = toInt();
    else if (n == QStringLiteral("--chunk-slo-ms"))
        args.chunk_slo_ms = toFloat();
    else if (n == QStringLiteral("--target-fps"))
        args.target_fps = toFloat();
    else if (n == QStringLiteral("--playback-buffer-chunks"))
        args.playback_buffer_chunks = toInt();
    else if (n == QStringLiteral("--first-chunk-timeout"))
        args.first_chunk_timeout_s = toFloat();
    else if (n == QStringLiteral("--chunk-timeout"))
        args.chunk_timeout_s = toFloat();
    else if (n == QStringLiteral("--ping-interval"))
        args.ping_interval_s = toFloat();
    else if (n == QStringLiteral("--output-json"))
        args.output_json = value;
    else if (n == QStringLiteral("--save-video"))
        args.save_video = value;
    else if (n == QStringLiteral("--print-chunks"))
        args.print_chunks = true;
    else if (n == QStringLiteral("--simulate"))
        args.simulate_profile = raw.value_or(QStringLiteral("fast"));
    else if (n == QStringLiteral("--save-raw"))
        args.save_raw = value;
    else if (n == QStringLiteral("--csv"))
        args.csv = value;
    else if (n == QStringLiteral("--prompt-update"))
        args.prompt_updates.append(value);
    else if (n == QStringLiteral("--timeline"))
        args.timeline = true;
    else if (n == QStringLiteral("--insecure"))
        args.insecure = true;
}

enum class ParseOutcome { Run, Help };

ParseOutcome parseArguments(const QStringList& arguments, BenchArgs& args) {
    QStringList unrecognized;
    for (qsizetype n = 1; n < arguments.size(); ++n) {
        const QString& token = arguments[n];
        if (token == QStringLiteral("-h") || token == QStringLiteral("--help")) {
            return ParseOutcome::Help;
        }
        if (!token.startsWith(QStringLiteral("--")) || token == QStringLiteral("--")) {
            unrecognized.append(token);
            continue;
        }
        const qsizetype equals = token.indexOf(QLatin1Char('='));
        const QString name = equals < 0 ? token : token.left(equals);
        const OptionSpec* spec = findOption(name);
        if (!spec) {
            unrecognized.append(token);
            continue;
        }
        std::optional<QString> value;
        if (equals >= 0) {
            if (spec->type == ValueType::None) {
                throw ArgumentError{QStringLiteral("argument %1: ignored explicit argument '%2'")
                                        .arg(spec->name, token.mid(equals + 1))};
            }
            value = token.mid(equals + 1);
        } else if (spec->type == ValueType::OptionalString) {
            if (n + 1 < arguments.size() && !arguments[n + 1].startsWith(QStringLiteral("-"))) {
                value = arguments[++n];
            }
        } else if (spec->type != ValueType::None) {
            // argparse takes a following token as the value unless it looks like an option
            // ("-5" counts as a value: the parser has no negative-number-like options).
            const bool next_is_value =
                n + 1 < arguments.size() && (!arguments[n + 1].startsWith(QLatin1Char('-')) ||
                                             pythonFloat(arguments[n + 1]).has_value());
            if (!next_is_value) {
                throw ArgumentError{
                    QStringLiteral("argument %1: expected one argument").arg(spec->name)};
            }
            value = arguments[++n];
        }
        assign(args, *spec, value);
    }
    if (!unrecognized.isEmpty()) {
        throw ArgumentError{
            QStringLiteral("unrecognized arguments: %1").arg(unrecognized.join(QLatin1Char(' ')))};
    }
    // The benchmark's own checks, in its order.
    if (args.sessions < 1) {
        throw ArgumentError{QStringLiteral("--sessions must be at least 1.")};
    }
    if (args.warmup_sessions < 0) {
        throw ArgumentError{QStringLiteral("--warmup-sessions must be non-negative.")};
    }
    if (args.warmup_chunks < 0) {
        throw ArgumentError{QStringLiteral("--warmup-chunks must be non-negative.")};
    }
    if (args.playback_buffer_chunks < 1) {
        throw ArgumentError{QStringLiteral("--playback-buffer-chunks must be at least 1.")};
    }
    if (args.target_fps && *args.target_fps <= 0) {
        throw ArgumentError{QStringLiteral("--target-fps must be positive.")};
    }
    if (!args.workload && args.num_chunks < 1) {
        throw ArgumentError{QStringLiteral("--num-chunks must be at least 1.")};
    }
    // Ours: the benchmark would build the whole camera script first and run out of memory.
    if (!args.workload && args.num_chunks > report::kMaxWorkloadChunks) {
        throw ArgumentError{QStringLiteral("--num-chunks must be at most %1 (a larger "
                                           "session.start exceeds the server's 4 MiB limit).")
                                .arg(report::kMaxWorkloadChunks)};
    }
    // Ours.
    if (args.first_chunk_timeout_s <= 0 || args.chunk_timeout_s <= 0) {
        throw ArgumentError{
            QStringLiteral("--first-chunk-timeout and --chunk-timeout must be positive.")};
    }
    if (args.ping_interval_s < 0) {
        throw ArgumentError{QStringLiteral("--ping-interval must be non-negative (0 disables).")};
    }
    for (const QString& entry : args.prompt_updates) {
        const QStringList parts = entry.split(QLatin1Char(':'));
        const auto after = parts.size() >= 3 ? pythonInt(parts[0]) : std::nullopt;
        const auto k = parts.size() >= 3 ? pythonInt(parts[1]) : std::nullopt;
        if (!after || !k || *after < 0 || *k < 0 ||
            parts.mid(2).join(QLatin1Char(':')).trimmed().isEmpty()) {
            throw ArgumentError{
                QStringLiteral("argument --prompt-update: expected AFTER:K:TEXT with "
                               "AFTER and K non-negative integers and TEXT not empty, "
                               "got '%1'")
                    .arg(entry)};
        }
    }
    return ParseOutcome::Run;
}

QString endpointUrl(const BenchArgs& args) {
    if (args.base_url) {
        QString base = *args.base_url;
        while (base.endsWith(QLatin1Char('/'))) {
            base.chop(1);
        }
        if (base.startsWith(QStringLiteral("http://"))) {
            base = QStringLiteral("ws://") + base.mid(7);
        } else if (base.startsWith(QStringLiteral("https://"))) {
            base = QStringLiteral("wss://") + base.mid(8);
        }
        return base.endsWith(kWsPath) ? base : base + kWsPath;
    }
    return QStringLiteral("ws://%1:%2%3").arg(args.host).arg(args.port).arg(kWsPath);
}

// ---------------------------------------------------------------------------------------
// Running.

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

// The simulator on its own thread, so its encoding never shares a thread with the client's
// stamps or the report.
class InProcessSimulator {
public:
    explicit InProcessSimulator(const QString& profile) {
        m_thread.setObjectName(QStringLiteral("lbm-bench-simulator"));
        sim::SimulatorConfig config;
        config.profile = profile;
        m_server = std::make_unique<sim::SimulatorServer>(config);
        m_server->moveToThread(&m_thread);
        m_thread.start();
        bool listening = false;
        QMetaObject::invokeMethod(
            m_server.get(),
            [this, &listening] { listening = m_server->listen(QHostAddress::LocalHost, 0); },
            Qt::BlockingQueuedConnection);
        if (!listening) {
            const QString reason = m_server->errorString();
            shutDown(); // a throwing constructor runs no destructor
            throw BenchError{
                QStringLiteral("--simulate=%1: the built-in simulator did not start: %2")
                    .arg(profile, reason)};
        }
        m_url = m_server->url();
    }
    ~InProcessSimulator() { shutDown(); }
    QUrl url() const { return m_url; }

private:
    void shutDown() {
        // Destroy on its own thread: its sockets and timers live there.
        QMetaObject::invokeMethod(
            m_server.get(), [this] { m_server.reset(); }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }

    QThread m_thread;
    std::unique_ptr<sim::SimulatorServer> m_server;
    QUrl m_url;
};

struct MeasuredSession {
    session::SessionResult result;
    session::InteractionTimeline timeline;
    std::map<qint64, qint64> decoded_per_chunk; // generation index -> frames decoded
    media::DecoderStats decoder;
    QStringList decoder_errors;
    QList<session::ChunkEvent> chunks;
    QString recorder_error; // the raw recording stopped (disk full, ...); the session went on
};

MeasuredSession runOneSession(const session::SessionOptions& options, const BenchArgs& args,
                              bool measured, media::Recorder* recorder) {
    MeasuredSession measured_session;
    session::SessionClient client;
    // Created with the first chunk: a decoder that never sees a byte would only make the
    // demuxer complain about a missing moov.
    std::unique_ptr<media::StreamDecoder> decoder;
    QEventLoop loop;
    QString recorder_error;
    const auto drain = [&] {
        while (const auto frame = decoder->popFrame(0)) {
            if (frame->tag().generation_index) {
                ++measured_session.decoded_per_chunk[*frame->tag().generation_index];
            }
        }
    };

    QObject::connect(&client, &session::SessionClient::warning,
                     [](const QString& text) { err() << text << Qt::endl; });
    QObject::connect(
        &client, &session::SessionClient::chunkReceived, [&](const session::ChunkEvent& chunk) {
            if (recorder && recorder->isOpen() && !recorder->append(chunk.bytes()) &&
                recorder_error.isEmpty()) {
                recorder_error = recorder->errorString();
                err() << "WARNING: " << recorder_error << Qt::endl;
            }
            if (!decoder) {
                decoder = std::make_unique<media::StreamDecoder>();
                QObject::connect(decoder.get(), &media::StreamDecoder::framesAvailable, &client,
                                 drain);
                QObject::connect(decoder.get(), &media::StreamDecoder::errorOccurred, &client,
                                 [&](const QString& message) {
                                     measured_session.decoder_errors.append(message);
                                 });
            }
            media::ChunkInfo info;
            info.transport_index = chunk.transportChunkIndex();
            info.generation_index = chunk.generationChunkIndex();
            info.num_frames = chunk.numFrames();
            info.kind = chunk.isTrailer() ? media::ChunkKind::Trailer : media::ChunkKind::Media;
            decoder->pushChunk(info, chunk.bytes());
            if (chunk.isMedia()) {
                measured_session.chunks.append(chunk);
                if (measured && args.print_chunks) {
                    out() << report::chunkProgressLine(chunk.record()) << Qt::endl;
                }
            }
        });
    QObject::connect(&client, &session::SessionClient::finished, &loop, &QEventLoop::quit);
    client.start(options);
    loop.exec();

    measured_session.result = *client.result();
    measured_session.timeline = client.timeline();
    measured_session.recorder_error = recorder_error;
    if (decoder) {
        decoder->finish();
        // Keep taking frames so the decoder is never stuck on a full queue; bounded by the
        // bytes received.
        while (!decoder->waitForEnd(20)) {
            drain();
        }
        drain();
        measured_session.decoder = decoder->stats();
    }
    return measured_session;
}

QJsonObject sessionExtras(const MeasuredSession& session) {
    qint64 decoded = 0;
    for (const auto& [chunk, frames] : session.decoded_per_chunk) {
        decoded += frames;
    }
    qint64 announced = 0;
    for (const ChunkRecord& record : session.result.records) {
        announced += record.num_frames;
    }
    QJsonObject extras{
        {QStringLiteral("complete"), session.result.ok},
        {QStringLiteral("frames_announced"), announced},
        {QStringLiteral("frames_decoded"), decoded},
        {QStringLiteral("decoder_errors"), QJsonArray::fromStringList(session.decoder_errors)},
        {QStringLiteral("trailer_received"), session.result.trailer_received},
        {QStringLiteral("wall_s"), session.result.wall_s},
        {QStringLiteral("pings_sent"), session.result.pings_sent},
        {QStringLiteral("pongs_received"), session.result.pongs_received},
        {QStringLiteral("interactions"), session.timeline.toJson()},
    };
    if (!session.result.ok) {
        extras.insert(QStringLiteral("error"), session.result.error);
    }
    if (!session.result.done_event.isEmpty()) {
        extras.insert(QStringLiteral("done_event"), session.result.done_event);
    }
    const QJsonObject notes = session::sessionNotesJson(session.result);
    for (auto it = notes.begin(); it != notes.end(); ++it) {
        extras.insert(it.key(), it.value());
    }
    return extras;
}

void writeCsv(const QString& path, const MeasuredSession& session, double deadline_ms,
              int warmup_chunks) {
    std::vector<ChunkRecord> records = session.result.records;
    std::sort(records.begin(), records.end(),
              [](const ChunkRecord& a, const ChunkRecord& b) { return a.index < b.index; });
    report::ChunkCsvTable table(records, deadline_ms, warmup_chunks);
    QStringList decoded, started, active, completed;
    for (const ChunkRecord& record : records) {
        const auto found = session.decoded_per_chunk.find(record.index);
        decoded.append(
            QString::number(found == session.decoded_per_chunk.end() ? 0 : found->second));
        QStringList s, a, c;
        for (const session::ChunkEvent& chunk : session.chunks) {
            if (chunk.generationChunkIndex() == record.index) {
                s = chunk.startedEventIds();
                a = chunk.activeEventIds();
                c = chunk.completedEventIds();
            }
        }
        started.append(s.join(QLatin1Char(' ')));
        active.append(a.join(QLatin1Char(' ')));
        completed.append(c.join(QLatin1Char(' ')));
    }
    table.addColumn(QStringLiteral("decoded_frames"), decoded);
    table.addColumn(QStringLiteral("started_event_ids"), started);
    table.addColumn(QStringLiteral("active_event_ids"), active);
    table.addColumn(QStringLiteral("completed_event_ids"), completed);
    std::vector<qint64> indices;
    for (const ChunkRecord& record : records) {
        indices.push_back(record.index);
    }
    table.addColumn(QStringLiteral("superseded_event_ids"),
                    session.timeline.supersededPerChunk(indices));
    table.write(path);
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
        return session::resolveFirstFrame(args.image.value_or(value));
    };
    Workload workload;
    if (args.workload) {
        workload = report::loadWorkloadFile(*args.workload, args.overrides, resolver);
    } else {
        QString image_url;
        if (args.image) {
            image_url = session::resolveFirstFrame(*args.image);
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

int runBench(const BenchArgs& args) {
    bool used_bundled = false;
    Workload workload = buildWorkload(args, &used_bundled);
    const session::FitResult fit = session::fitSessionStart(workload, args.model);
    const double target_fps = args.target_fps.value_or(static_cast<double>(workload.fps));
    checkOutputPath(QStringLiteral("--output-json"), args.output_json);
    checkOutputPath(QStringLiteral("--csv"), args.csv);
    checkOutputPath(QStringLiteral("--save-raw"), args.save_raw);
    checkOutputPath(QStringLiteral("--save-video"), args.save_video);

    std::unique_ptr<InProcessSimulator> simulator;
    QString url = endpointUrl(args);
    if (args.simulate_profile) {
        simulator = std::make_unique<InProcessSimulator>(*args.simulate_profile);
        url = simulator->url().toString();
    }

    if (report::leavesNoSteadyChunk(args.warmup_chunks, workload.numChunks())) {
        err() << report::noSteadyChunkWarning(args.warmup_chunks, workload.numChunks()) << Qt::endl;
    }
    if (used_bundled) {
        out() << "First frame: the bundled 832x480 image (no --image given)" << Qt::endl;
    }
    if (fit.changed) {
        out() << fit.note << Qt::endl;
    }
    if (args.simulate_profile) {
        out() << "Simulator: built-in, profile " << *args.simulate_profile << Qt::endl;
    }
    out() << report::connectingLine(url) << Qt::endl;
    out() << report::rolloutLine(workload.numChunks(), workload.numFrames(),
                                 workload.videoSeconds())
          << Qt::endl;
    out() << report::realTimeBasisLine(
                 target_fps, args.target_fps ? std::optional<int>(workload.fps) : std::nullopt)
          << Qt::endl;

    session::SessionOptions options;
    options.url = QUrl(url);
    options.model = args.model;
    options.workload = workload;
    options.ping_interval_s = args.ping_interval_s;
    options.first_chunk_timeout_s = args.first_chunk_timeout_s;
    options.chunk_timeout_s = args.chunk_timeout_s;
    options.insecure = args.insecure;

    report::SessionDocument document;
    document.timestamp = report::isoTimestampUtc();
    document.endpoint = url;
    document.model = args.model;
    document.git_revision = gitRevision();
    document.hostname = QHostInfo::localHostName();
    document.workload = report::describeWorkload(workload);
    document.config.sessions = args.sessions;
    document.config.warmup_sessions = args.warmup_sessions;
    document.config.warmup_chunks = args.warmup_chunks;
    document.config.camera_pattern = args.camera_pattern;
    document.config.chunk_slo_ms = args.chunk_slo_ms;
    document.config.target_fps = target_fps;
    document.config.mux_fps = workload.fps;
    document.config.playback_buffer_chunks = args.playback_buffer_chunks;
    document.config.workload_file = args.workload;
    report::MonitorSection monitor;
    if (args.simulate_profile) {
        monitor.extras.insert(QStringLiteral("simulator_profile"), *args.simulate_profile);
    }
    if (fit.changed) {
        monitor.extras.insert(QStringLiteral("first_frame_note"), fit.note);
    }

    MetricsOptions metrics_options;
    metrics_options.fps = target_fps;
    metrics_options.warmup_chunks = args.warmup_chunks;
    metrics_options.slo_ms = args.chunk_slo_ms;
    metrics_options.playback_buffer_chunks = args.playback_buffer_chunks;

    const auto writePartial = [&](const QString& reason) {
        monitor.complete = false;
        monitor.incomplete_reason = reason;
        document.monitor = monitor;
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
        const MeasuredSession warmup = runOneSession(options, args, false, nullptr);
        if (!warmup.result.ok) {
            writePartial(warmup.result.error);
            err() << "ERROR: " << warmup.result.error << Qt::endl;
            return 1;
        }
    }

    // The raw recording of the last measured session; --save-video without --save-raw records
    // into a temporary file that only feeds the remux.
    QTemporaryDir scratch;
    const QString raw_path = args.save_raw     ? *args.save_raw
                             : args.save_video ? scratch.filePath(QStringLiteral("stream.m4s"))
                                               : QString();
    std::vector<SessionMetrics> all_metrics;
    MeasuredSession last;
    for (int index = 0; index < args.sessions; ++index) {
        if (args.sessions > 1) {
            out() << "Session " << index + 1 << '/' << args.sessions << "..." << Qt::endl;
        }
        media::Recorder recorder;
        const bool record = !raw_path.isEmpty() && index == args.sessions - 1;
        if (record && !recorder.open(raw_path)) {
            throw BenchError{recorder.errorString()};
        }
        last = runOneSession(options, args, true, record ? &recorder : nullptr);
        recorder.close();

        report::SessionEntry entry;
        entry.session_index = index;
        entry.request_id = last.result.request_id;
        if (last.result.video_start_s) {
            entry.video_start_ms = *last.result.video_start_s * 1000.0;
        }
        entry.chunks = last.result.records;
        entry.ttfc_s = last.result.ttfc_s;
        entry.wall_s = last.result.wall_s;
        entry.monitor_extras = sessionExtras(last);
        if (args.timeline) {
            out() << "Interaction timeline (session " << index + 1 << "):" << Qt::endl;
            const QStringList lines = last.timeline.describeLines();
            if (lines.isEmpty()) {
                out() << "  (no interactions)" << Qt::endl;
            }
            for (const QString& line : lines) {
                out() << "  " << line << Qt::endl;
            }
        }
        if (!last.result.ok) {
            document.sessions.push_back(entry);
            if (args.csv && !last.result.records.empty()) {
                try {
                    writeCsv(*args.csv, last,
                             args.chunk_slo_ms.value_or(steadyChunkDeadlineMs(target_fps)),
                             args.warmup_chunks);
                } catch (const std::exception& error) {
                    err() << "WARNING: " << QString::fromUtf8(error.what()) << Qt::endl;
                }
            }
            writePartial(last.result.error);
            if (record) {
                err() << "Partial recording kept at " << raw_path << " (" << recorder.bytesWritten()
                      << " bytes)" << Qt::endl;
            }
            err() << "ERROR: " << last.result.error << Qt::endl;
            return 1;
        }
        metrics_options.ttfc_s = last.result.ttfc_s;
        metrics_options.session_wall_s = last.result.wall_s;
        entry.metrics = computeMetrics(last.result.records, metrics_options);
        all_metrics.push_back(*entry.metrics);
        document.sessions.push_back(entry);
    }
    document.metrics = aggregateMetrics(all_metrics, target_fps);
    document.monitor = monitor;
    out() << '\n' << report::formatTextReport(document);
    out().flush();

    // Each output on its own: one that cannot be written (a full disk) must not cost the
    // others. Every failure is reported and the run exits 1.
    QStringList output_errors;
    if (!last.recorder_error.isEmpty()) {
        output_errors.append(last.recorder_error);
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
            out() << report::savedVideoLine(last.result.media_bytes + last.result.trailer_bytes,
                                            QFileInfo(*args.save_video).size(), *args.save_video)
                  << Qt::endl;
        });
    }
    if (args.csv) {
        attempt([&] {
            writeCsv(*args.csv, last,
                     document.metrics->single_session
                         ? document.metrics->single_session->chunk_deadline_ms
                         : document.metrics->chunk_deadline_ms,
                     args.warmup_chunks);
        });
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
    return output_errors.isEmpty() ? 0 : 1;
}

} // namespace

int runBenchCommand(const QStringList& arguments) {
    BenchArgs args;
    try {
        if (parseArguments(arguments, args) == ParseOutcome::Help) {
            out() << helpText();
            out().flush();
            return 0;
        }
    } catch (const ArgumentError& error) {
        err() << usageLine() << '\n' << kProgram << ": error: " << error.message << Qt::endl;
        return 2;
    }
    try {
        return runBench(args);
    } catch (const BenchError& error) {
        err() << "ERROR: " << error.message << Qt::endl;
    } catch (const session::FirstFrameError& error) {
        err() << "ERROR: " << error.message() << Qt::endl;
    } catch (const report::ReportError& error) {
        err() << "ERROR: " << error.message() << Qt::endl;
    } catch (const std::exception& error) {
        err() << "ERROR: " << QString::fromUtf8(error.what()) << Qt::endl;
    }
    return 1;
}

} // namespace lbm::cli
