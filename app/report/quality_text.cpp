#include "app/report/quality_text.h"

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
        return QStringLiteral("  blur (sharpness < %1 x reference):")
            .arg(formatFixed(t.blur_ratio, 2));
    case QualityFlag::Tint:
        return QStringLiteral("  tint (chroma drift >= %1):").arg(formatFixed(t.tint_drift, 1));
    case QualityFlag::Transition:
        return QStringLiteral("  transition (lands off its K chunks):");
    }
    return {};
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
        if (chunk.seam_score && !chunk.in_transition &&
            (worst_seam == nullptr || *chunk.seam_score > *worst_seam->seam_score)) {
            worst_seam = &chunk;
        }
        if (chunk.frozen_frames > 0 &&
            (longest_freeze == nullptr || chunk.frozen_frames > longest_freeze->frozen_frames)) {
            longest_freeze = &chunk;
        }
        if (chunk.frame_count > 0 && !chunk.in_transition &&
            (least_sharp == nullptr || chunk.sharpness_ratio < least_sharp->sharpness_ratio)) {
            least_sharp = &chunk;
        }
        if (chunk.frame_count > 0 && !chunk.in_transition &&
            (most_drift == nullptr || chunk.chroma_drift > most_drift->chroma_drift)) {
            most_drift = &chunk;
        }
        for (const quality::TransitionCheck& check : chunk.transitions) {
            ++transitions;
            on_time += check.verdict == quality::TransitionVerdict::OnTime ? 1 : 0;
        }
    }
    // Outside prompt transitions: inside them a jump, a softer or recoloured look is the point.
    const QString none = QStringLiteral("none");
    appendLine(text, reportRow(QStringLiteral("Worst seam score (outside transitions):"),
                               worst_seam ? atChunk(formatFixed(*worst_seam->seam_score, 2),
                                                    worst_seam->generation_index)
                                          : none));
    appendLine(text,
               reportRow(QStringLiteral("Longest run of repeated frames:"),
                         longest_freeze ? atChunk(QString::number(longest_freeze->frozen_frames),
                                                  longest_freeze->generation_index)
                                        : none));
    appendLine(text, reportRow(QStringLiteral("Lowest sharpness vs reference:"),
                               least_sharp ? atChunk(formatFixed(least_sharp->sharpness_ratio, 2) +
                                                         QStringLiteral("x"),
                                                     least_sharp->generation_index)
                                           : none));
    appendLine(text, reportRow(QStringLiteral("Largest chroma drift vs reference:"),
                               most_drift ? atChunk(formatFixed(most_drift->chroma_drift, 2),
                                                    most_drift->generation_index)
                                          : none));
    appendLine(text, reportRow(QStringLiteral("Prompt transitions on time:"),
                               QStringLiteral("%1 of %2").arg(on_time).arg(transitions)));
}

QString optionalField(const std::optional<double>& value) {
    return value ? formatFixed(*value, 3) : QString();
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
    const QStringList headers = {QStringLiteral("quality_flags"),   QStringLiteral("change_median"),
                                 QStringLiteral("boundary_change"), QStringLiteral("seam_score"),
                                 QStringLiteral("frozen_frames"),   QStringLiteral("sharpness"),
                                 QStringLiteral("sharpness_ratio"), QStringLiteral("chroma_drift")};
    std::vector<QStringList> columns(static_cast<size_t>(headers.size()));
    for (const lbm::ChunkRecord& record : table.records()) {
        const auto found = by_index.find(record.index);
        const ChunkQuality* chunk = found == by_index.end() ? nullptr : found->second;
        const QStringList fields = chunk == nullptr
                                       ? QStringList(headers.size(), QString())
                                       : QStringList{chunk->flagsText(),
                                                     formatFixed(chunk->change_median, 3),
                                                     optionalField(chunk->boundary_change),
                                                     optionalField(chunk->seam_score),
                                                     QString::number(chunk->frozen_frames),
                                                     formatFixed(chunk->sharpness, 3),
                                                     formatFixed(chunk->sharpness_ratio, 3),
                                                     formatFixed(chunk->chroma_drift, 3)};
        for (qsizetype i = 0; i < headers.size(); ++i) {
            columns[static_cast<size_t>(i)].append(fields.at(i));
        }
    }
    for (qsizetype i = 0; i < headers.size(); ++i) {
        table.addColumn(headers.at(i), columns[static_cast<size_t>(i)]);
    }
}

} // namespace lbm::report
