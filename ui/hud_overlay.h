#pragma once
// The heads-up display over the video, in the mpv stats-overlay habit: a few lines (chunk and
// frame, the active prompt and its transition progress, keys held while steering, buffer
// ahead, stall, the visual quality of the newest analysed chunk) drawn by the video view over
// the picture each time it paints, never into the frames. HudState is what the window knows;
// composeHudLines() turns it into text.

#include "app/quality/chunk_quality.h"

#include <QRect>
#include <QString>
#include <QStringList>

#include <optional>

class QPainter;

namespace lbm::ui {

struct HudState {
    std::optional<qint64> chunk_index;
    std::optional<qint64> frame_number;
    qint64 expected_frames = 0;
    // The newest prompt that has started: its text, its transition length and how far it is.
    QString prompt;
    int transition_step = 0; // 1..transition_chunks while in progress
    int transition_chunks = 0;
    bool transition_done = false;
    // Held camera keys (upper case) and the speed factor; shown only while steering is live.
    QString keys;
    double speed = 1.0;
    double buffered_ahead_s = 0.0;
    // Set while the player waits for a frame (the stall so far) or the viewer paused.
    std::optional<double> stalled_ms;
    // The stream's wait for its next chunk, once past the deadline: while the player is
    // stalled on it the HUD says this figure, the one the banner, the title and the chart's
    // bar in flight say, not the player's own (shorter: its buffer played first).
    std::optional<qint64> awaited_chunk;
    std::optional<double> late_wait_ms;
    bool buffering = false;
    bool paused = false;
    // qualityHudLine() of the newest analysed chunk; empty: no line.
    QString quality;
};

QStringList composeHudLines(const HudState& state);
// "quality: seam at chunk 6 (score 20.6)", "quality: blur, tint at chunk 19", or
// "quality ok · chunk 5" for a clean chunk. A flagged line is drawn in the alarm colour.
QString qualityHudLine(const lbm::quality::ChunkQuality& chunk);

class HudOverlay {
public:
    void setLines(const QStringList& lines) { m_lines = lines; }
    const QStringList& lines() const { return m_lines; }
    void setVisible(bool visible) { m_visible = visible; }
    bool isVisible() const { return m_visible; }
    // Presenter mode: one line (two when one does not fit), for a projector.
    void setCompact(bool compact) { m_compact = compact; }
    bool isCompact() const { return m_compact; }

    // Draws the lines at the bottom left of picture, sized to it, above the bottom strip a
    // frame-number band may occupy.
    void paint(QPainter& painter, const QRect& picture) const;

private:
    QStringList m_lines;
    bool m_visible = true;
    bool m_compact = false;
};

} // namespace lbm::ui
