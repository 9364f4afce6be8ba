#pragma once
// Judges whether each prompt transition visibly lands where its K chunks say it should.
// Fed one chunk at a time in generation order with the chunk's context and its look (mean Y,
// U, V over its last latent frame), it follows every transition from the chunk before it
// started: the look's progress along the total change, pre -> target, must reach all but
// QualityThresholds::transition_step_tolerance of one step in the K-th chunk, not before and
// not after. The target is the look of the chunk after the last one (so a transition still
// moving there lands late); a transition interrupted by a newer prompt is not judged.

#include "app/quality/chunk_context.h"
#include "app/quality/chunk_quality.h"
#include "app/quality/quality_settings.h"

#include <array>
#include <map>
#include <optional>
#include <vector>

namespace lbm::quality {

using Look = std::array<double, 3>; // mean Y, U, V in 8-bit levels

class TransitionJudge {
public:
    explicit TransitionJudge(const QualityThresholds& thresholds);

    // One chunk, in generation order; look is nullopt for a chunk without frames. Returns
    // the transitions decided now; each belongs to the chunk of its expected_chunk.
    std::vector<TransitionCheck> observe(qint64 chunk, const ChunkContext& context,
                                         const std::optional<Look>& look);
    // The end of the stream: decides every transition that has had its K chunks, with the
    // last look as the target.
    std::vector<TransitionCheck> finish();
    // A transition expected to land in this chunk is still waiting for its judgement.
    bool awaits(qint64 chunk) const;

private:
    struct Track {
        QString event_id;
        int transition_chunks = 0;
        qint64 start_chunk = 0;
        qint64 expected_chunk = 0;
        std::optional<qint64> completed_chunk; // as the metadata reported it
        std::optional<Look> pre;               // the chunk before the start
        std::map<qint64, Look> looks;          // start_chunk onwards
    };
    // The check for a track whose looks up to last_chunk are in, against target.
    std::optional<TransitionCheck> judge(const Track& track, qint64 last_chunk,
                                         const Look& target) const;

    QualityThresholds m_thresholds;
    std::map<QString, Track> m_tracks; // by event id, until judged
    std::optional<Look> m_last_look;
    qint64 m_last_chunk = -1;
};

} // namespace lbm::quality
