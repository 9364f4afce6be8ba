#pragma once
// The visual quality analysis of one session, single-threaded: decoded frames go in, in
// stream order, with each generation chunk's ChunkContext; per-chunk results come out with
// their flags (seam, freeze, blur, tint, transition). QualityWorker runs one on its own
// thread; tests and tools may use it directly.
//
// A chunk is evaluated once its frames are complete (a frame of a later chunk arrived, or
// finish()) and its context is known, in generation order, so call setChunkContext() for
// every chunk (normally from its metadata, which precedes its bytes); without contexts the
// results come at finish(). A result is final at once unless a prompt transition is expected
// to land in that chunk: that is judged from the next chunk, so the chunk waits one more.
//
// The signals (see ChunkQuality): temporal change between consecutive frames; a seam score
// per chunk boundary (the change across it relative to the change inside the chunks around
// it, so steady camera motion scores about 1; inside a prompt transition with the uniform
// step of brightness taken out, so the transition's own change is not a seam but a different
// picture is); runs of near-identical frames, a freeze when frames should move (the camera is
// told to, or the picture moved before); the sharpness and chroma of each chunk's last latent
// frame against the previous chunk's (zoom-corrected), along the expected course: no change
// outside transitions, the previous chunk's step inside one (a K-chunk transition spreads its
// change evenly); steering (SteeringJudge). A camera jump excuses a seam.

#include "app/media/decoded_frame.h"
#include "app/quality/chunk_context.h"
#include "app/quality/chunk_quality.h"
#include "app/quality/detail_tiles.h"
#include "app/quality/frame_measurer.h"
#include "app/quality/quality_settings.h"
#include "app/quality/steering_judge.h"
#include "app/quality/transition_judge.h"

#include <QStringList>

#include <array>
#include <map>
#include <optional>
#include <vector>

namespace lbm::quality {

class QualityAnalyzer {
public:
    explicit QualityAnalyzer(const QualitySettings& settings = {});

    // The chunk's timeline context; before or after its frames, but before the chunk is
    // complete for the earliest result. A context for an evaluated chunk is ignored (with a
    // warning).
    void setChunkContext(const ChunkContext& context);
    // The next decoded frame in stream order. A frame without a generation index is measured
    // (it still counts for the change to the next frame) but belongs to no chunk.
    void addFrame(const media::DecodedFrame& frame);
    // The end of the stream: every chunk is evaluated (with an empty context where none
    // came) and every result becomes final.
    void finish();

    // Every evaluated chunk so far, in generation order, final or not. A final chunk keeps
    // its per-frame signals (ChunkQuality::frames) only while it is the newest: the next
    // chunk's seam and freeze judgements read its last frame, nothing later does, and a
    // session of thousands of chunks should not hold thousands of per-frame lists.
    const std::vector<ChunkQuality>& chunks() const { return m_results; }
    // The chunks that became final since the last call, in the order they did (generation
    // order, except that a chunk held back for a transition judgement follows later ones),
    // each with its per-frame signals.
    std::vector<ChunkQuality> takeFinalChunks();
    // Problems with the input (unsupported frames, late contexts), each said once.
    QStringList takeWarnings();
    const QualitySettings& settings() const { return m_settings; }

private:
    struct PendingChunk {
        std::vector<FrameQuality> frames;
        std::optional<ChunkContext> context;
        bool complete = false;
    };
    // The last latent frame of the previous chunk, and the step it took from the one before.
    struct Neighbour {
        qint64 chunk = 0;
        double detail = 0.0; // fine detail / coarse structure (FrameQuality)
        // The same per tile of the window, from the same frames (tileDetail).
        TileDetail tile_detail{};
        double mean_u = 0.0;
        double mean_v = 0.0;
        double log_detail_step = 0.0; // zoom-corrected
        double u_step = 0.0;
        double v_step = 0.0;
        bool stepped = false; // the steps above were measured against the chunk before
    };

    void evaluateReady();
    ChunkQuality evaluate(qint64 index, const std::vector<FrameQuality>& frames,
                          const ChunkContext& context);
    void judgeSeam(ChunkQuality& chunk, const ChunkContext& context) const;
    void judgeFreeze(ChunkQuality& chunk, const ChunkContext& context);
    void judgeLook(ChunkQuality& chunk, const ChunkContext& context);
    void attachTransitionChecks(const std::vector<TransitionCheck>& checks);
    void finalize(ChunkQuality& chunk);
    // Drops the per-frame signals of a final chunk that is no longer the newest.
    void releaseFrameSignals(ChunkQuality& chunk) const;
    ChunkQuality* resultFor(qint64 index);
    void warnOnce(const QString& message);

    QualitySettings m_settings;
    FrameMeasurer m_measurer;
    TransitionJudge m_judge;
    std::map<qint64, PendingChunk> m_pending; // not yet evaluated, by generation index
    std::vector<ChunkQuality> m_results;
    std::map<qint64, size_t> m_result_index;
    std::vector<ChunkQuality> m_newly_final;
    SteeringJudge m_steering;
    std::optional<Neighbour> m_neighbour;
    std::optional<qint64> m_last_frame_number;
    qint64 m_current_chunk = -1;
    // The median change of the last chunk that was not frozen and whose camera was still,
    // since the camera last moved (0 while it moves): does the world in view move by itself?
    double m_world_change = 0.0;
    // A blur was flagged: a view without structure may be the blur's, not the view's own.
    bool m_blurred = false;
    bool m_finishing = false;
    QStringList m_warnings;
    QStringList m_warned;
};

} // namespace lbm::quality
