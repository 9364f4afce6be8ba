#pragma once
// `lingbot-monitor bench`'s command line, parsed the way the Python benchmark's argparse
// parser does: the same flags and defaults, unambiguous prefixes, the same error texts and
// checks in the same order, plus our own flags (--simulate, --save-raw, --csv, ...).

#include "app/report/workload_json.h"
#include "metrics/constants.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace lbm::cli {

inline const QString kBenchProgram = QStringLiteral("lingbot-monitor bench");

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
    // Ours: faults for the built-in simulator (--simulate only), in `simulate --fault` syntax.
    QStringList faults;
    // Ours: the built-in simulator's realism (--simulate only): none, low or high.
    std::optional<QString> realism;
    // Ours: the visual quality analysis of the decoded frames.
    bool quality = false;
    // Ours: republish the sessions as LL-HLS for browsers at [ADDR:]PORT, and keep serving the
    // finished session for this long before exiting.
    std::optional<QString> broadcast;
    double broadcast_linger_s = 10.0;
};

// An argument error: printed after the usage line, exit code 2 (argparse's behaviour).
struct ArgumentError {
    QString message;
};

enum class ParseOutcome { Run, Help };

// arguments[0] is the program name. Throws ArgumentError.
ParseOutcome parseBenchArguments(const QStringList& arguments, BenchArgs& args);
QString benchUsageLine();
QString benchHelpText();
// The endpoint the arguments name (--base-url, else --host/--port).
QString benchEndpointUrl(const BenchArgs& args);

// Python's int(): optional sign, digits, surrounding whitespace, underscores between digits.
std::optional<long long> pythonInt(const QString& text);
// Python's float(), including inf/infinity.
std::optional<double> pythonFloat(const QString& text);

} // namespace lbm::cli
