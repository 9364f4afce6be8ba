#pragma once
// The visual quality counters, in the live counters' style and with their one colour rule:
// per flag kind, how many chunks it was raised in and where (red once raised, amber when it
// never was but its signal came near the threshold in some chunk, green otherwise, so a
// finished session keeps its colours), and the newest chunk's sharpness and colour drift
// against their thresholds. It counts what the analysis reports; no signal of its own.

#include "app/quality/chunk_quality.h"
#include "app/quality/quality_settings.h"
#include "app/quality/steering_summary.h"
#include "ui/counters_panel.h"

#include <QHash>
#include <QString>
#include <QWidget>

#include <map>
#include <optional>
#include <vector>

class QGridLayout;
class QLabel;

namespace lbm::ui {

class QualityCountersPanel : public QWidget {
    Q_OBJECT
public:
    enum class Row {
        Analysed,
        Seam,
        Freeze,
        Blur,
        Tint,
        Transition,
        Action,
        Sharpness,
        ColourDrift,
        Response,
    };
    using Level = CountersPanel::Level;

    // The rule for a flag's count: CountersPanel::stallLevel's (red once raised, amber when
    // none was but the signal came near its threshold, green otherwise).
    static Level flagLevel(int flagged_chunks, bool came_near);
    // The row a flag kind is counted in.
    static Row rowOf(quality::QualityFlag flag);

    explicit QualityCountersPanel(QWidget* parent = nullptr);

    // The thresholds "near" is judged against (the analysis's own); before the chunks.
    void setSettings(const quality::QualitySettings& settings);
    // Forgets every chunk (a new session).
    void reset();
    // A chunk as it is analysed; a later result for the same chunk replaces the earlier one.
    void addChunk(const quality::ChunkQuality& chunk);
    void setChunks(const std::vector<quality::ChunkQuality>& chunks);
    // The media chunks the session has received, so "Chunks analysed" reads "7 of 8" while
    // the newest waits for its verdict, and "3 of 4" for a session that ended before it.
    void setChunksReceived(qint64 received);
    // The session is over (or a kept one is shown): rows that wait for something say it never
    // came ("no key pressed") instead of "none yet". reset() clears it.
    void setSessionOver();

    QString valueText(Row row) const;
    Level level(Row row) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Counted {
        quality::QualityFlags flags;
        quality::QualityFlags near; // kinds whose signal was near its threshold
        QString transition_note;    // "chunk-6 K=1 late" for a transition flag
    };
    // Per flag kind, kept as chunks come so a chunk costs what it changes, not the session.
    struct Tally {
        std::vector<qint64> chunks; // flagged, in order
        int near_chunks = 0;        // chunks whose signal came near the threshold
        QString note;               // the last transition verdict off its K
        bool dirty = true;          // the row's text needs rebuilding
    };
    void count(const quality::ChunkQuality& chunk);
    void tally(const Counted& counted, qint64 index, int sign);
    void refresh();
    QString responseText() const;
    void set(Row row, const QString& text, Level level) {
        m_grid.set(static_cast<int>(row), text, level);
    }

    quality::QualitySettings m_settings;
    std::map<qint64, Counted> m_chunks;
    std::vector<Tally> m_tallies; // by allQualityFlags() order
    int m_flagged_chunks = 0;
    int m_near_chunks = 0;
    bool m_session_over = false;
    qint64 m_chunks_received = 0;
    std::optional<quality::ChunkQuality> m_latest; // the newest chunk, without frames
    quality::SteeringSummary m_responses;
    CounterGrid m_grid;
};

} // namespace lbm::ui
