#include "ui/quality_counters_panel.h"

#include "app/report/quality_text.h"
#include "ui/count_text.h"
#include "ui/quality_signals.h"
#include "ui/status_colors.h"

#include <QEvent>
#include <QFont>
#include <QFontDatabase>
#include <QGridLayout>
#include <QLabel>

namespace lbm::ui {

using quality::ChunkQuality;
using quality::QualityFlag;

namespace {

constexpr QChar kDash(0x2014);
// A list of chunk ranges longer than this is summed up as first and last.
constexpr int kMaxRangesText = 22;

} // namespace

CountersPanel::Level QualityCountersPanel::flagLevel(int flagged_chunks, bool came_near) {
    return CountersPanel::stallLevel(flagged_chunks, false, came_near);
}

QualityCountersPanel::Row QualityCountersPanel::rowOf(QualityFlag flag) {
    switch (flag) {
    case QualityFlag::Seam:
        return Row::Seam;
    case QualityFlag::Freeze:
        return Row::Freeze;
    case QualityFlag::Blur:
        return Row::Blur;
    case QualityFlag::Tint:
        return Row::Tint;
    case QualityFlag::Transition:
        return Row::Transition;
    case QualityFlag::Action:
        return Row::Action;
    }
    return Row::Seam;
}

QualityCountersPanel::QualityCountersPanel(QWidget* parent)
    : QWidget(parent)
    , m_grid(this) {
    m_grid.addSection(tr("Visual quality"));
    m_grid.addRow(static_cast<int>(Row::Analysed), tr("Chunks analysed"),
                  tr("Chunks the visual quality analysis has judged of those received, and how "
                     "many it flagged. A chunk is judged once the next chunk's first frame is "
                     "decoded (a seam shows across the boundary) or the stream ends, so the "
                     "newest waits; a session cut off leaves its last chunk unjudged"));
    m_grid.addRow(static_cast<int>(Row::Seam), tr("Seams"),
                  tr("Chunks that do not continue the last one: the change across the boundary is "
                     "seam-score times the change inside the chunks around it"));
    m_grid.addRow(static_cast<int>(Row::Freeze), tr("Freezes"),
                  tr("Chunks with a run of repeated frames"));
    m_grid.addRow(static_cast<int>(Row::Blur), tr("Blur"),
                  tr("Chunks whose last frames kept less than the threshold share of the previous "
                     "chunk's detail (corrected for the camera's zoom and a transition's course)"));
    m_grid.addRow(static_cast<int>(Row::Tint), tr("Tint"),
                  tr("Chunks whose colour moved from the previous chunk's beyond a transition's "
                     "course"));
    m_grid.addRow(static_cast<int>(Row::Transition), tr("Transitions off K"),
                  tr("Prompt transitions that landed earlier or later than their "
                     "transition_chunks, or never"));
    m_grid.addRow(static_cast<int>(Row::Action), tr("Steering off"),
                  tr("Chunks in which fewer than half of the frames move the way the camera "
                     "command in force says (the picture ignores, reverses or lags it)"));
    m_grid.addRow(static_cast<int>(Row::Sharpness), tr("Sharpness (newest)"),
                  tr("The newest chunk's sharpness against the chunk before it"));
    m_grid.addRow(static_cast<int>(Row::ColourDrift), tr("Colour drift (newest)"),
                  tr("How far the newest chunk's chroma moved from the chunk before it beyond "
                     "the expected course, in 8-bit levels"));
    m_grid.addRow(static_cast<int>(Row::Response), tr("Key response"),
                  tr("From a camera key press (or a scripted key change) to the first frame "
                     "moving the commanded way: the last one, and the median over the session"));
    changeEvent(nullptr);
    reset();
}

void QualityCountersPanel::setSettings(const quality::QualitySettings& settings) {
    m_settings = settings;
    refresh();
}

void QualityCountersPanel::reset() {
    m_chunks.clear();
    m_latest.reset();
    m_responses.clear();
    m_tallies.assign(quality::allQualityFlags().size(), Tally{});
    m_flagged_chunks = 0;
    m_near_chunks = 0;
    m_session_over = false;
    m_chunks_received = 0;
    refresh();
}

void QualityCountersPanel::setChunksReceived(qint64 received) {
    if (received != m_chunks_received) {
        m_chunks_received = received;
        refresh();
    }
}

void QualityCountersPanel::setSessionOver() {
    m_session_over = true;
    refresh();
}

QString QualityCountersPanel::responseText() const {
    if (m_session_over && !m_responses.last()) {
        return tr("no key pressed");
    }
    return m_responses.summaryText();
}

void QualityCountersPanel::setChunks(const std::vector<ChunkQuality>& chunks) {
    reset();
    for (const ChunkQuality& chunk : chunks) {
        count(chunk);
    }
    refresh();
}

void QualityCountersPanel::addChunk(const ChunkQuality& chunk) {
    count(chunk);
    refresh();
}

void QualityCountersPanel::tally(const Counted& counted, qint64 index, int sign) {
    m_flagged_chunks += counted.flags ? sign : 0;
    m_near_chunks += counted.near ? sign : 0;
    const auto& flags = quality::allQualityFlags();
    for (size_t f = 0; f < flags.size(); ++f) {
        Tally& tally = m_tallies[f];
        if (counted.near.testFlag(flags[f])) {
            tally.near_chunks += sign;
            tally.dirty = true;
        }
        if (!counted.flags.testFlag(flags[f])) {
            continue;
        }
        const auto at = std::lower_bound(tally.chunks.begin(), tally.chunks.end(), index);
        if (sign > 0) {
            tally.chunks.insert(at, index);
            if (!counted.transition_note.isEmpty()) {
                tally.note = counted.transition_note;
            }
        } else if (at != tally.chunks.end() && *at == index) {
            tally.chunks.erase(at);
        }
        tally.dirty = true;
    }
}

void QualityCountersPanel::count(const ChunkQuality& chunk) {
    Counted counted;
    counted.flags = chunk.flags;
    for (const QualityFlag flag : quality::allQualityFlags()) {
        if (nearThreshold(flag, chunk, m_settings.thresholds)) {
            counted.near |= flag;
        }
    }
    for (const quality::TransitionCheck& check : chunk.transitions) {
        if (check.verdict != quality::TransitionVerdict::OnTime) {
            counted.transition_note = QStringLiteral("%1 K=%2 %3")
                                          .arg(check.event_id)
                                          .arg(check.transition_chunks)
                                          .arg(quality::transitionVerdictName(check.verdict));
        }
    }
    // A later result for a chunk replaces its earlier one.
    const auto previous = m_chunks.find(chunk.generation_index);
    if (previous != m_chunks.end()) {
        tally(previous->second, chunk.generation_index, -1);
    } else {
        m_responses.add(chunk); // responses are final with the chunk's first final result
    }
    m_chunks[chunk.generation_index] = counted;
    tally(counted, chunk.generation_index, +1);
    if (!m_latest || chunk.generation_index >= m_latest->generation_index) {
        m_latest = chunk;
        m_latest->dropFrameSignals();
    }
}

void QualityCountersPanel::refresh() {
    const quality::QualityThresholds& t = m_settings.thresholds;
    if (m_chunks.empty()) {
        m_grid.setAll(QString(kDash));
        set(Row::Analysed, tr("none yet"), Level::Normal);
        return;
    }
    // Amber with nothing flagged means a chunk came near a threshold: say so in the text.
    const auto judged = static_cast<qint64>(m_chunks.size());
    const QString count = m_chunks_received > judged
                              ? tr("%1 of %2").arg(judged).arg(m_chunks_received)
                              : QString::number(judged);
    QString analysed = tr("%1 · %2 flagged").arg(count).arg(m_flagged_chunks);
    if (m_flagged_chunks == 0 && m_near_chunks > 0) {
        analysed += tr(" · %1 near a threshold").arg(m_near_chunks);
    }
    set(Row::Analysed, analysed, flagLevel(m_flagged_chunks, m_near_chunks > 0));

    const auto& flags = quality::allQualityFlags();
    for (size_t f = 0; f < flags.size(); ++f) {
        Tally& tally = m_tallies[f];
        if (!tally.dirty) {
            continue;
        }
        tally.dirty = false;
        const std::vector<qint64>& chunks = tally.chunks;
        QString text = QString::number(chunks.size());
        if (!chunks.empty()) {
            QString where = report::chunkRanges(chunks);
            if (where.size() > kMaxRangesText) {
                where = tr("%1 … %2").arg(chunks.front()).arg(chunks.back());
            }
            text += tr(" · chunk %1").arg(where);
            if (!tally.note.isEmpty()) {
                text += QStringLiteral(" · ") + tally.note;
            }
        } else if (tally.near_chunks > 0) {
            text += tr(" · %1 came near").arg(chunkCountText(tally.near_chunks));
        }
        set(rowOf(flags[f]), text,
            flagLevel(static_cast<int>(chunks.size()), tally.near_chunks > 0));
    }

    const ChunkQuality& latest = *m_latest;
    const auto latestLevel = [&](QualityFlag flag) {
        return latest.flagged(flag)             ? Level::Bad
               : nearThreshold(flag, latest, t) ? Level::Warning
                                                : Level::Good;
    };
    // Led by the newest chunk's own number: "1.02× chunk 14" alone read as the newest being
    // chunk 14 (it is the one compared against) while 16 chunks were analysed. The colour
    // row below is the same chunk's, and keeps to one line at 1280x720.
    // A chunk whose view held too little structure is not judged: "1.00×" there read as
    // "as sharp as before" when nothing was measured.
    if (latest.sharpness_judged) {
        set(Row::Sharpness,
            tr("chunk %1: %2× chunk %3 · flag < %4")
                .arg(latest.generation_index)
                .arg(latest.sharpness_ratio, 0, 'f', 2)
                .arg(latest.reference_chunk)
                .arg(t.blur_ratio, 0, 'f', 2),
            latestLevel(QualityFlag::Blur));
    } else {
        set(Row::Sharpness, tr("chunk %1: not judged (blank view)").arg(latest.generation_index),
            Level::Normal);
    }
    set(Row::ColourDrift,
        tr("%1 levels · flag ≥ %2")
            .arg(latest.chroma_drift, 0, 'f', 1)
            .arg(t.tint_drift, 0, 'f', 1),
        latestLevel(QualityFlag::Tint));
    set(Row::Response, responseText(), Level::Normal);
}

QString QualityCountersPanel::valueText(Row row) const {
    return m_grid.valueText(static_cast<int>(row));
}

QualityCountersPanel::Level QualityCountersPanel::level(Row row) const {
    return m_grid.level(static_cast<int>(row));
}

void QualityCountersPanel::changeEvent(QEvent* event) {
    if (event == nullptr || event->type() == QEvent::PaletteChange) {
        m_grid.restyle();
    }
    if (event) {
        QWidget::changeEvent(event);
    }
}

} // namespace lbm::ui
