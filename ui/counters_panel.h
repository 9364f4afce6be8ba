#pragma once
// The live counters, in the OBS stats-dock habit: "N / M (x%)" counts, units in every
// label, and values that breach the deadline or real time in red, near it in amber. It
// shows what it is given; the numbers come from lbm_metrics (computeMetrics and the
// LivePlaybackSimulator) and the playback clock, never from arithmetic of its own.

#include "app/playback/playback_stalls.h"
#include "metrics/live_session_metrics.h"
#include "metrics/playback_result.h"
#include "metrics/session_metrics.h"
#include "ui/counter_grid.h"

#include <QHash>
#include <QString>
#include <QWidget>

#include <optional>

class QGridLayout;
class QLabel;

namespace lbm::ui {

// The stall a session ended in: it stopped, failed or was killed while the next chunk was
// late (more than the deadline after the last) and the simulated viewer had run dry. The
// same rule for a session that just ended and a kept one reopened, so both say the same.
struct EndedStall {
    lbm::ProvisionalUnderrun underway; // the chunk awaited, how long the viewer stalled
    double waited_s = 0.0;             // how long the stream had waited for it
};
std::optional<EndedStall> endedStall(const lbm::LiveSessionMetrics& live, double wall_s);

class CountersPanel : public QWidget {
    Q_OBJECT
public:
    enum class Row {
        Chunks,
        Ttfc,
        VideoRtf,
        SteadyRtf,
        FramesPerSecond,
        SteadyInterval,
        SloAttainment,
        SimulatedUnderruns,
        SimulatedStall,
        BufferedAhead,
        ObservedStalls,
        FramesDecoded,
        Bytes,
        Bitrate,
        Connection,
        RequestId,
    };
    using Level = CounterGrid::Level;
    // The one rule for stall counts, simulated or observed: red once a viewer stalled (or is
    // stalling), amber when none did but the buffer is nearly dry, green otherwise. It holds
    // after the session ends, so a red count stays red.
    static Level stallLevel(int stalls, bool stalling_now, bool buffer_nearly_dry);

    explicit CountersPanel(QWidget* parent = nullptr);

    void reset(int expected_chunks, std::int64_t expected_frames, double deadline_ms);
    // What late and near-late values are judged against (the engine's, once a session runs).
    double deadlineMs() const { return m_deadline_ms; }
    // Everything computeMetrics says about the records so far.
    // session_ended: a figure still missing will not come ("(no steady chunk) · 4 chunks,
    // warmup 6" instead of "(no steady chunk yet)").
    void showMetrics(const lbm::SessionMetrics& metrics, bool session_ended);
    // The incremental playback simulator's prediction; nullopt before its start buffer.
    // ongoing: the underrun in progress (the simulated viewer has run dry and the next chunk
    // has not landed), shown as provisional until the seed counts it; stream_wait_s: how long
    // the stream has waited for that chunk (the banner's figure), which the row sets beside
    // the viewer's stall so the two read as parts of one story. session_ended: the session
    // ended during that stall (stopped, failed): it stays shown, cut short, so the counters
    // after the end say what they said during it.
    void showSimulatedPlayback(const std::optional<lbm::PlaybackResult>& result,
                               double buffered_ahead_s, bool stalled_now,
                               const std::optional<lbm::ProvisionalUnderrun>& ongoing = {},
                               std::optional<double> stream_wait_s = {},
                               bool session_ended = false);
    // What the player really had.
    void showObservedStalls(const lbm::playback::PlaybackStalls& stalls);
    void showFrames(std::int64_t decoded, std::int64_t expected);
    void showConnection(const QString& state, const QString& request_id);

    QString valueText(Row row) const;
    Level level(Row row) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void set(Row row, const QString& text, Level level = Level::Normal) {
        m_grid.set(static_cast<int>(row), text, level);
    }

    CounterGrid m_grid;
    int m_expected_chunks = 0;
    std::int64_t m_expected_frames = 0;
    double m_deadline_ms = 750.0;
};

} // namespace lbm::ui
