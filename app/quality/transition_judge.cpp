#include "app/quality/transition_judge.h"

#include <algorithm>
#include <cmath>

namespace lbm::quality {
namespace {

double dot(const Look& a, const Look& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

Look minus(const Look& a, const Look& b) {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}

} // namespace

TransitionJudge::TransitionJudge(const QualityThresholds& thresholds)
    : m_thresholds(thresholds) {}

bool TransitionJudge::awaits(qint64 chunk) const {
    return std::any_of(m_tracks.cbegin(), m_tracks.cend(),
                       [chunk](const auto& entry) { return entry.second.expected_chunk == chunk; });
}

std::vector<TransitionCheck> TransitionJudge::observe(qint64 chunk, const ChunkContext& context,
                                                      const std::optional<Look>& look) {
    const bool prompt_starts = std::any_of(context.prompts.cbegin(), context.prompts.cend(),
                                           [](const PromptInChunk& p) { return p.started; });
    for (const PromptInChunk& prompt : context.prompts) {
        if (!prompt.started || prompt.event_id.isEmpty()) {
            continue;
        }
        Track track;
        track.event_id = prompt.event_id;
        track.transition_chunks = prompt.transition_chunks;
        track.start_chunk = chunk;
        track.expected_chunk = chunk + std::max(1, prompt.transition_chunks) - 1;
        if (m_last_chunk == chunk - 1) {
            track.pre = m_last_look;
        }
        m_tracks[prompt.event_id] = track;
    }
    for (const PromptInChunk& prompt : context.prompts) {
        const auto found = m_tracks.find(prompt.event_id);
        if (!prompt.completed || found == m_tracks.end()) {
            continue;
        }
        Track& track = found->second;
        // A newer prompt that starts here interrupts an older one before its K chunks: the
        // new blend starts from wherever the old one got to, so the old one cannot land.
        if (prompt_starts && !prompt.started && chunk < track.expected_chunk) {
            m_tracks.erase(found);
            continue;
        }
        track.completed_chunk = chunk;
    }

    std::vector<TransitionCheck> decided;
    for (auto it = m_tracks.begin(); it != m_tracks.end();) {
        Track& track = it->second;
        if (look && chunk >= track.start_chunk) {
            track.looks[chunk] = *look;
        }
        const qint64 last =
            std::max(track.expected_chunk, track.completed_chunk.value_or(track.expected_chunk));
        if (chunk <= last) {
            ++it;
            continue;
        }
        // The chunk after the transition's end: its look is the target, unless a newer
        // prompt already changes it (then the last chunk of this one is the target).
        std::optional<TransitionCheck> check;
        if (prompt_starts || !look) {
            const auto previous = track.looks.find(last);
            if (previous != track.looks.end()) {
                check = judge(track, last, previous->second);
            }
        } else {
            check = judge(track, chunk, *look);
        }
        if (check) {
            decided.push_back(*check);
        }
        it = m_tracks.erase(it);
    }
    m_last_chunk = chunk;
    m_last_look = look;
    return decided;
}

std::vector<TransitionCheck> TransitionJudge::finish() {
    std::vector<TransitionCheck> decided;
    for (const auto& [id, track] : m_tracks) {
        // A transition the stream ended inside never had its K chunks: nothing to judge.
        if (track.looks.empty() || track.looks.rbegin()->first < track.expected_chunk) {
            continue;
        }
        const auto& [last, target] = *track.looks.rbegin();
        if (const auto check = judge(track, last, target)) {
            decided.push_back(*check);
        }
    }
    m_tracks.clear();
    return decided;
}

std::optional<TransitionCheck> TransitionJudge::judge(const Track& track, qint64 last_chunk,
                                                      const Look& target) const {
    if (!track.pre) {
        return std::nullopt; // no look before the start to measure the change from
    }
    TransitionCheck check;
    check.event_id = track.event_id;
    check.transition_chunks = track.transition_chunks;
    check.start_chunk = track.start_chunk;
    check.expected_chunk = track.expected_chunk;
    const Look total = minus(target, *track.pre);
    const double length_squared = dot(total, total);
    if (std::sqrt(length_squared) < m_thresholds.transition_min_change) {
        check.verdict = TransitionVerdict::Never;
        return check;
    }
    const int steps = std::max(1, track.transition_chunks);
    const double landed_progress = 1.0 - m_thresholds.transition_step_tolerance / steps;
    for (const auto& [chunk, look] : track.looks) {
        if (chunk > last_chunk) {
            break;
        }
        const double progress = dot(minus(look, *track.pre), total) / length_squared;
        if (progress >= landed_progress) {
            check.landed_chunk = chunk;
            break;
        }
    }
    if (!check.landed_chunk) {
        check.verdict = TransitionVerdict::Never;
    } else if (*check.landed_chunk < check.expected_chunk) {
        check.verdict = TransitionVerdict::Early;
    } else if (*check.landed_chunk > check.expected_chunk) {
        check.verdict = TransitionVerdict::Late;
    } else {
        check.verdict = TransitionVerdict::OnTime;
    }
    return check;
}

} // namespace lbm::quality
