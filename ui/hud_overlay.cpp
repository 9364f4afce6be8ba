#include "ui/hud_overlay.h"

#include "ui/duration_text.h"

#include <QApplication>
#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace lbm::ui {
namespace {

// The bottom 16 of 480 rows may hold a frame-number band (the simulator's and the test
// harness's); the HUD stays above it so the picture's own data is never covered.
constexpr double kBottomBandFraction = 16.0 / 480.0;

QString flaggedPrefix() {
    return QApplication::translate("HudOverlay", "quality: ");
}

// The lines that call for attention: a stall, a quality flag.
bool isAlarmLine(const QString& line) {
    return line.contains(QLatin1String("STALLED")) || line.startsWith(flaggedPrefix());
}

// The one number that says most about a single flag.
QString flagNumber(lbm::quality::QualityFlag flag, const lbm::quality::ChunkQuality& chunk) {
    using lbm::quality::QualityFlag;
    switch (flag) {
    case QualityFlag::Seam:
        return QApplication::translate("HudOverlay", "score %1")
            .arg(chunk.seam_score.value_or(0.0), 0, 'f', 1);
    case QualityFlag::Freeze:
        return QApplication::translate("HudOverlay", "%1 frames repeated").arg(chunk.frozen_frames);
    case QualityFlag::Blur:
        return QApplication::translate("HudOverlay", "sharpness %1×")
            .arg(chunk.sharpness_ratio, 0, 'f', 2);
    case QualityFlag::Tint:
        return QApplication::translate("HudOverlay", "drift %1 levels")
            .arg(chunk.chroma_drift, 0, 'f', 1);
    case QualityFlag::Transition:
        for (const auto& check : chunk.transitions) {
            if (check.verdict != lbm::quality::TransitionVerdict::OnTime) {
                return QApplication::translate("HudOverlay", "K=%1 %2")
                    .arg(check.transition_chunks)
                    .arg(lbm::quality::transitionVerdictName(check.verdict));
            }
        }
        return {};
    case QualityFlag::Action:
        return QApplication::translate("HudOverlay", "%1 % follow '%2'")
            .arg(100.0 * chunk.following.value_or(0.0), 0, 'f', 0)
            .arg(chunk.steering_keys);
    }
    return {};
}

} // namespace

QString qualityHudLine(const lbm::quality::ChunkQuality& chunk) {
    const QStringList names = lbm::quality::qualityFlagNames(chunk.flags);
    if (names.isEmpty()) {
        return QApplication::translate("HudOverlay", "quality ok · chunk %1")
            .arg(chunk.generation_index);
    }
    QString line = flaggedPrefix() + QApplication::translate("HudOverlay", "%1 at chunk %2")
                                         .arg(names.join(QStringLiteral(", ")))
                                         .arg(chunk.generation_index);
    if (names.size() == 1) {
        const auto flag = lbm::quality::qualityFlagFromName(names.front());
        const QString number = flag ? flagNumber(*flag, chunk) : QString();
        if (!number.isEmpty()) {
            line += QStringLiteral(" (%1)").arg(number);
        }
    }
    return line;
}

QStringList composeHudLines(const HudState& state) {
    QStringList lines;
    if (state.chunk_index && state.frame_number) {
        lines << QApplication::translate("HudOverlay", "chunk %1 · frame %2 / %3")
                     .arg(*state.chunk_index)
                     .arg(*state.frame_number)
                     .arg(state.expected_frames);
    }
    if (!state.prompt.isEmpty()) {
        if (state.transition_done) {
            lines << QApplication::translate("HudOverlay", "prompt: %1").arg(state.prompt.left(48));
        } else {
            lines << QApplication::translate("HudOverlay", "prompt → %1  (%2/%3)")
                         .arg(state.prompt.left(40))
                         .arg(state.transition_step)
                         .arg(state.transition_chunks);
        }
    }
    if (!state.keys.isEmpty()) {
        lines << QApplication::translate("HudOverlay", "keys: %1 · speed %2×")
                     .arg(state.keys)
                     .arg(state.speed, 0, 'f', 1);
    }
    // This window's own player, not the benchmark's simulated viewer in the counters.
    lines << QApplication::translate("HudOverlay", "this player: %1 s buffered")
                 .arg(state.buffered_ahead_s, 0, 'f', 2);
    if (!state.quality.isEmpty()) {
        lines << state.quality;
    }
    if (state.paused) {
        lines << QApplication::translate("HudOverlay", "PAUSED");
    } else if (state.stalled_ms && state.awaited_chunk && state.late_wait_ms) {
        lines << QApplication::translate("HudOverlay", "STALLED: waiting for chunk %1 — %2")
                     .arg(*state.awaited_chunk)
                     .arg(durationText(*state.late_wait_ms));
    } else if (state.stalled_ms) {
        lines << QApplication::translate("HudOverlay", "STALLED %1")
                     .arg(durationText(*state.stalled_ms));
    } else if (state.buffering) {
        lines << QApplication::translate("HudOverlay", "buffering…");
    }
    return lines;
}

void HudOverlay::paint(QPainter& painter, const QRect& picture) const {
    if (!m_visible || m_lines.isEmpty() || picture.isEmpty()) {
        return;
    }
    QStringList lines = m_lines;
    QFont font = QApplication::font();
    font.setPixelSize(std::max(11, picture.height() / 30));
    font.setBold(true);
    const QFontMetrics metrics(font);
    if (m_compact) {
        const QString one = lines.join(QStringLiteral("  ·  "));
        if (metrics.horizontalAdvance(one) < picture.width() * 9 / 10 || lines.size() < 2) {
            lines = {one};
        } else {
            const auto half = (lines.size() + 1) / 2;
            lines = {lines.mid(0, half).join(QStringLiteral("  ·  ")),
                     lines.mid(half).join(QStringLiteral("  ·  "))};
        }
    }
    int width = 0;
    for (const QString& line : lines) {
        width = std::max(width, metrics.horizontalAdvance(line));
    }
    const int pad = metrics.height() / 2;
    const int box_height = static_cast<int>(lines.size()) * metrics.height() + pad;
    const int bottom_reserve = static_cast<int>(picture.height() * kBottomBandFraction) + pad;
    const QRect box(picture.left() + pad, picture.bottom() - bottom_reserve - box_height,
                    std::min(width + 2 * pad, picture.width() - 2 * pad), box_height);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.setFont(font);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(0, 0, 0, 150));
    painter.drawRoundedRect(box, 6, 6);
    int y = box.top() + pad / 2 + metrics.ascent();
    for (const QString& line : lines) {
        const bool alarm = isAlarmLine(line);
        painter.setPen(alarm ? QColor(0xff, 0x6b, 0x6b) : QColor(0xf0, 0xf0, 0xf0));
        painter.drawText(box.left() + pad, y, line);
        y += metrics.height();
    }
    painter.restore();
}

} // namespace lbm::ui
