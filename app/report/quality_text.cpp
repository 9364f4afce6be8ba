#include "app/report/quality_text.h"

#include "app/quality/steering_summary.h"
#include "app/report/text_report.h"

#include <QStringList>

#include <algorithm>
#include <map>

namespace lbm::report {
namespace {

using quality::ChunkQuality;
using quality::QualityFlag;

void appendLine(QString& text, const QString& line) {
    text += line;
    text += QLatin1Char('\n');
}

QString atChunk(const QString& value, qint64 chunk) {
    return value + QStringLiteral(" (chunk %1)").arg(chunk);
}

QString flagLabel(QualityFlag flag, const quality::QualityThresholds& t) {
    switch (flag) {
    case QualityFlag::Seam:
        return QStringLiteral("  seam (score >= %1):").arg(formatFixed(t.seam_score, 1));
    case QualityFlag::Freeze:
        return QStringLiteral("  freeze (>= %1 repeated frames):").arg(t.freeze_min_frames);
    case QualityFlag::Blur:
        return QStringLiteral("  blur (sharpness < %1 x chunk before):")
            .arg(formatFixed(t.blur_ratio, 2));
    case QualityFlag::Tint:
        return QStringLiteral("  tint (chroma moves >= %1 levels):")
            .arg(formatFixed(t.tint_drift, 1));
    case QualityFlag::Transition:
        return QStringLiteral("  transition (lands off its K chunks):");
    case QualityFlag::Action:
        return QStringLiteral("  action (< %1 % of frames follow camera):")
            .arg(formatFixed(100.0 * t.following_min_share, 0));
    }
    return {};
}

// The steering lines: how fast and how faithfully the picture followed the camera.
void appendSteering(QString& text, const std::vector<ChunkQuality>& chunks) {
    quality::SteeringSummary steering;
    for (const ChunkQuality& chunk : chunks) {
        steering.add(chunk);
    }
    const auto ms = [](const std::optional<double>& value) {
        return value ? formatFixed(*value, 0) + QStringLiteral(" ms") : QStringLiteral("n/a");
    };
    const auto count = [](const std::optional<double>& value) {
        return value ? formatFixed(*value, 1) : QStringLiteral("n/a");
    };
    const size_t answered = steering.responses().size();
    appendLine(text,
               reportRow(QStringLiteral("Camera commands answered:"), QString::number(answered)));
    if (answered > 0) {
        appendLine(text,
                   reportRow(QStringLiteral("  Response p50 / p95:"),
                             QStringLiteral("%1 / %2 (%3 / %4 chunks)")
                                 .arg(ms(steering.percentileMs(50)), ms(steering.percentileMs(95)),
                                      count(steering.percentileChunks(50)),
                                      count(steering.percentileChunks(95)))));
    }
    const std::optional<double> following = steering.followingShare();
    appendLine(text, reportRow(QStringLiteral("Frames following the camera:"),
                               following ? formatFixed(100.0 * *following, 1) + QStringLiteral(" %")
                                         : QStringLiteral("n/a (no moving command)")));
}

void appendSession(QString& text, const SessionQuality& session) {
    const std::vector<ChunkQuality>& chunks = session.chunks;
    const auto flagged_count = std::count_if(chunks.cbegin(), chunks.cend(),
                                             [](const ChunkQuality& c) { return bool(c.flags); });
    appendLine(text, reportRow(QStringLiteral("Chunks analysed:"), QString::number(chunks.size())));
    appendLine(text, reportRow(QStringLiteral("Flagged chunks:"),
                               QStringLiteral("%1 of %2").arg(flagged_count).arg(chunks.size())));
    for (const QualityFlag flag : quality::allQualityFlags()) {
        std::vector<qint64> with_flag;
        for (const ChunkQuality& chunk : chunks) {
            if (chunk.flagged(flag)) {
                with_flag.push_back(chunk.generation_index);
            }
        }
        appendLine(text,
                   reportRow(flagLabel(flag, session.settings.thresholds), chunkRanges(with_flag)));
    }
    const ChunkQuality* worst_seam = nullptr;
    const ChunkQuality* longest_freeze = nullptr;
    const ChunkQuality* least_sharp = nullptr;
    const ChunkQuality* most_drift = nullptr;
    int transitions = 0;
    int on_time = 0;
    for (const ChunkQuality& chunk : chunks) {
        if (chunk.seam_score &&
            (worst_seam == nullptr || *chunk.seam_score > *worst_seam->seam_score)) {
            worst_seam = &chunk;
        }
        if (chunk.frozen_frames > 0 &&
            (longest_freeze == nullptr || chunk.frozen_frames > longest_freeze->frozen_frames)) {
            longest_freeze = &chunk;
        }
        if (chunk.frame_count > 0 && chunk.sharpness_judged &&
            (least_sharp == nullptr || chunk.sharpness_ratio < least_sharp->sharpness_ratio)) {
            least_sharp = &chunk;
        }
        if (chunk.frame_count > 0 &&
            (most_drift == nullptr || chunk.chroma_drift > most_drift->chroma_drift)) {
            most_drift = &chunk;
        }
        for (const quality::TransitionCheck& check : chunk.transitions) {
            ++transitions;
            on_time += check.verdict == quality::TransitionVerdict::OnTime ? 1 : 0;
        }
    }
    const QString none = QStringLiteral("none");
    QString worst_seam_text = none;
    if (worst_seam != nullptr) {
        worst_seam_text =
            atChunk(formatFixed(*worst_seam->seam_score, 2), worst_seam->generation_index);
        // A score over the threshold without the flag has a reason (a camera jump, the
        // picture catching up after a freeze): say it rather than leave it looking missed.
        if (*worst_seam->seam_score >= session.settings.thresholds.seam_score &&
            !worst_seam->flagged(QualityFlag::Seam)) {
            const auto reason =
                std::find_if(worst_seam->notes.cbegin(), worst_seam->notes.cend(),
                             [](const QString& n) { return n.startsWith(QStringLiteral("Seam")); });
            worst_seam_text +=
                reason != worst_seam->notes.cend()
                    ? QStringLiteral(", not a seam: ") + *reason
                    : QStringLiteral(", not a seam (boundary change under %1)")
                          .arg(formatFixed(session.settings.thresholds.seam_min_change, 1));
        }
    }
    appendLine(text, reportRow(QStringLiteral("Worst seam score:"), worst_seam_text));
    appendLine(text,
               reportRow(QStringLiteral("Longest run of repeated frames:"),
                         longest_freeze ? atChunk(QString::number(longest_freeze->frozen_frames),
                                                  longest_freeze->generation_index)
                                        : none));
    appendLine(text, reportRow(QStringLiteral("Lowest sharpness vs the chunk before:"),
                               least_sharp ? atChunk(formatFixed(least_sharp->sharpness_ratio, 2) +
                                                         QStringLiteral("x"),
                                                     least_sharp->generation_index)
                                           : none));
    appendLine(text, reportRow(QStringLiteral("Largest colour move vs the chunk before:"),
                               most_drift ? atChunk(formatFixed(most_drift->chroma_drift, 2),
                                                    most_drift->generation_index)
                                          : none));
    appendLine(text, reportRow(QStringLiteral("Prompt transitions on time:"),
                               QStringLiteral("%1 of %2").arg(on_time).arg(transitions)));
    appendSteering(text, chunks);
}

QString optionalField(const std::optional<double>& value) {
    return value ? formatFixed(*value, 3) : QString();
}

// The responses that came in this chunk (usually none or one), joined by ';'.
QString responseField(const ChunkQuality& chunk, bool in_ms) {
    QStringList values;
    for (const quality::SteeringResponse& response : chunk.responses) {
        if (in_ms) {
            values.append(response.response_ms ? formatFixed(*response.response_ms, 1) : QString());
        } else {
            values.append(QString::number(response.responseChunks().value_or(0)));
        }
    }
    return values.join(QLatin1Char(';'));
}

} // namespace

QString chunkRanges(const std::vector<qint64>& chunks) {
    if (chunks.empty()) {
        return QStringLiteral("none");
    }
    QStringList parts;
    size_t start = 0;
    for (size_t i = 1; i <= chunks.size(); ++i) {
        if (i == chunks.size() || chunks[i] != chunks[i - 1] + 1) {
            parts.append(i - 1 == start
                             ? QString::number(chunks[start])
                             : QStringLiteral("%1-%2").arg(chunks[start]).arg(chunks[i - 1]));
            start = i;
        }
    }
    return parts.join(QStringLiteral(", "));
}

QString formatQualitySection(const std::vector<std::pair<int, SessionQuality>>& sessions) {
    if (sessions.empty()) {
        return {};
    }
    QString text;
    appendLine(text, reportRuler(QStringLiteral(" Visual quality "), QLatin1Char('=')));
    for (const auto& [index, session] : sessions) {
        if (sessions.size() > 1) {
            appendLine(text,
                       reportRuler(QStringLiteral(" Session %1 ").arg(index), QLatin1Char('-')));
        }
        appendSession(text, session);
    }
    appendLine(text, QString(60, QLatin1Char('=')));
    return text;
}

QString formatQualitySection(const SessionDocument& document) {
    std::vector<std::pair<int, SessionQuality>> sessions;
    for (size_t i = 0; i < document.sessions.size(); ++i) {
        const SessionEntry& entry = document.sessions[i];
        if (auto analysis = sessionQuality(entry, QStringLiteral("sessions[%1]").arg(i))) {
            sessions.emplace_back(entry.session_index, std::move(*analysis));
        }
    }
    return formatQualitySection(sessions);
}

void addQualityColumns(ChunkCsvTable& table, const std::vector<quality::ChunkQuality>& chunks) {
    std::map<qint64, const ChunkQuality*> by_index;
    for (const ChunkQuality& chunk : chunks) {
        by_index[chunk.generation_index] = &chunk;
    }
    const QStringList headers = {QStringLiteral("quality_flags"), QStringLiteral("change_median"),
                                 QStringLiteral("boundary_change"), QStringLiteral("seam_score"),
                                 QStringLiteral("frozen_frames"), QStringLiteral("sharpness"),
                                 QStringLiteral("sharpness_ratio"), QStringLiteral("chroma_drift"),
                                 // Steering: the command in force, the measured motion, the
                                 // share following it, and the responses that came here.
                                 QStringLiteral("steering_keys"), QStringLiteral("motion_x_px"),
                                 QStringLiteral("motion_y_px"), QStringLiteral("motion_zoom_pct"),
                                 QStringLiteral("following"), QStringLiteral("response_ms"),
                                 QStringLiteral("response_chunks")};
    std::vector<QStringList> columns(static_cast<size_t>(headers.size()));
    for (const lbm::ChunkRecord& record : table.records()) {
        const auto found = by_index.find(record.index);
        const ChunkQuality* chunk = found == by_index.end() ? nullptr : found->second;
        const QStringList fields =
            chunk == nullptr
                ? QStringList(headers.size(), QString())
                : QStringList{chunk->flagsText(),
                              formatFixed(chunk->change_median, 3),
                              optionalField(chunk->boundary_change),
                              optionalField(chunk->seam_score),
                              QString::number(chunk->frozen_frames),
                              formatFixed(chunk->sharpness, 3),
                              chunk->sharpness_judged ? formatFixed(chunk->sharpness_ratio, 3)
                                                      : QString(),
                              formatFixed(chunk->chroma_drift, 3),
                              chunk->steering_keys,
                              optionalField(chunk->motion_x),
                              optionalField(chunk->motion_y),
                              optionalField(chunk->motion_zoom_percent),
                              optionalField(chunk->following),
                              responseField(*chunk, true),
                              responseField(*chunk, false)};
        for (qsizetype i = 0; i < headers.size(); ++i) {
            columns[static_cast<size_t>(i)].append(fields.at(i));
        }
    }
    for (qsizetype i = 0; i < headers.size(); ++i) {
        table.addColumn(headers.at(i), columns[static_cast<size_t>(i)]);
    }
}

} // namespace lbm::report
