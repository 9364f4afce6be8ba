#include "ui/counters_panel.h"

#include "ui/duration_text.h"
#include "ui/status_colors.h"

#include <QEvent>
#include <QFont>
#include <QFontDatabase>
#include <QGridLayout>
#include <QLabel>

#include <algorithm>

namespace lbm::ui {

namespace {

constexpr QChar kDash(0x2014);

QString ms(double value) {
    return QStringLiteral("%1 ms").arg(value, 0, 'f', 1);
}

QString countOf(std::int64_t n, std::int64_t m) {
    if (m <= 0) {
        return QString::number(n);
    }
    return QStringLiteral("%1 / %2 (%3%)")
        .arg(n)
        .arg(m)
        .arg(100.0 * static_cast<double>(n) / static_cast<double>(m), 0, 'f', 1);
}

// "1.001 / 0.999×": RTFX to as many places as RTF, so a red RTF just past 1 does not read as a
// speed of 1.00; "×" as every other ratio in the window writes it.
QString rtfText(double rtf, double rtfx) {
    return QStringLiteral("%1 / %2×").arg(rtf, 0, 'f', 3).arg(rtfx, 0, 'f', 3);
}

// VIDEO_RTF below 1 is faster than real time; within 10% of 1 is the amber zone.
CountersPanel::Level rtfLevel(double rtf) {
    if (rtf <= 0) {
        return CountersPanel::Level::Normal;
    }
    if (rtf > 1.0) {
        return CountersPanel::Level::Bad;
    }
    return rtf > 0.9 ? CountersPanel::Level::Warning : CountersPanel::Level::Good;
}

} // namespace

std::optional<EndedStall> endedStall(const lbm::LiveSessionMetrics& live, double wall_s) {
    if (live.empty()) {
        return std::nullopt;
    }
    const double waited_s = wall_s - live.records().back().arrival_s;
    // The live model stops predicting once the session ended; the stall it was in lasted from
    // the buffer running dry to the end.
    if (waited_s * 1000.0 <= live.deadlineMs() || !live.playback().stalledAt(wall_s)) {
        return std::nullopt;
    }
    return EndedStall{{live.records().back().index + 1, wall_s - live.playback().exhaustedAt()},
                      waited_s};
}

CountersPanel::CountersPanel(QWidget* parent)
    : QWidget(parent)
    , m_grid(this) {

    m_grid.addSection(tr("Stream"));
    m_grid.addRow(static_cast<int>(Row::Chunks), tr("Chunks received"),
                  tr("Media chunks received / the rollout's count"));
    m_grid.addRow(static_cast<int>(Row::FramesDecoded), tr("Frames decoded"),
                  tr("Frames the decoder produced / the frames the metadata announced so far"));
    m_grid.addRow(static_cast<int>(Row::Bytes), tr("Bytes received"),
                  tr("Media payload bytes (trailer excluded)"));
    m_grid.addRow(static_cast<int>(Row::Bitrate), tr("Bitrate"),
                  tr("Media bytes over the session's wall time"));
    m_grid.addSection(tr("Timing"));
    m_grid.addRow(static_cast<int>(Row::Ttfc), tr("TTFC"),
                  tr("Time to first chunk: session.start sent -> chunk 0"));
    m_grid.addRow(
        static_cast<int>(Row::VideoRtf), tr("RTF / RTFX"),
        tr("Real-time factor, VIDEO_RTF in the benchmark's report: wall time / video time "
           "(below 1 is faster than real time), and its reciprocal"));
    m_grid.addRow(static_cast<int>(Row::SteadyRtf), tr("Steady RTF / RTFX"),
                  tr("The same over the steady chunks (after the warmup, without the last chunk)"));
    m_grid.addRow(static_cast<int>(Row::FramesPerSecond), tr("Frames per second"),
                  tr("Frames received per wall-clock second"));
    m_grid.addRow(static_cast<int>(Row::SteadyInterval), tr("Steady interval p50 / p99"),
                  tr("Inter-arrival latency of the steady chunks. The colour follows p99: red once "
                     "the slowest 1 % miss the deadline, although the median may be well inside"));
    m_grid.addRow(static_cast<int>(Row::SloAttainment), tr("SLO attainment"),
                  tr("Steady chunks within the deadline / steady chunks: those after the warmup, "
                     "but not the newest (the benchmark leaves the last chunk out of its steady "
                     "figures; it is judged here once the next one lands)"));
    m_grid.addSection(tr("Playback"));
    m_grid.addRow(static_cast<int>(Row::SimulatedUnderruns), tr("Underruns (simulated)"),
                  tr("The benchmark's playback simulation: stalls a viewer with this start buffer "
                     "would have, assuming each chunk plays the moment it lands. During a stall it "
                     "waits less than the stream has: its buffer played first"));
    m_grid.addRow(static_cast<int>(Row::SimulatedStall), tr("Total stall (simulated)"),
                  tr("Total stall time of the simulation and the chunk of the first underrun"));
    m_grid.addRow(static_cast<int>(Row::BufferedAhead), tr("Buffered ahead (simulated)"),
                  tr("Seconds of video ahead of the simulated playhead"));
    m_grid.addRow(static_cast<int>(Row::ObservedStalls), tr("Player stalls (observed)"),
                  tr("Stalls this window's player really had: count, total and longest. They "
                     "differ from the simulation because a chunk's last frame is delivered with "
                     "the next chunk"));
    m_grid.addSection(tr("Connection"));
    m_grid.addRow(static_cast<int>(Row::Connection), tr("State"),
                  tr("Where the session is in its life"));
    m_grid.addRow(static_cast<int>(Row::RequestId), tr("Request id"),
                  tr("video.start's request_id"), true);
    m_grid.finish();
    reset(0, 0, m_deadline_ms);
}

void CountersPanel::reset(int expected_chunks, std::int64_t expected_frames, double deadline_ms) {
    m_expected_chunks = expected_chunks;
    m_expected_frames = expected_frames;
    m_deadline_ms = deadline_ms;
    const QString none(kDash);
    m_grid.setAll(none);
    set(Row::Chunks, countOf(0, expected_chunks));
    set(Row::Connection, tr("idle"));
}

void CountersPanel::showMetrics(const lbm::SessionMetrics& metrics, bool session_ended) {
    set(Row::Chunks, countOf(metrics.chunks_received, m_expected_chunks));
    set(Row::Ttfc, metrics.ttfc_ms ? ms(*metrics.ttfc_ms) : QString(kDash));
    set(Row::VideoRtf, rtfText(metrics.video_rtf, metrics.video_rtfx), rtfLevel(metrics.video_rtf));
    if (metrics.steady_video_rtf && metrics.steady_video_rtfx) {
        set(Row::SteadyRtf, rtfText(*metrics.steady_video_rtf, *metrics.steady_video_rtfx),
            rtfLevel(*metrics.steady_video_rtf));
    } else {
        // Steady chunks come after the warmup, the last one left out (the benchmark's rule).
        set(Row::SteadyRtf, session_ended ? tr("%1 (no steady chunk) · %2 chunks, warmup %3")
                                                .arg(kDash)
                                                .arg(metrics.chunks_received)
                                                .arg(metrics.warmup_chunks)
                                          : tr("%1 (no steady chunk yet)").arg(kDash));
    }
    set(Row::FramesPerSecond, QStringLiteral("%1 fps").arg(metrics.frames_per_second, 0, 'f', 2));
    if (metrics.interval_steady) {
        const double p99 = metrics.interval_steady->p99_ms;
        const Level level = p99 > m_deadline_ms         ? Level::Bad
                            : p99 > 0.9 * m_deadline_ms ? Level::Warning
                                                        : Level::Good;
        set(Row::SteadyInterval,
            QStringLiteral("%1 / %2").arg(ms(metrics.interval_steady->median_ms), ms(p99)), level);
    } else {
        set(Row::SteadyInterval, QString(kDash));
    }
    if (metrics.slo_attainment && metrics.slo_violations) {
        const double attainment = *metrics.slo_attainment;
        const int violations = *metrics.slo_violations;
        const int steady = metrics.steady_chunks;
        const Level level = attainment >= 0.99   ? Level::Good
                            : attainment >= 0.95 ? Level::Warning
                                                 : Level::Bad;
        // "steady": the warmup chunks and the newest chunk (the seed leaves the last one out)
        // are not judged here, which is why the chart's late share (every chunk after the
        // first) can differ; the range says which chunks these are.
        const int first_steady = std::max(metrics.warmup_chunks, 1);
        const int last_steady = first_steady + steady - 1;
        // Two short parts ("6 / 9 ≤ 750 ms (66.7%)", "steady chunks 6–14"), so the value
        // wraps between them, onto two lines at 1280x720, and never inside the range.
        const QString range = steady == 1
                                  ? tr("steady chunk %1").arg(first_steady)
                                  : tr("steady chunks %1–%2").arg(first_steady).arg(last_steady);
        set(Row::SloAttainment,
            tr("%1 / %2 ≤ %3 (%4%) · %5")
                .arg(steady - violations)
                .arg(steady)
                .arg(durationText(metrics.chunk_deadline_ms))
                .arg(attainment * 100.0, 0, 'f', 1)
                .arg(range),
            level);
    } else {
        set(Row::SloAttainment,
            tr("%1 · deadline %2").arg(kDash).arg(durationText(metrics.chunk_deadline_ms)));
    }
    const double mib = static_cast<double>(metrics.total_bytes) / (1024.0 * 1024.0);
    set(Row::Bytes, QStringLiteral("%1 MiB").arg(mib, 0, 'f', 2));
    if (metrics.wall_seconds > 0) {
        const double mbps =
            static_cast<double>(metrics.total_bytes) * 8.0 / metrics.wall_seconds / 1e6;
        set(Row::Bitrate, QStringLiteral("%1 Mbit/s").arg(mbps, 0, 'f', 2));
    }
}

CountersPanel::Level CountersPanel::stallLevel(int stalls, bool stalling_now,
                                               bool buffer_nearly_dry) {
    if (stalls > 0 || stalling_now) {
        return Level::Bad;
    }
    return buffer_nearly_dry ? Level::Warning : Level::Good;
}

void CountersPanel::showSimulatedPlayback(const std::optional<lbm::PlaybackResult>& result,
                                          double buffered_ahead_s, bool stalled_now,
                                          const std::optional<lbm::ProvisionalUnderrun>& ongoing,
                                          std::optional<double> stream_wait_s, bool session_ended) {
    const bool nearly_dry = result && !stalled_now && buffered_ahead_s < 0.25;
    if (!result) {
        set(Row::SimulatedUnderruns, tr("waiting for the start buffer"));
        set(Row::SimulatedStall, QString(kDash));
    } else {
        QString underruns = QString::number(result->underrun_count);
        if (ongoing) {
            // The viewer stalls for less than the stream has waited: its buffer played first
            // (the row's tooltip says so; the column stays short). Short parts, the count
            // first, so at 1280x720 the value wraps between them ("1 + 1 in progress ·",
            // "at chunk 8 ·", "stalled 2.6 s of 3.9 s"), never inside one or after a lone "1 ·".
            underruns += tr(" + 1 %1 · at chunk %2 · stalled %3")
                             .arg(session_ended ? tr("cut short") : tr("in progress"))
                             .arg(ongoing->awaited_index)
                             .arg(durationText(ongoing->stalled_s * 1000.0));
            if (stream_wait_s) {
                underruns += tr(" of %1").arg(durationText(*stream_wait_s * 1000.0));
            }
        }
        set(Row::SimulatedUnderruns, underruns,
            stallLevel(result->underrun_count, ongoing.has_value(), nearly_dry));
        QString stall = ms(result->totalStallMs());
        if (ongoing) {
            // A part of its own: "10.6 ms + 2.6 s in progress" would break inside at 1280x720.
            stall += (session_ended ? tr(" · + %1 cut short") : tr(" · + %1 in progress"))
                         .arg(durationText(ongoing->stalled_s * 1000.0));
        }
        if (result->first_underrun_chunk) {
            stall += tr(" · first at chunk %1").arg(*result->first_underrun_chunk);
        }
        // The share of the span is the benchmark's, over finished stalls: beside a stall still
        // open it would read "<0.1%" next to "+ 2.6 s in progress", so it waits for the end of
        // the stall. A stall too short to show at one decimal still is one: "<0.1%", never
        // "0.0%" beside a red figure.
        const double percent = result->stallRatio() * 100.0;
        if (!ongoing) {
            stall += percent > 0.0 && percent < 0.05
                         ? tr(" · <0.1% of the span")
                         : tr(" · %1% of the span").arg(percent, 0, 'f', 1);
        }
        set(Row::SimulatedStall, stall,
            stallLevel(result->underrun_count, ongoing.has_value(), nearly_dry));
    }
    // After the end the simulated viewer only plays out what it holds: the figure is what it
    // held when the stream ended, said so, and no longer a warning.
    const Level level = session_ended ? Level::Normal
                        : stalled_now ? Level::Bad
                        : nearly_dry  ? Level::Warning
                                      : Level::Normal;
    const QString seconds = QStringLiteral("%1 s").arg(buffered_ahead_s, 0, 'f', 2);
    set(Row::BufferedAhead,
        stalled_now     ? tr("0.00 s (stalled)")
        : session_ended ? tr("%1 at stream end").arg(seconds)
                        : seconds,
        level);
}

void CountersPanel::showObservedStalls(const lbm::playback::PlaybackStalls& stalls) {
    set(Row::ObservedStalls,
        tr("%1 · total %2 · longest %3")
            .arg(stalls.count)
            .arg(durationText(stalls.total_s * 1000.0), durationText(stalls.longest_s * 1000.0)),
        stallLevel(stalls.count, stalls.ongoing_s > 0, false));
}

void CountersPanel::showFrames(std::int64_t decoded, std::int64_t expected) {
    set(Row::FramesDecoded, countOf(decoded, expected), Level::Normal);
}

void CountersPanel::showConnection(const QString& state, const QString& request_id) {
    set(Row::Connection, state);
    set(Row::RequestId, request_id.isEmpty() ? QString(kDash) : request_id);
}

QString CountersPanel::valueText(Row row) const {
    return m_grid.valueText(static_cast<int>(row));
}

CountersPanel::Level CountersPanel::level(Row row) const {
    return m_grid.level(static_cast<int>(row));
}

void CountersPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) {
        m_grid.restyle();
    }
    QWidget::changeEvent(event);
}

} // namespace lbm::ui
