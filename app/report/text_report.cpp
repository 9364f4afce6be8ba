#include "app/report/text_report.h"

#include "app/report/report_error.h"
#include "metrics/geometry.h"

#include <QJsonValue>

#include <algorithm>
#include <array>
#include <cstdio>

namespace lbm::report {
namespace {

constexpr int kLabelWidth = 44;
constexpr int kValueWidth = 16;
constexpr int kRulerWidth = 60;
// Under this many intervals the benchmark calls its tail percentiles descriptive only.
constexpr double kReliableTailCount = 100;

QString key(const char* name) {
    return QString::fromLatin1(name);
}

QString pair(double first, double second, int decimals, const char* unit) {
    return formatFixed(first, decimals) + QStringLiteral(" / ") + formatFixed(second, decimals) +
           QString::fromLatin1(unit);
}

void appendLine(QString& text, const QString& line) {
    text += line;
    text += QLatin1Char('\n');
}

void appendIntervalBlock(QString& text, const char* title,
                         const std::optional<lbm::LatencySummary>& summary) {
    if (!summary.has_value()) {
        return;
    }
    const lbm::LatencySummary& s = *summary;
    appendLine(text, QStringLiteral("  %1 (n=%2):")
                         .arg(QString::fromLatin1(title))
                         .arg(static_cast<long long>(s.count)));
    appendLine(text, reportRow(QStringLiteral("    mean / median:"),
                               pair(s.mean_ms, s.median_ms, 1, " ms")));
    appendLine(text,
               reportRow(QStringLiteral("    std / max:"), pair(s.std_ms, s.max_ms, 1, " ms")));
    appendLine(text, reportRow(QStringLiteral("    p90 / p95 / p99:"),
                               formatFixed(s.p90_ms, 0) + QStringLiteral(" / ") +
                                   formatFixed(s.p95_ms, 0) + QStringLiteral(" / ") +
                                   formatFixed(s.p99_ms, 0) + QStringLiteral(" ms")));
    if (s.count < kReliableTailCount) {
        appendLine(text, QStringLiteral("    NOTE: fewer than 100 intervals; tail percentiles are "
                                        "descriptive, not reliable tail estimates."));
    }
}

void appendOneSession(QString& text, const lbm::SessionMetrics& m) {
    appendLine(text, reportRuler(QStringLiteral(" Cadence "), QLatin1Char('-')));
    if (m.ttfc_ms.has_value()) {
        appendLine(text, reportRow(QStringLiteral("TTFC (session.start -> first chunk):"),
                                   formatFixed(*m.ttfc_ms, 1) + QStringLiteral(" ms")));
    }
    appendIntervalBlock(text, "All chunks", m.interval_all);
    appendIntervalBlock(text, "Steady state", m.interval_steady);

    appendLine(text, reportRuler(QStringLiteral(" Real time "), QLatin1Char('-')));
    appendLine(text, reportRow(QStringLiteral("VIDEO_RTF (wall s / video s, <1 real time):"),
                               formatFixed(m.video_rtf, 3)));
    appendLine(text, reportRow(QStringLiteral("VIDEO_RTFX (video s / wall s):"),
                               formatFixed(m.video_rtfx, 3)));
    if (m.steady_video_rtf.has_value()) {
        appendLine(text, reportRow(QStringLiteral("VIDEO_RTF steady state:"),
                                   formatFixed(*m.steady_video_rtf, 3)));
    }
    appendLine(
        text, reportRow(QStringLiteral("Frames per second:"), formatFixed(m.frames_per_second, 2)));
    appendLine(text, reportRow(QStringLiteral("Chunk deadline:"),
                               formatFixed(m.chunk_deadline_ms, 1) + QStringLiteral(" ms")));
    if (m.slo_attainment.has_value()) {
        appendLine(text,
                   reportRow(QStringLiteral("Steady chunks within deadline:"),
                             formatFixed(*m.slo_attainment * 100.0, 1) +
                                 QStringLiteral("% (%1 late)").arg(m.slo_violations.value_or(0))));
    }
    if (!m.steady_state_reached) {
        appendLine(text, QStringLiteral("  NOTE: no chunk reached the steady state; the attention "
                                        "window needs %1 chunks. Raise --num-chunks.")
                             .arg(m.warmup_chunks));
    }

    appendLine(text, reportRuler(QStringLiteral(" Playback continuity "), QLatin1Char('-')));
    appendLine(text, reportRow(QStringLiteral("Start buffer:"),
                               QStringLiteral("%1 chunk(s)").arg(m.playback_buffer_chunks)));
    appendLine(text,
               reportRow(QStringLiteral("Underruns:"), QString::number(m.playback.underrun_count)));
    appendLine(text, reportRow(QStringLiteral("Total stall:"),
                               formatFixed(m.playback.totalStallMs(), 1) + QStringLiteral(" ms")));
    appendLine(text, reportRow(QStringLiteral("Stall ratio:"),
                               formatFixed(m.playback.stallRatio() * 100.0, 2) + QLatin1Char('%')));
    if (m.playback.first_underrun_chunk.has_value()) {
        appendLine(text, reportRow(QStringLiteral("First underrun at chunk:"),
                                   QString::number(*m.playback.first_underrun_chunk)));
    }
}

void appendSeveralSessions(QString& text, const lbm::AggregateMetrics& a) {
    appendLine(text, reportRuler(QStringLiteral(" Across sessions "), QLatin1Char('-')));
    if (a.ttfc_ms_mean.has_value() && a.ttfc_ms_max.has_value()) {
        appendLine(text, reportRow(QStringLiteral("TTFC mean / max:"),
                                   pair(*a.ttfc_ms_mean, *a.ttfc_ms_max, 1, " ms")));
    }
    if (a.steady_interval_ms_mean.has_value()) {
        appendLine(text,
                   reportRow(QStringLiteral("Steady interval mean:"),
                             formatFixed(*a.steady_interval_ms_mean, 1) + QStringLiteral(" ms")));
    }
    if (a.steady_interval_ms_spread.has_value()) {
        appendLine(text,
                   reportRow(QStringLiteral("Steady interval spread:"),
                             formatFixed(*a.steady_interval_ms_spread, 1) + QStringLiteral(" ms")));
    }
    appendLine(text, reportRow(QStringLiteral("VIDEO_RTF mean (lower is better):"),
                               formatFixed(a.video_rtf_mean, 3)));
    appendLine(text, reportRow(QStringLiteral("VIDEO_RTF best / worst:"),
                               pair(a.video_rtf_best, a.video_rtf_worst, 3, "")));
    appendLine(text, reportRow(QStringLiteral("Chunk deadline:"),
                               formatFixed(a.chunk_deadline_ms, 1) + QStringLiteral(" ms")));
    appendLine(text, reportRow(QStringLiteral("Underruns (all sessions):"),
                               QString::number(a.underrun_count)));
}

qint64 workloadInteger(const SessionDocument& document, const char* name) {
    const QJsonValue value = document.workload.value(key(name));
    if (!value.isDouble()) {
        throw ReportError(QStringLiteral("The document's workload has no %1; the report needs it.")
                              .arg(key(name)));
    }
    return value.toInteger(static_cast<qint64>(value.toDouble()));
}

} // namespace

QString reportRow(const QString& label, const QString& value) {
    return label.leftJustified(kLabelWidth, QLatin1Char(' ')) +
           value.rightJustified(kValueWidth, QLatin1Char(' '));
}

QString reportRuler(const QString& title, QChar fill) {
    const qsizetype padding = kRulerWidth - title.size();
    if (padding <= 0) {
        return title;
    }
    // Format-spec centring: the odd column goes to the right.
    const qsizetype left = padding / 2;
    return QString(left, fill) + title + QString(padding - left, fill);
}

QString formatFixed(double value, int decimals) {
    std::array<char, 64> buffer{};
    const int length = std::snprintf(buffer.data(), buffer.size(), "%.*f", decimals, value);
    if (length < 0 || length >= static_cast<int>(buffer.size())) {
        // Only astronomically large values get here; %e keeps them readable.
        std::snprintf(buffer.data(), buffer.size(), "%.*e", decimals, value);
    }
    return QString::fromLatin1(buffer.data());
}

QString formatFps(double fps) {
    std::array<char, 32> buffer{};
    std::snprintf(buffer.data(), buffer.size(), "%g", fps);
    return QString::fromLatin1(buffer.data());
}

QString connectingLine(const QString& url) {
    return QStringLiteral("Connecting to ") + url;
}

QString rolloutLine(long long num_chunks, long long num_frames, double video_seconds) {
    return QStringLiteral("Rollout: %1 chunks, num_frames=%2, %3s of video")
        .arg(num_chunks)
        .arg(num_frames)
        .arg(formatFixed(video_seconds, 2));
}

QString realTimeBasisLine(double target_fps, std::optional<int> mux_fps_when_target_given) {
    QString line = QStringLiteral("Real-time basis: %1 fps -> a steady %2-frame chunk is %3 ms of "
                                  "video")
                       .arg(formatFps(target_fps))
                       .arg(lbm::pixelFramesInChunk(1))
                       .arg(formatFixed(lbm::steadyChunkDeadlineMs(target_fps), 1));
    if (mux_fps_when_target_given.has_value()) {
        line += QStringLiteral(" (mux label stays %1 fps)").arg(*mux_fps_when_target_given);
    }
    return line;
}

QString chunkProgressLine(const lbm::ChunkRecord& record) {
    std::array<char, 128> buffer{};
    std::snprintf(buffer.data(), buffer.size(),
                  "  chunk %3lld  t=%8.3fs  interval=%8.1fms  frames=%3d",
                  static_cast<long long>(record.index), record.arrival_s, record.interArrivalMs(),
                  record.num_frames);
    return QString::fromLatin1(buffer.data()) +
           QStringLiteral("  bytes=%1").arg(record.byte_length);
}

QString savedVideoLine(qint64 streamed_bytes, qint64 playback_bytes, const QString& path) {
    return QStringLiteral("Saved %1 streamed bytes -> %2 playback bytes at %3")
        .arg(streamed_bytes)
        .arg(playback_bytes)
        .arg(path);
}

QString wroteLine(const QString& path) {
    return QStringLiteral("Wrote ") + path;
}

bool leavesNoSteadyChunk(int warmup_chunks, long long num_chunks) {
    return std::max(1, warmup_chunks) >= num_chunks - 1;
}

QString noSteadyChunkWarning(int warmup_chunks, long long num_chunks) {
    return QStringLiteral("WARNING: --warmup-chunks=%1 leaves no nonterminal steady-state chunk "
                          "in a %2-chunk rollout; steady-state metrics will be empty.")
        .arg(warmup_chunks)
        .arg(num_chunks);
}

QString formatTextReport(const SessionDocument& document) {
    if (!document.metrics.has_value()) {
        throw ReportError(QStringLiteral("The document has no aggregate metrics to report."));
    }
    const lbm::AggregateMetrics& aggregate = *document.metrics;
    const RunConfig& config = document.config;
    const qint64 num_frames = workloadInteger(document, "num_frames");

    QString text;
    appendLine(text, reportRuler(QStringLiteral(" LingBot-World realtime streaming benchmark "),
                                 QLatin1Char('=')));
    appendLine(text, reportRow(QStringLiteral("Endpoint:"), document.endpoint));
    appendLine(text, reportRow(QStringLiteral("Geometry:"),
                               QStringLiteral("%1x%2")
                                   .arg(workloadInteger(document, "width"))
                                   .arg(workloadInteger(document, "height"))));
    appendLine(text, reportRow(QStringLiteral("Chunks per session:"),
                               QString::number(workloadInteger(document, "num_chunks"))));
    appendLine(text, reportRow(QStringLiteral("Sessions:"),
                               QString::number(static_cast<qsizetype>(document.sessions.size()))));
    appendLine(text, reportRow(QStringLiteral("Real-time basis:"),
                               formatFps(config.target_fps) + QStringLiteral(" fps")));
    appendLine(
        text,
        reportRow(QStringLiteral("Video seconds per session:"),
                  QStringLiteral("%1 (%2 frames)")
                      .arg(formatFixed(static_cast<double>(num_frames) / config.target_fps, 2))
                      .arg(num_frames)));
    if (config.target_fps != static_cast<double>(config.mux_fps)) {
        appendLine(text, reportRow(QStringLiteral("Mux label sent to server:"),
                                   QStringLiteral("%1 fps").arg(config.mux_fps)));
    }
    if (aggregate.single_session.has_value()) {
        appendOneSession(text, *aggregate.single_session);
    } else {
        appendSeveralSessions(text, aggregate);
    }
    appendLine(text, QString(kRulerWidth, QLatin1Char('=')));
    return text;
}

} // namespace lbm::report
