#include "app/quality/steering_judge.h"

#include "app/quality/detail_tiles.h"

#include <algorithm>

namespace lbm::quality {
namespace {

QString number(double value, int decimals = 2) {
    return QString::number(value, 'f', decimals);
}

QString keysText(const SteeringCommand& command) {
    return command.keys.isEmpty() ? QStringLiteral("the camera command")
                                  : QStringLiteral("'%1'").arg(command.keys);
}

} // namespace

SteeringJudge::SteeringJudge(const QualityThresholds& thresholds)
    : m_thresholds(thresholds) {}

int SteeringJudge::agreement(const FrameMotion& motion, const SteeringCommand& command,
                             const QualityThresholds& thresholds) {
    bool follows = command.moves();
    bool opposes = false;
    const auto axis = [&](int sign, double value, double minimum) {
        if (sign == 0) {
            return;
        }
        const double along = sign * value;
        follows = follows && along >= minimum;
        opposes = opposes || along <= -minimum;
    };
    axis(command.pan_x, motion.dx, thresholds.steering_min_pan_px);
    axis(command.pan_y, motion.dy, thresholds.steering_min_pan_px);
    axis(command.zoom, motion.zoom, thresholds.steering_min_zoom);
    return opposes ? -1 : (follows ? 1 : 0);
}

void SteeringJudge::judge(ChunkQuality& chunk, const ChunkContext& context) {
    const qint64 index = chunk.generation_index;
    double sum_x = 0.0;
    double sum_y = 0.0;
    double sum_zoom = 0.0;
    int measured = 0;
    for (const FrameQuality& frame : chunk.frames) {
        if (frame.motion) {
            sum_x += frame.motion->dx;
            sum_y += frame.motion->dy;
            sum_zoom += frame.motion->zoom;
            ++measured;
        }
    }
    if (measured > 0) {
        chunk.motion_x = sum_x / measured;
        chunk.motion_y = sum_y / measured;
        chunk.motion_zoom_percent = 100.0 * sum_zoom / measured;
    }

    // Commands that start waiting for their response here: live ones sent since the last
    // chunk arrived, and a script entry that asks for a different motion than the chunk
    // before. A live command sent while an older one still waits does not replace it: the
    // server applies both in order, so the older one may still come into force first (a key
    // pressed, then released before the key's chunk was generated).
    for (const SteeringCommand& sent : context.sent_before) {
        m_send_order.insert(sent.event_id, m_next_send_order++);
        if (sent.moves()) {
            m_pending.push_back(Pending{sent, index, sent.sent_s});
        }
    }
    if (m_pending.size() > kMaxPending) {
        // Commands the server never lists as in force are never answered or retired
        // (below): keep the newest.
        m_pending.erase(m_pending.begin(),
                        m_pending.end() - static_cast<std::ptrdiff_t>(kMaxPending));
    }
    // Where the server lists the live command in force, the order of sending says which
    // waiting commands it has applied: an older one that was never in force was overtaken
    // before it could move the camera (a tap released within a chunk) and is given up now; a
    // newer one, or any while none is listed, is not applied yet, so this chunk's motion is
    // not its answer.
    const std::optional<SteeringCommand>& command = context.steering;
    std::optional<int> in_force_order;
    if (command) {
        const auto found = m_send_order.constFind(command->event_id);
        if (found != m_send_order.cend()) {
            in_force_order = found.value();
        }
    }
    const auto sendOrder = [&](const Pending& pending) {
        return m_send_order.value(pending.command.event_id, -1); // -1: a script entry
    };
    if (in_force_order) {
        for (Pending& pending : m_pending) {
            pending.was_in_force = pending.was_in_force || sendOrder(pending) == *in_force_order;
        }
        std::erase_if(m_pending, [&](const Pending& pending) {
            return !pending.was_in_force && sendOrder(pending) < *in_force_order;
        });
    }
    for (const auto& [event_id, sent_s] : context.sent_stamps) {
        for (Pending& pending : m_pending) {
            if (pending.command.event_id == event_id) {
                pending.from_s = sent_s;
            }
        }
    }
    if (command && command->event_id.startsWith(QStringLiteral("script:")) && command->moves() &&
        (!m_last_command || !m_last_command->sameMotion(*command))) {
        m_pending.clear();
        m_pending.push_back(Pending{*command, index, context.arrival_s});
    }
    m_last_command = command;

    for (int i = 0; i < static_cast<int>(chunk.frames.size()) && !m_pending.empty(); ++i) {
        const FrameQuality& frame = chunk.frames[static_cast<size_t>(i)];
        if (!frame.motion) {
            continue;
        }
        for (auto it = m_pending.begin(); it != m_pending.end();) {
            // A live command answers only once the server has applied it: a still camera's
            // noise (a frame's zoom past the threshold) before then is not its answer.
            const bool applied =
                sendOrder(*it) < 0 || (in_force_order && sendOrder(*it) <= *in_force_order);
            if (!applied || agreement(*frame.motion, it->command, m_thresholds) <= 0) {
                ++it;
                continue;
            }
            SteeringResponse response;
            response.event_id = it->command.event_id;
            response.keys = it->command.keys;
            response.command_chunk = it->command_chunk;
            response.response_chunk = index;
            response.response_frame = i;
            if (it->from_s && context.arrival_s) {
                response.response_ms = 1000.0 * (*context.arrival_s - *it->from_s);
            }
            chunk.responses.push_back(response);
            if (response.responseChunks().value_or(0) > 0) {
                chunk.notes.append(QStringLiteral("The picture first followed %1 (from chunk "
                                                  "%2) in this chunk, %3 chunk(s) later.")
                                       .arg(keysText(it->command))
                                       .arg(it->command_chunk)
                                       .arg(*response.responseChunks()));
            }
            it = m_pending.erase(it);
        }
    }

    // Commands that were in force before the one in force here had their chance: this chunk,
    // where the newer one took over, was the last in which the picture could still answer
    // them (a model a chunk late answers in it). So were script entries, once a live command
    // is in force. Their send order is forgotten with them.
    if (in_force_order) {
        std::erase_if(m_pending,
                      [&](const Pending& pending) { return sendOrder(pending) < *in_force_order; });
        m_send_order.removeIf([&](const QHash<QString, int>::iterator& entry) {
            return entry.value() < *in_force_order;
        });
    }

    if (!command) {
        return;
    }
    chunk.steering_keys = command->keys;
    chunk.steering_moves = command->moves();
    // Chunk 0 continues the client's own image (the server blends from it into the world):
    // its motion is the blend's, not the camera's.
    if (!command->moves() || index == 0) {
        return;
    }
    int following = 0;
    int opposing = 0;
    int judged = 0;
    for (const FrameQuality& frame : chunk.frames) {
        // A repeated frame does not follow anything: that is the freeze flag's to report.
        if (!frame.motion || frame.frozen) {
            continue;
        }
        ++judged;
        const int agrees = agreement(*frame.motion, *command, m_thresholds);
        following += agrees > 0 ? 1 : 0;
        opposing += agrees < 0 ? 1 : 0;
    }
    if (judged == 0) {
        chunk.notes.append(QStringLiteral("No moving frame's motion could be measured, so "
                                          "whether the picture follows %1 is unknown.")
                               .arg(keysText(*command)));
        return;
    }
    // Open sky or a blank wall moves by itself or not at all whatever the camera does: clouds
    // drift over a sky that the camera, tilted up to its limit, no longer moves across (a look
    // up held eight chunks read 'i' as ignored in each chunk after it), and the blocks of a
    // blank wall match anywhere.
    const int structured = structuredTiles(chunk.frames);
    if (structured < kMinComparedTiles) {
        chunk.notes.append(QStringLiteral("Whether the picture follows %1 is not judged: only "
                                          "%2 of %3 tiles show structure (open sky or a blank "
                                          "wall fills the view).")
                               .arg(keysText(*command))
                               .arg(structured)
                               .arg(kDetailTileColumns * kDetailTileRows));
        return;
    }
    chunk.following = static_cast<double>(following) / judged;
    if (*chunk.following >= m_thresholds.following_min_share) {
        return;
    }
    if (chunk.flagged(QualityFlag::Freeze)) {
        chunk.notes.append(QStringLiteral("The frozen picture does not follow %1: reported as "
                                          "the freeze.")
                               .arg(keysText(*command)));
        return;
    }
    chunk.flags |= QualityFlag::Action;
    const QString share = QStringLiteral("%1 of %2 frames follow %3 (motion x %4 px, y %5 px, "
                                         "zoom %6 % per frame)")
                              .arg(following)
                              .arg(judged)
                              .arg(keysText(*command), number(chunk.motion_x.value_or(0.0)),
                                   number(chunk.motion_y.value_or(0.0)),
                                   number(chunk.motion_zoom_percent.value_or(0.0)));
    chunk.notes.append(share + (opposing * 2 >= judged
                                    ? QStringLiteral(": the picture moves against the command.")
                                    : QStringLiteral(": the picture ignores or lags the "
                                                     "command.")));
}

} // namespace lbm::quality
