#include "ui/quality_track_legend.h"

#include "ui/quality_style.h"

#include <QCoreApplication>
#include <QStringList>

namespace lbm::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("QualityTrack", text);
}

// One legend entry; its words never break apart when the legend wraps.
QString swatch(const QColor& color, const QString& glyph, const QString& text) {
    return QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
        .arg(color.name(), glyph,
             text.toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
}

} // namespace

QString qualityLegendHtml(const QualityLegendContent& c, const QPalette& pal) {
    const quality::QualityThresholds& t = c.thresholds;
    QStringList legend;
    legend << swatch(mutedColor(pal), QStringLiteral("&#9632;"),
                     tr("seam score ÷ %1").arg(t.seam_score, 0, 'f', 1))
           << swatch(blurColor(pal), QStringLiteral("&#9473;&#9473;"),
                     tr("blur: sharpness loss ÷ %1").arg(1.0 - t.blur_ratio, 0, 'f', 2))
           << swatch(tintColor(pal), QStringLiteral("&#9473;&#9473;"),
                     tr("tint: chroma drift ÷ %1 levels").arg(t.tint_drift, 0, 'f', 1));
    if (c.freeze) {
        legend << swatch(freezeColor(pal), QStringLiteral("&#9633;"),
                         tr("freeze: repeated frames ÷ %1").arg(t.freeze_min_frames));
    }
    legend << swatch(nearLimitColor(pal), QStringLiteral("&#9476;&#9476;"), tr("flag at 1×"));
    QStringList badges;
    for (const quality::QualityFlag flag : quality::allQualityFlags()) {
        badges << QStringLiteral("<span style=\"color:%1\"><b>%2</b></span>&nbsp;%3")
                      .arg(qualityFlagColor(flag, pal).name(), QString(qualityFlagLetter(flag)),
                           quality::qualityFlagName(flag));
    }
    legend << badges.join(QStringLiteral("&nbsp;&nbsp;"));
    if (c.transition) {
        legend << swatch(accentColor(pal), QStringLiteral("&#9617;"),
                         tr("prompt transition (changes expected)"));
    }
    if (c.excused_seam) {
        legend << swatch(mutedColor(pal), QStringLiteral("&#9636;"),
                         tr("hatched: seam score over the threshold but explained (camera "
                            "jump, hard cut, catching up after a freeze, the camera's own "
                            "motion), not flagged; its tooltip says which"));
    }
    if (c.prompt_marks) {
        legend << swatch(accentColor(pal), QStringLiteral("&#9650;"), tr("prompt sent"))
               << swatch(nearLimitColor(pal), QStringLiteral("&#9632;"), tr("started"))
               << swatch(onTimeColor(pal), QStringLiteral("&#9670;"), tr("completed"));
    }
    if (c.camera_marks) {
        legend << swatch(mutedColor(pal), QStringLiteral("&#9679;"), tr("camera sent"));
    }
    // Breakable between entries only.
    return legend.join(QStringLiteral("&nbsp;&nbsp; "));
}

QString qualitySummaryText(const std::vector<quality::ChunkQuality>& chunks,
                           int chunks_per_column) {
    if (chunks.empty()) {
        return tr("Visual quality: no chunk analysed yet");
    }
    const auto& flags = quality::allQualityFlags();
    std::vector<int> counts(flags.size(), 0);
    int flagged = 0;
    for (const quality::ChunkQuality& chunk : chunks) {
        flagged += chunk.flags ? 1 : 0;
        for (size_t f = 0; f < flags.size(); ++f) {
            counts[f] += chunk.flagged(flags[f]) ? 1 : 0;
        }
    }
    QStringList parts;
    for (size_t f = 0; f < flags.size(); ++f) {
        parts << QStringLiteral("%1 %2").arg(quality::qualityFlagName(flags[f])).arg(counts[f]);
    }
    QString summary = tr("Visual quality: %1 chunks analysed · %2 flagged · %3")
                          .arg(chunks.size())
                          .arg(flagged)
                          .arg(parts.join(QStringLiteral(" · ")));
    if (chunks_per_column > 1) {
        summary += tr(" · %1 chunks per column").arg(chunks_per_column);
    }
    return summary;
}

} // namespace lbm::ui
