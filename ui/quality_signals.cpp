#include "ui/quality_signals.h"

#include "ui/quality_style.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>

namespace lbm::ui {

using quality::ChunkQuality;
using quality::QualityFlag;
using quality::QualityThresholds;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("QualitySignals", text);
}

QString fixed(double value, int decimals) {
    return QString::number(value, 'f', decimals);
}

// What one flag is about, in its own units, against its threshold.
QString flagDetail(QualityFlag flag, const ChunkQuality& chunk, const QualityThresholds& t) {
    switch (flag) {
    case QualityFlag::Seam:
        return tr("score %1, flag at %2")
            .arg(fixed(chunk.seam_score.value_or(0.0), 1), fixed(t.seam_score, 1));
    case QualityFlag::Freeze:
        return tr("%1 repeated frames, flag at %2")
            .arg(chunk.frozen_frames)
            .arg(t.freeze_min_frames);
    case QualityFlag::Blur:
        return tr("sharpness %1 × chunk %2's, flag below %3")
            .arg(fixed(chunk.sharpness_ratio, 2))
            .arg(chunk.reference_chunk)
            .arg(fixed(t.blur_ratio, 2));
    case QualityFlag::Tint:
        return tr("chroma drift %1 levels from chunk %2, flag at %3")
            .arg(fixed(chunk.chroma_drift, 1))
            .arg(chunk.reference_chunk)
            .arg(fixed(t.tint_drift, 1));
    case QualityFlag::Transition:
        for (const quality::TransitionCheck& check : chunk.transitions) {
            if (check.verdict != quality::TransitionVerdict::OnTime) {
                return tr("%1 (K=%2) %3")
                    .arg(check.event_id)
                    .arg(check.transition_chunks)
                    .arg(quality::transitionVerdictName(check.verdict));
            }
        }
        return tr("landed off its K chunks");
    case QualityFlag::Action:
        return tr("%1 % of frames follow '%2', flag below %3 %")
            .arg(fixed(100.0 * chunk.following.value_or(0.0), 0), chunk.steering_keys)
            .arg(fixed(100.0 * t.following_min_share, 0));
    }
    return {};
}

QString checkLine(const quality::TransitionCheck& check) {
    const QString landed = check.landed_chunk ? tr("landed in chunk %1").arg(*check.landed_chunk)
                                              : tr("never visibly landed");
    return tr("transition %1 (K=%2, from chunk %3): expected by chunk %4, %5 — %6")
        .arg(check.event_id)
        .arg(check.transition_chunks)
        .arg(check.start_chunk)
        .arg(check.expected_chunk)
        .arg(landed, quality::transitionVerdictName(check.verdict));
}

} // namespace

std::optional<double> seamLevel(const ChunkQuality& chunk, const QualityThresholds& t) {
    if (!chunk.seam_score || t.seam_score <= 0) {
        return std::nullopt;
    }
    return *chunk.seam_score / t.seam_score;
}

double freezeLevel(const ChunkQuality& chunk, const QualityThresholds& t) {
    // Repeated frames under a still camera over a still scene are no defect: not drawn.
    if (!chunk.motion_expected) {
        return 0.0;
    }
    return t.freeze_min_frames > 0 ? static_cast<double>(chunk.frozen_frames) / t.freeze_min_frames
                                   : 0.0;
}

double blurLevel(const ChunkQuality& chunk, const QualityThresholds& t) {
    const double allowed_loss = 1.0 - t.blur_ratio;
    if (allowed_loss <= 0) {
        return 0.0;
    }
    return std::max(0.0, 1.0 - chunk.sharpness_ratio) / allowed_loss;
}

double tintLevel(const ChunkQuality& chunk, const QualityThresholds& t) {
    return t.tint_drift > 0 ? chunk.chroma_drift / t.tint_drift : 0.0;
}

bool nearThreshold(QualityFlag flag, const ChunkQuality& chunk, const QualityThresholds& t) {
    switch (flag) {
    case QualityFlag::Seam:
        return seamLevel(chunk, t).value_or(0.0) >= kNearThresholdShare;
    case QualityFlag::Freeze:
        return freezeLevel(chunk, t) >= kNearThresholdShare;
    case QualityFlag::Blur:
        return blurLevel(chunk, t) >= kNearThresholdShare;
    case QualityFlag::Tint:
        return tintLevel(chunk, t) >= kNearThresholdShare;
    case QualityFlag::Transition:
        return false;
    case QualityFlag::Action:
        return chunk.following && t.following_min_share > 0 &&
               *chunk.following < t.following_min_share / kNearThresholdShare;
    }
    return false;
}

