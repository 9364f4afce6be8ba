#pragma once
// The session document: the JSON the Python benchmark writes with --output-json
// (benchmark-cli.md), as plain data, plus our additions under the one key the benchmark
// never uses, "lingbot_monitor" (top level and inside each session), so either program
// reads the other's files. Written atomically with Python's json.dumps(indent=2,
// sort_keys=True) layout.

#include "metrics/chunk_record.h"
#include "metrics/constants.h"
#include "metrics/session_metrics.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace lbm::report {

// The "benchmark" value both programs write.
inline const QString kBenchmarkName = QStringLiteral("lingbot_world_realtime");
// The key our additions live under.
inline const QString kMonitorKey = QStringLiteral("lingbot_monitor");

// "config": how the run was measured. Defaults are the benchmark's.
struct RunConfig {
    int sessions = 1;
    int warmup_sessions = 0;
    int warmup_chunks = lbm::kDefaultWarmupChunks;
    // null: the rollout's camera came from a workload file's script (see workload_file).
    std::optional<QString> camera_pattern = QStringLiteral("forward");
    std::optional<double> chunk_slo_ms; // null: one chunk of video at the target fps
    double target_fps = lbm::kDefaultFps;
    int mux_fps = lbm::kDefaultFps; // the fps label sent to the server
    int playback_buffer_chunks = 1;
    std::optional<QString> workload_file; // null: the built-in workload
};

// One measured session ("sessions"[i]).
struct SessionEntry {
    int session_index = 0;
    std::optional<QString> request_id;
    std::optional<double> video_start_ms;
    std::vector<lbm::ChunkRecord> chunks;
    // The two measurements compute_metrics takes besides the rows. Stored in the document
    // as metrics.ttfc_ms and metrics.wall_seconds (there is no other place for them), so
    // the reader fills them from there and the writer does not write them separately.
    std::optional<double> ttfc_s;
    std::optional<double> wall_s;
    // compute_metrics() as stored; nullopt when the document has none or an incomplete one
    // (the reader then adds a warning). Written when set.
    std::optional<lbm::SessionMetrics> metrics;
    // Our per-session additions (event timeline, decoded frame counts, ...), written as
    // "sessions"[i]["lingbot_monitor"]. Empty: not written.
    QJsonObject monitor_extras;
};

// "lingbot_monitor" at the top level. Absent in the benchmark's own files.
struct MonitorSection {
    QString version = QStringLiteral(LBM_VERSION); // the lingbot-monitor that wrote the file
    // False when the run stopped early (a failed or cancelled session): the document holds
    // what was received so far, and incomplete_reason says why.
    bool complete = true;
    QString incomplete_reason;
    // Free-form additions (simulator profile, settings, ...), merged into the section.
    QJsonObject extras;
};

struct SessionDocument {
    QString benchmark = kBenchmarkName;
    QString timestamp; // ISO-8601 UTC, see isoTimestampUtc()
    QString endpoint;
    QString model = QString::fromUtf8(lbm::kDefaultModel.data(),
                                      static_cast<qsizetype>(lbm::kDefaultModel.size()));
    std::optional<QString> git_revision;
    QString hostname;
    QJsonObject workload; // Workload.describe() (describeWorkload)
    RunConfig config;
    std::vector<SessionEntry> sessions;
    std::optional<lbm::AggregateMetrics> metrics; // aggregate_metrics(); written when set
    std::optional<MonitorSection> monitor;        // written when set
    // Filled by the reader only: what it tolerated (e.g. an incomplete stored metrics
    // block it ignored). Never written.
    QStringList read_warnings;
};

// The document as the JSON object the benchmark writes (plus our section).
QJsonObject toJson(const SessionDocument& document);
// Reads ours and the benchmark's documents. Unknown keys are ignored. Required: a
// "sessions" array whose entries have "chunks" rows with all five to_dict() fields, and a
// "workload" object with num_chunks, num_frames, width, height and fps. Everything else
// falls back to the benchmark's defaults; config.mux_fps falls back to workload.fps and
// config.target_fps to config.mux_fps, as the benchmark's --target-fps defaults to the fps
// it sent. Throws ReportError naming the missing field.
SessionDocument sessionDocumentFromJson(const QJsonObject& object);

// compute_metrics()'s keyword arguments for one recorded session of a run, as the benchmark
// passes them: the run's target fps, warmup, SLO and start buffer, the session's TTFC and wall.
lbm::MetricsOptions metricsOptionsFor(const RunConfig& config,
                                      const SessionEntry& session = SessionEntry{});

// A recorded session's pace for the simulator's replay:FILE profile: sessions[0].chunks'
// inter_arrival_ms (chunk 0's is the TTFC), from our documents or the Python benchmark's.
// nullopt with *error (the field or the file's problem) when the document cannot be read;
// empty when it has no chunks. Handed to sim::SimulatorConfig::read_replay.
std::optional<std::vector<double>> readReplayIntervals(const QString& path, QString* error);

// Atomic write (QSaveFile): the file is replaced only when everything was written.
// Throws ReportError with the path and the reason.
void writeSessionDocument(const SessionDocument& document, const QString& path);
// Throws ReportError: missing/unreadable file, invalid JSON (with the offset), not an
// object, missing fields.
SessionDocument readSessionDocument(const QString& path);

// Python's datetime.now(timezone.utc).isoformat() at millisecond precision:
// "2026-12-02T11:41:49.123000+00:00" ("...:49+00:00" on a whole second).
QString isoTimestampUtc(const QDateTime& time = QDateTime::currentDateTimeUtc());

} // namespace lbm::report
