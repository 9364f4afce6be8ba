#include "app/quality/quality_analyzer.h"

#include "app/quality/colour_move.h"
#include "metrics/latency_summary.h"

extern "C" {
#include <libavutil/frame.h>
}

#include <algorithm>
#include <cmath>

namespace lbm::quality {
namespace {

// The look a transition is judged by: the chunk's last latent frame (four pixel frames), the
// state the chunk reached rather than its average.
constexpr int kLookFrames = 4;

// The median (metrics' percentile at one half, as the detail tiles take it); 0 for none.
double median(std::vector<double> values) {
    return values.empty() ? 0.0 : percentile(std::move(values), 0.5);
}

QString number(double value, int decimals = 2) {
    return QString::number(value, 'f', decimals);
}

bool runsTransition(const ChunkContext& context) {
    return std::any_of(context.prompts.cbegin(), context.prompts.cend(),
                       [](const PromptInChunk& p) { return p.started || p.active; });
}

bool startsTransition(const ChunkContext& context) {
    return std::any_of(context.prompts.cbegin(), context.prompts.cend(),
                       [](const PromptInChunk& p) { return p.started; });
}

// A prompt with K = 0 starts here: the picture is meant to change at once at its first
// frame.
bool startsHardCut(const ChunkContext& context) {
    return std::any_of(
        context.prompts.cbegin(), context.prompts.cend(),
        [](const PromptInChunk& p) { return p.started && p.transition_chunks <= 0; });
}

// The change of frame i that the camera's motion does not explain; with keep_uniform, plus
// the step of its mean luma from the frame before (before_mean_y for the first frame), so a
// sudden change of brightness outside a prompt transition still counts.
std::optional<double> unexplained(const std::vector<FrameQuality>& frames, size_t i,
                                  bool keep_uniform, std::optional<double> before_mean_y) {
    const FrameQuality& frame = frames[i];
    if (!frame.unexplained_change) {
        return std::nullopt;
    }
    double value = *frame.unexplained_change;
    const std::optional<double> previous_mean =
        i > 0 ? std::optional<double>(frames[i - 1].mean_y) : before_mean_y;
    if (keep_uniform && previous_mean) {
        value += std::abs(frame.mean_y - *previous_mean);
    }
    return value;
}

// The median of unexplained() over the chunk's frames after its first whose motion was
// measured; nullopt unless it was on at least half of them.
std::optional<double> compensatedMedian(const std::vector<FrameQuality>& frames,
                                        bool keep_uniform) {
    std::vector<double> values;
    for (size_t i = 1; i < frames.size(); ++i) {
        if (frames[i].motion) {
            if (const auto value = unexplained(frames, i, keep_uniform, std::nullopt)) {
                values.push_back(*value);
            }
        }
    }
    if (frames.size() < 2 || values.size() * 2 < frames.size() - 1) {
        return std::nullopt;
    }
    return median(std::move(values));
}

// Mean of one signal over the chunk's last latent frame.
template <typename Field>
double tailMean(const std::vector<FrameQuality>& frames, Field field) {
    const size_t from = frames.size() > static_cast<size_t>(kLookFrames)
                            ? frames.size() - static_cast<size_t>(kLookFrames)
                            : 0;
    double sum = 0.0;
    for (size_t i = from; i < frames.size(); ++i) {
        sum += field(frames[i]);
    }
    return frames.size() > from ? sum / static_cast<double>(frames.size() - from) : 0.0;
}

} // namespace

QualityAnalyzer::QualityAnalyzer(const QualitySettings& settings)
    : m_settings(settings)
    , m_measurer(settings.edge_margin, settings.sample_step)
    , m_judge(settings.thresholds)
    , m_steering(settings.thresholds) {}

void QualityAnalyzer::setChunkContext(const ChunkContext& context) {
    if (m_result_index.count(context.generation_index) > 0) {
        warnOnce(QStringLiteral("The timeline context of chunk %1 came after the chunk was "
                                "analysed; give each chunk's context before its frames are "
                                "complete.")
                     .arg(context.generation_index));
        return;
    }
    PendingChunk& pending = m_pending[context.generation_index];
    pending.context = context;
    pending.complete = pending.complete || context.generation_index < m_current_chunk;
    evaluateReady();
}

void QualityAnalyzer::addFrame(const media::DecodedFrame& frame) {
    if (frame.isNull()) {
        return;
    }
    QString error;
    const std::optional<FrameMeasures> measures = m_measurer.measure(*frame.avFrame(), &error);
    if (!measures) {
        warnOnce(error);
        return;
    }
    const media::FrameTag& tag = frame.tag();
    FrameQuality quality;
    quality.global_frame_number = tag.global_frame_number;
    quality.index_in_chunk = tag.index_in_chunk;
    // Across a gap in frame numbers the change spans missing frames: not a frame-to-frame one.
    if (m_last_frame_number && tag.global_frame_number == *m_last_frame_number + 1) {
        quality.change = measures->change;
    }
    m_last_frame_number = tag.global_frame_number;
    if (quality.change) {
        quality.structural_change = measures->structural_change;
        quality.motion = measures->motion;
        quality.unexplained_change = measures->unexplained_change;
        quality.u_step = measures->u_step;
        quality.v_step = measures->v_step;
    }
    quality.frozen = quality.change && *quality.change < m_settings.thresholds.freeze_change;
    quality.sharpness = measures->sharpness;
    quality.coarse_detail = measures->coarse_detail;
    quality.tile_sharpness = measures->tile_sharpness;
    quality.tile_coarse = measures->tile_coarse;
    quality.tile_width = measures->tile_width;
    quality.tile_height = measures->tile_height;
    quality.mean_y = measures->mean_y;
    quality.mean_u = measures->mean_u;
    quality.mean_v = measures->mean_v;
    if (!tag.generationIndex()) {
        return;
    }
    const qint64 chunk = *tag.generationIndex();
    if (m_result_index.count(chunk) > 0) {
        warnOnce(QStringLiteral("A frame of chunk %1 came after the chunk was analysed; frames "
                                "must arrive in stream order.")
                     .arg(chunk));
        return;
    }
    if (chunk > m_current_chunk) {
        for (auto& [index, pending] : m_pending) {
            pending.complete = pending.complete || index < chunk;
        }
        m_current_chunk = chunk;
    }
    m_pending[chunk].frames.push_back(quality);
    evaluateReady();
}

void QualityAnalyzer::finish() {
    m_finishing = true;
    evaluateReady();
    attachTransitionChecks(m_judge.finish());
    for (ChunkQuality& chunk : m_results) {
        if (!chunk.is_final) {
            finalize(chunk);
        }
    }
}

std::vector<ChunkQuality> QualityAnalyzer::takeFinalChunks() {
    std::vector<ChunkQuality> taken;
    taken.swap(m_newly_final);
    return taken;
}

QStringList QualityAnalyzer::takeWarnings() {
    QStringList taken;
    taken.swap(m_warnings);
    return taken;
}

void QualityAnalyzer::warnOnce(const QString& message) {
    if (!m_warned.contains(message)) {
        m_warned.append(message);
        m_warnings.append(message);
    }
}

ChunkQuality* QualityAnalyzer::resultFor(qint64 index) {
    const auto found = m_result_index.find(index);
    return found == m_result_index.end() ? nullptr : &m_results[found->second];
}

void QualityAnalyzer::evaluateReady() {
    while (!m_pending.empty()) {
        const auto first = m_pending.begin();
        if (!m_finishing && (!first->second.complete || !first->second.context)) {
            return; // in generation order: a later chunk waits for this one
        }
        const qint64 index = first->first;
        const PendingChunk pending = std::move(first->second);
        m_pending.erase(first);
        ChunkContext context = pending.context.value_or(ChunkContext{});
        context.generation_index = index;

        ChunkQuality chunk = evaluate(index, pending.frames, context);
        std::optional<Look> look;
        if (!chunk.frames.empty()) {
            const int from = std::max(0, chunk.frame_count - kLookFrames);
            Look sum{0.0, 0.0, 0.0};
            for (int i = from; i < chunk.frame_count; ++i) {
                sum[0] += chunk.frames[static_cast<size_t>(i)].mean_y;
                sum[1] += chunk.frames[static_cast<size_t>(i)].mean_u;
                sum[2] += chunk.frames[static_cast<size_t>(i)].mean_v;
            }
            const double count = chunk.frame_count - from;
            look = Look{sum[0] / count, sum[1] / count, sum[2] / count};
        }
        const std::vector<TransitionCheck> checks = m_judge.observe(index, context, look);
        const bool waits = m_judge.awaits(index);
        m_result_index[index] = m_results.size();
        m_results.push_back(std::move(chunk));
        if (m_results.size() > 1) {
            releaseFrameSignals(m_results[m_results.size() - 2]);
        }
        // Earlier chunks that this one's look decided become final before it.
        attachTransitionChecks(checks);
        if (!waits) {
            finalize(m_results.back());
        }
    }
}

ChunkQuality QualityAnalyzer::evaluate(qint64 index, const std::vector<FrameQuality>& frames,
                                       const ChunkContext& context) {
    ChunkQuality chunk;
    chunk.generation_index = index;
    chunk.frames = frames;
    chunk.frame_count = static_cast<int>(frames.size());
    chunk.in_transition = runsTransition(context);
    chunk.camera_moving = context.camera_moving;
    chunk.reference_chunk = index;
    if (frames.empty()) {
        chunk.notes.append(QStringLiteral("No frames of this chunk were decoded."));
        return chunk;
    }
    std::vector<double> inside;
    double sharpness = 0.0;
    for (size_t i = 0; i < frames.size(); ++i) {
        if (i > 0 && frames[i].change) {
            inside.push_back(*frames[i].change);
        }
        sharpness += frames[i].sharpness;
        chunk.mean_y += frames[i].mean_y;
        chunk.mean_u += frames[i].mean_u;
        chunk.mean_v += frames[i].mean_v;
    }
    const double count = static_cast<double>(frames.size());
    chunk.change_median = median(std::move(inside));
    chunk.sharpness = sharpness / count;
    chunk.mean_y /= count;
    chunk.mean_u /= count;
    chunk.mean_v /= count;
    const ChunkQuality* previous = resultFor(index - 1);
    if (previous != nullptr && !previous->frames.empty() && frames.front().change &&
        frames.front().global_frame_number == previous->frames.back().global_frame_number + 1) {
        chunk.boundary_change = frames.front().change;
    }
    judgeSeam(chunk, context);
    judgeFreeze(chunk, context);
    judgeLook(chunk, context);
    m_steering.judge(chunk, context);
    return chunk;
}

void QualityAnalyzer::judgeSeam(ChunkQuality& chunk, const ChunkContext& context) const {
    // boundary_change is only set when the previous chunk was evaluated just before.
    const ChunkQuality* previous = m_results.empty() ? nullptr : &m_results.back();
    if (!chunk.boundary_change || previous == nullptr ||
        previous->generation_index != chunk.generation_index - 1) {
        return;
    }
    const QualityThresholds& limits = m_settings.thresholds;
    // With the camera's motion measured across the boundary and inside both chunks, the
    // change its motion does not explain is compared (a fast pan changes every pixel, a seam
    // changes what is there); otherwise the plain change, with a transition's uniform step
    // of brightness taken out inside one.
    // Outside a transition a sudden step of brightness is a seam too; inside one it is the
    // new look's share.
    const bool keep_uniform = !chunk.in_transition;
    const std::optional<double> compensated_here = compensatedMedian(chunk.frames, keep_uniform);
    const std::optional<double> compensated_before =
        compensatedMedian(previous->frames, keep_uniform);
    const std::optional<double> boundary_unexplained =
        previous->frames.empty()
            ? std::nullopt
            : unexplained(chunk.frames, 0, keep_uniform, previous->frames.back().mean_y);
    const bool compensated = boundary_unexplained && compensated_here && compensated_before;
    const bool unshifted =
        !compensated && chunk.in_transition && chunk.frames.front().structural_change;
    double motion = 0.0;
    double boundary = 0.0;
    if (compensated) {
        motion = std::max({limits.motion_floor, *compensated_here, *compensated_before});
        boundary = *boundary_unexplained;
    } else {
        motion = std::max({limits.motion_floor, chunk.change_median, previous->change_median});
        boundary = unshifted ? *chunk.frames.front().structural_change : *chunk.boundary_change;
    }
    chunk.seam_score = boundary / motion;
    if (*chunk.seam_score < limits.seam_score || boundary < limits.seam_min_change) {
        return;
    }
    // A seam also changes the picture more than the chunks' own motion does: a boundary
    // whose plain change is ordinary is a poor motion fit, not a jump.
    const double plain_motion =
        std::max({limits.motion_floor, chunk.change_median, previous->change_median});
    if (compensated && *chunk.boundary_change < limits.seam_plain_ratio * plain_motion) {
        chunk.notes.append(QStringLiteral("Seam score %1 beyond the camera's motion, but the "
                                          "boundary changes the picture no more than its "
                                          "motion (%2 vs %3): not a seam.")
                               .arg(number(*chunk.seam_score), number(*chunk.boundary_change),
                                    number(plain_motion)));
        return;
    }
    const QString score =
        QStringLiteral("Seam score %1 (boundary change %2%3 vs motion %4)")
            .arg(number(*chunk.seam_score), number(boundary),
                 compensated ? QStringLiteral(" beyond the camera's motion")
                 : unshifted ? QStringLiteral(" besides the transition's uniform step")
                             : QString(),
                 number(motion));
    if (context.camera_jump) {
        chunk.notes.append(score + QStringLiteral(" at a camera jump: expected."));
    } else if (startsHardCut(context)) {
        chunk.notes.append(score + QStringLiteral(" at a hard cut (K=0): expected."));
    } else if (previous->flagged(QualityFlag::Freeze) && previous->frames.back().frozen) {
        chunk.notes.append(score + QStringLiteral(": the picture catching up after the freeze "
                                                  "in chunk %1, reported there.")
                                       .arg(previous->generation_index));
    } else {
        chunk.flags |= QualityFlag::Seam;
        chunk.notes.append(score + (chunk.in_transition
                                        ? QStringLiteral(", inside a prompt transition.")
                                        : QStringLiteral(".")));
    }
}

void QualityAnalyzer::judgeFreeze(ChunkQuality& chunk, const ChunkContext& context) {
    const QualityThresholds& limits = m_settings.thresholds;
    int run = 0;
    for (const FrameQuality& frame : chunk.frames) {
        run = frame.frozen ? run + 1 : 0;
        chunk.frozen_frames = std::max(chunk.frozen_frames, run);
    }
    // A still camera over a still scene repeats itself without anything being wrong.
    chunk.motion_expected = context.camera_moving || m_world_change >= 2.0 * limits.freeze_change;
    if (chunk.frozen_frames >= limits.freeze_min_frames) {
        // A view with almost no structure (blank wall, open sky, blurred to mush) repeats
        // itself whether or not the world moves (docs/quality.md, Limits).
        const int structured = structuredTiles(chunk.frames);
        if (chunk.motion_expected && structured < kMinComparedTiles) {
            chunk.notes.append(QStringLiteral("%1 near-identical frames in a blank view (%2 tiles "
                                              "structured): not judged as a freeze.")
                                   .arg(chunk.frozen_frames)
                                   .arg(structured));
        } else if (chunk.motion_expected) {
            chunk.flags |= QualityFlag::Freeze;
            chunk.notes.append(
                QStringLiteral("%1 near-identical frames in a row.").arg(chunk.frozen_frames));
        } else {
            chunk.notes.append(QStringLiteral("%1 near-identical frames in a row, but the camera "
                                              "is still and the picture was not moving: not a "
                                              "freeze.")
                                   .arg(chunk.frozen_frames));
        }
        return;
    }
    // Only a picture that moved while the camera was still says the world is alive (not the
    // motion of a camera since stopped, nor a transition's change), and only in that view: a
    // look up stopped before sky and a pole read as a freeze after grass swaying at the start.
    if (context.camera_moving) {
        m_world_change = 0.0;
    } else if (!chunk.in_transition) {
        m_world_change = chunk.change_median;
    }
}

void QualityAnalyzer::judgeLook(ChunkQuality& chunk, const ChunkContext& context) {
    const QualityThresholds& limits = m_settings.thresholds;
    Neighbour here;
    here.chunk = chunk.generation_index;
    // Fine detail relative to coarse structure: a blur lowers it, a darker, hazier or
    // differently framed picture lowers both parts alike.
    const double coarse =
        tailMean(chunk.frames, [](const FrameQuality& f) { return f.coarse_detail; });
    here.detail =
        coarse > 0.0
            ? tailMean(chunk.frames, [](const FrameQuality& f) { return f.sharpness; }) / coarse
            : 0.0;
    here.tile_detail = tileDetail(chunk.frames, kLookFrames);
    here.mean_u = tailMean(chunk.frames, [](const FrameQuality& f) { return f.mean_u; });
    here.mean_v = tailMean(chunk.frames, [](const FrameQuality& f) { return f.mean_v; });
    const std::optional<Neighbour> before = m_neighbour;
    m_neighbour = here;
    if (!before || before->chunk != chunk.generation_index - 1 || before->detail <= 0.0 ||
        here.detail <= 0.0) {
        return; // nothing just before to compare with
    }
    if (startsHardCut(context)) {
        chunk.notes.append(QStringLiteral("A hard cut (K=0) starts here: its detail and colour "
                                          "are the next chunk's reference."));
        return;
    }
    if (chunk.flagged(QualityFlag::Seam)) {
        chunk.notes.append(QStringLiteral("Detail and colour across the seam are the seam's; "
                                          "this chunk is the next one's reference."));
        return;
    }
    const ChunkQuality* previous = resultFor(chunk.generation_index - 1);
    if (previous != nullptr && previous->flagged(QualityFlag::Freeze)) {
        // The picture catches up a whole chunk of motion and look at once; that is the
        // freeze's, reported there.
        chunk.notes.append(QStringLiteral("Detail and colour after the freeze in chunk %1 are "
                                          "the next chunk's reference.")
                               .arg(previous->generation_index));
        return;
    }
    chunk.reference_chunk = before->chunk;
    // The camera's zoom over the chunk thins the detail per pixel: not a loss of detail; its
    // pan moves the content across tiles (chunkMotion).
    const ChunkMotion motion = chunkMotion(chunk.frames);
    const double zoom = motion.zoom;
    const DetailStep detail_step =
        detailStep(here.tile_detail, before->tile_detail, motion.shift_columns, motion.shift_rows);
    const double log_step = detail_step.log_step.value_or(0.0) +
                            limits.sharpness_zoom_exponent * std::log1p(std::max(-0.5, zoom));
    // A chunk whose sharpness could not be judged sets no course of its own: the next one
    // inside a transition expects the pace measured before it.
    m_neighbour->log_detail_step = detail_step.log_step ? log_step : before->log_detail_step;
    // The colour's move over the chunk on what the camera kept in view (colour_move.h).
    const ColourMove colour =
        colourMove(chunk.frames, here.mean_u - before->mean_u, here.mean_v - before->mean_v);
    m_neighbour->stepped = true;
    m_neighbour->u_step = colour.u;
    m_neighbour->v_step = colour.v;

    // The expected course: still outside transitions; inside one, the same step as the chunk
    // before (a K-chunk transition spreads its change evenly). Its first chunk sets the pace,
    // so its colour is judged from the next chunk on (a tint keeps growing, so it shows there).
    const bool continues_transition = chunk.in_transition && !startsTransition(context);
    const double expected_log = continues_transition ? before->log_detail_step : 0.0;
    // A transition's first chunk is judged against no change of detail: a new prompt may
    // recolour the picture, but losing detail at once is a blur (and a blur cannot wait for
    // the next chunk: once the fine detail is gone, more blur hardly lowers the measure).
    if (!detail_step.log_step) {
        chunk.notes.append(QStringLiteral("Sharpness not judged: only %1 of %2 tiles show "
                                          "structure in both this chunk and chunk %3 (a blank "
                                          "wall or open sky fills the view).")
                               .arg(detail_step.tiles)
                               .arg(static_cast<int>(here.tile_detail.size()))
                               .arg(before->chunk));
    }
    chunk.sharpness_judged = detail_step.log_step.has_value();
    chunk.sharpness_ratio = detail_step.log_step ? std::exp(log_step - expected_log) : 1.0;
    if (chunk.sharpness_ratio < limits.blur_ratio) {
        chunk.flags |= QualityFlag::Blur;
        chunk.notes.append(QStringLiteral("Sharpness %1x chunk %2's%3 (zoom %4 % corrected)%5.")
                               .arg(number(chunk.sharpness_ratio))
                               .arg(before->chunk)
                               .arg(continues_transition ? QStringLiteral(" course") : QString())
                               .arg(number(100.0 * zoom, 1))
                               .arg(chunk.in_transition
                                        ? QStringLiteral(", inside a prompt transition")
                                        : QString()));
    }
    if (chunk.in_transition && !continues_transition) {
        chunk.chroma_drift = 0.0;
        return;
    }
    if (chunk.flagged(QualityFlag::Freeze)) {
        // The repeated picture keeps its first frame's colour, off any transition's course.
        chunk.notes.append(QStringLiteral("The colour of the frozen picture is not judged."));
        return;
    }
    // A view without structure of its own (open sky, a blank wall) changes colour as the view
    // moves across it in ways the motion cannot follow (12 of 24 clean sessions of
    // scripts/steering_sweep.py read a tint there). A blur takes structure a chunk at a time
    // and leaves the scene's colours: after one, such a view may be the blur's doing.
    m_blurred = m_blurred || chunk.flagged(QualityFlag::Blur);
    if (!detail_step.log_step && !m_blurred) {
        chunk.notes.append(QStringLiteral("Colour not judged either: open sky or a blank wall "
                                          "changes colour as the view moves across it."));
        m_neighbour->stepped = false;
        return;
    }
    if (continues_transition && !before->stepped) {
        // The chunk before set no course (a seam, a freeze or a cut reset the reference).
        chunk.notes.append(QStringLiteral("The colour's course is set by this chunk: not "
                                          "judged."));
        return;
    }
    const double expected_u = continues_transition ? before->u_step : 0.0;
    const double expected_v = continues_transition ? before->v_step : 0.0;
    chunk.chroma_drift =
        std::hypot(m_neighbour->u_step - expected_u, m_neighbour->v_step - expected_v);
    if (chunk.chroma_drift >= limits.tint_drift) {
        chunk.flags |= QualityFlag::Tint;
        chunk.notes.append(QStringLiteral("Chroma moved %1 from chunk %2's%3.")
                               .arg(number(chunk.chroma_drift))
                               .arg(before->chunk)
                               .arg(continues_transition
                                        ? QStringLiteral(" course inside a prompt transition")
                                        : QString()));
    }
}

void QualityAnalyzer::attachTransitionChecks(const std::vector<TransitionCheck>& checks) {
    for (const TransitionCheck& check : checks) {
        ChunkQuality* chunk = resultFor(check.expected_chunk);
        if (chunk == nullptr) {
            continue; // the chunk it should have landed in never arrived
        }
        chunk->transitions.push_back(check);
        bool seam_inside = false;
        for (qint64 i = check.start_chunk; i <= check.expected_chunk + 1; ++i) {
            const ChunkQuality* inside = resultFor(i);
            seam_inside = seam_inside || (inside != nullptr && inside->flagged(QualityFlag::Seam));
        }
        if (check.verdict != TransitionVerdict::OnTime && seam_inside) {
            // The look the transition is followed by jumped with the view at the seam.
            chunk->notes.append(QStringLiteral("Prompt %1 (K=%2) not judged: a seam inside it "
                                               "moved the picture's look.")
                                    .arg(check.event_id)
                                    .arg(check.transition_chunks));
        } else if (check.verdict == TransitionVerdict::Late &&
                   chunk->flagged(QualityFlag::Freeze)) {
            // A frozen chunk holds the look it started with: the transition it should have
            // finished lands in the next chunk, and the freeze is the defect reported.
            chunk->notes.append(QStringLiteral("Prompt %1 (K=%2) landed a chunk late, held back "
                                               "by the freeze.")
                                    .arg(check.event_id)
                                    .arg(check.transition_chunks));
        } else if (check.verdict != TransitionVerdict::OnTime) {
            chunk->flags |= QualityFlag::Transition;
            const QString head = QStringLiteral("Prompt %1 (K=%2, from chunk %3)")
                                     .arg(check.event_id)
                                     .arg(check.transition_chunks)
                                     .arg(check.start_chunk);
            chunk->notes.append(
                check.landed_chunk
                    ? head + QStringLiteral(" landed in chunk %1, expected in chunk %2 (%3).")
                                 .arg(*check.landed_chunk)
                                 .arg(check.expected_chunk)
                                 .arg(transitionVerdictName(check.verdict))
                    : head + QStringLiteral(" never visibly changed the picture."));
        }
        if (!chunk->is_final && !m_judge.awaits(chunk->generation_index)) {
            finalize(*chunk);
        }
    }
}

void QualityAnalyzer::finalize(ChunkQuality& chunk) {
    chunk.is_final = true;
    m_newly_final.push_back(chunk);
    releaseFrameSignals(chunk);
}

void QualityAnalyzer::releaseFrameSignals(ChunkQuality& chunk) const {
    if (chunk.is_final && &chunk != &m_results.back()) {
        chunk.dropFrameSignals();
    }
}

} // namespace lbm::quality