QString describeChunkFlags(const ChunkQuality& chunk, const QualityThresholds& t) {
    QStringList parts;
    for (const QualityFlag flag : quality::allQualityFlags()) {
        if (chunk.flagged(flag)) {
            parts << QStringLiteral("%1 (%2)").arg(quality::qualityFlagName(flag),
                                                   flagDetail(flag, chunk, t));
        }
    }
    return tr("chunk %1: %2")
        .arg(chunk.generation_index)
        .arg(parts.isEmpty() ? tr("no flag") : parts.join(QStringLiteral("; ")));
}

QString describeChunkQuality(const ChunkQuality& chunk, const QualityThresholds& t) {
    QStringList lines;
    lines << (chunk.flags ? tr("chunk %1 · flagged: %2")
                                .arg(chunk.generation_index)
                                .arg(qualityFlagNames(chunk.flags).join(QStringLiteral(", ")))
                          : tr("chunk %1 · no flag").arg(chunk.generation_index));
    if (chunk.seam_score) {
        lines << tr("seam score %1 (flag at %2)")
                     .arg(fixed(*chunk.seam_score, 2), fixed(t.seam_score, 1));
    } else {
        lines << tr("seam score: none (no boundary before this chunk)");
    }
    lines << tr("longest freeze %1 of %2 frames (flag at %3)")
                 .arg(chunk.frozen_frames)
                 .arg(chunk.frame_count)
                 .arg(t.freeze_min_frames);
    lines << (chunk.sharpness_judged ? tr("sharpness %1 × chunk %2's (flag below %3)")
                                           .arg(fixed(chunk.sharpness_ratio, 2))
                                           .arg(chunk.reference_chunk)
                                           .arg(fixed(t.blur_ratio, 2))
                                     : tr("sharpness not judged: too little structure in view"));
    lines << tr("chroma drift %1 levels from chunk %2 (flag at %3)")
                 .arg(fixed(chunk.chroma_drift, 2))
                 .arg(chunk.reference_chunk)
                 .arg(fixed(t.tint_drift, 1));
    if (chunk.in_transition) {
        lines << tr("a prompt transition runs here: seams, blur and tint are expected");
    }
    for (const quality::TransitionCheck& check : chunk.transitions) {
        lines << checkLine(check);
    }
    for (const QString& note : chunk.notes) {
        lines << note;
    }
    if (!chunk.is_final) {
        lines << tr("(provisional: the next chunk judges a transition landing here)");
    }
    return lines.join(QLatin1Char('\n'));
}

namespace {

// One colour per flag chunk raised, in report order.
QList<QColor> flagStripes(const ChunkQuality& chunk, const QPalette& palette) {
    QList<QColor> stripes;
    for (const quality::QualityFlag flag : quality::allQualityFlags()) {
        if (chunk.flags.testFlag(flag)) {
            stripes.append(qualityFlagColor(flag, palette));
        }
    }
    return stripes;
}

} // namespace

QList<ScrubMark> qualityScrubMarks(const std::vector<ChunkQuality>& chunks,
                                   const std::vector<int>& first_frame_of_chunk,
                                   const QualityThresholds& thresholds, const QPalette& palette) {
    QList<ScrubMark> marks;
    for (const ChunkQuality& chunk : chunks) {
        const auto first = firstQualityFlag(chunk.flags);
        if (!first || chunk.generation_index < 0 ||
            chunk.generation_index >= static_cast<qint64>(first_frame_of_chunk.size())) {
            continue;
        }
        ScrubMark mark;
        mark.frame = first_frame_of_chunk[static_cast<size_t>(chunk.generation_index)];
        mark.kind = ScrubMark::Kind::Flag;
        mark.span_frames = chunk.frame_count;
        mark.color = qualityFlagColor(*first, palette);
        mark.stripes = flagStripes(chunk, palette);
        mark.tooltip = describeChunkFlags(chunk, thresholds) + tr("\nclick to show this chunk");
        marks.append(mark);
    }
    return marks;
}

QList<ChunkMark> qualityChunkMarks(const std::vector<ChunkQuality>& chunks,
                                   const QualityThresholds& thresholds, const QPalette& palette) {
    QList<ChunkMark> marks;
    for (const ChunkQuality& chunk : chunks) {
        if (const auto first = firstQualityFlag(chunk.flags)) {
            ChunkMark mark;
            mark.chunk = chunk.generation_index;
            mark.kind = ScrubMark::Kind::Flag;
            mark.tooltip = describeChunkFlags(chunk, thresholds) + tr("\nclick to show this chunk");
            mark.color = qualityFlagColor(*first, palette);
            mark.stripes = flagStripes(chunk, palette);
            marks.append(mark);
        }
    }
    return marks;
}

} // namespace lbm::ui
