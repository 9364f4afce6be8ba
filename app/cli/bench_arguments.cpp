#include "app/cli/bench_arguments.h"

#include "app/protocol/endpoint_url.h"
#include "app/report/workload_json.h"
#include "app/sim/fault_spec.h"
#include "app/sim/realism.h"

#include <limits>
#include <vector>

namespace lbm::cli {
namespace {

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
        {QStringLiteral("--fault"),
         ValueType::String,
         QStringLiteral("KIND@CHUNK"),
         QStringLiteral("With --simulate: inject a fault at a media chunk, as `simulate --fault` "
                        "(e.g. stall@5, seam@6, blur@14; repeatable)."),
         {},
         true},
        {QStringLiteral("--realism"), ValueType::String, QStringLiteral("LEVEL"),
         QStringLiteral("With --simulate: grain, exposure flicker and white balance wander of "
                        "diffusion video in the simulated world: none, low or high (default "
                        "low).")},
        {QStringLiteral("--quality"), ValueType::None, QString(),
         QStringLiteral("Analyse the decoded frames' visual quality (seams, freezes, blur, colour "
                        "drift, prompt transitions): a section after the report, columns in "
                        "--csv, per-chunk signals in --output-json.")},
        {QStringLiteral("--broadcast"), ValueType::String, QStringLiteral("[ADDR:]PORT"),
         QStringLiteral("Republish the session live as LL-HLS with a viewer page for browsers "
                        "(no re-encode), on 127.0.0.1 unless ADDR is given (0.0.0.0: every "
                        "address; port 0: any free one). The viewer URL, with its access token, "
                        "is printed.")},
        {QStringLiteral("--broadcast-linger"), ValueType::Float, QStringLiteral("SECONDS"),
         QStringLiteral("With --broadcast: keep serving the finished session (as a whole-session "
                        "playlist) this long before exiting (default: 10).")},
    };
    return specs;
}

} // namespace

QString benchUsageLine() {
    QString text = QStringLiteral("usage: %1 [-h]").arg(kBenchProgram);
    const QString indent(QStringLiteral("usage: %1 ").arg(kBenchProgram).size(), QLatin1Char(' '));
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

QString benchHelpText() {
    QString text =
        benchUsageLine() +
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

namespace {

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
    else if (n == QStringLiteral("--fault"))
        args.faults.append(value);
    else if (n == QStringLiteral("--realism"))
        args.realism = value;
    else if (n == QStringLiteral("--quality"))
        args.quality = true;
    else if (n == QStringLiteral("--broadcast"))
        args.broadcast = value;
    else if (n == QStringLiteral("--broadcast-linger"))
        args.broadcast_linger_s = toFloat();
}

} // namespace

ParseOutcome parseBenchArguments(const QStringList& arguments, BenchArgs& args) {
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
    if (args.broadcast_linger_s < 0) {
        throw ArgumentError{QStringLiteral("--broadcast-linger must be non-negative.")};
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
    if (!args.faults.isEmpty() && !args.simulate_profile) {
        throw ArgumentError{QStringLiteral("argument --fault: the faults are injected by the "
                                           "built-in simulator; add --simulate [PROFILE].")};
    }
    for (const QString& fault : args.faults) {
        QString problem;
        if (!sim::FaultSpec::parse(fault, &problem)) {
            throw ArgumentError{QStringLiteral("argument --fault: %1").arg(problem)};
        }
    }
    if (args.realism) {
        if (!args.simulate_profile) {
            throw ArgumentError{QStringLiteral("argument --realism: it sets the built-in "
                                               "simulator's picture; add --simulate [PROFILE].")};
        }
        QString problem;
        if (!sim::parseRealism(*args.realism, &problem)) {
            throw ArgumentError{QStringLiteral("argument --realism: %1").arg(problem)};
        }
    }
    return ParseOutcome::Run;
}

QString benchEndpointUrl(const BenchArgs& args) {
    return args.base_url ? protocol::realtimeVideoUrl(*args.base_url)
                         : protocol::realtimeVideoUrl(args.host, args.port);
}

} // namespace lbm::cli
