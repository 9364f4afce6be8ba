#pragma once
// The engine's interaction semantics for one session, as vLLM-Omni's stepwise pipeline
// reports them: queued interactions take effect at the next chunk boundary, and each chunk's
// plan says which ids started, are active and completed in it, truthfully for what is drawn.
// Chunk 0 has no boundary before it.
//
// Prompt track (upstream's PromptUpdateMixin, measured on the real handler): one pending slot,
// so a newer prompt replaces an older pending one, which is then never reported at all. At a
// boundary the active transition advances first (listed active; completed when it reaches
// its K-th chunk), then a pending one starts (started and active; completed at once for
// K <= 1), blending from the state just reached. An interrupted transition stays listed as
// active in the chunk where its successor starts and never completes.
//
// Camera track (the harness's chunk-level stand-in for upstream's SE3 track, which is the
// only reference there is): every pending event starts at the boundary, in order, each
// completing the one it replaces; a velocity stays active until replaced (zero included); a
// target with K chunks (default 1, 0 snaps) is reached at its K-th boundary, where it is
// listed completed and no longer active. A camera interaction in a session with a
// camera_action_script makes the next boundary fail the session.
//
// Each planned frame carries its ground truth: the velocity commanded and the one applied
// (they differ only under the steering faults ignore-action, reverse-action, late-action),
// the interactions in force and the prompt transition's progress, which ramps frame by frame
// so that a K-chunk transition spreads its change over its K chunks and reaches the target
// on the last frame of the K-th (K = 0: at once, on the first affected frame).

#include "app/sim/camera_pose.h"
#include "app/sim/fault_spec.h"
#include "app/sim/frame_state.h"
#include "app/sim/start_request.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <array>
#include <map>
#include <optional>
#include <vector>

namespace lbm::sim {

struct ChunkPlan {
    int generation_chunk_index = 0;
    std::vector<FrameState> frames;
    QStringList started_event_ids;
    QStringList active_event_ids;
    QStringList completed_event_ids;
    // Non-empty: the boundary before this chunk failed; the session ends with this error.
    QString failure;
};

class InteractionEngine {
public:
    enum class CameraMode { Velocity, Target };

    // first_look: the world's look read from the session's first frame; prompts change it.
    // faults: the session's faults; the steering ones change what the camera does.
    InteractionEngine(const QString& prompt, std::optional<KeyScript> camera_script,
                      const WorldLook& first_look = {}, std::vector<FaultSpec> faults = {});

    void queuePrompt(const QString& event_id, const QString& prompt, qint64 transition_chunks);
    void queueCamera(const QString& event_id, CameraMode mode, const QVector3D& translation,
                     const QQuaternion& rotation, qint64 transition_chunks);

    // Resolves the boundary before chunk generation_chunk_index and plans its frames
    // (9 or 12 pixel frames over three latent frames). first_frame_number is global.
    ChunkPlan planChunk(int generation_chunk_index, int pixel_frames, qint64 first_frame_number);

private:
    struct PendingPrompt {
        QString event_id;
        QString prompt;
        qint64 transition_chunks = 0;
    };
    struct CameraEvent {
        QString event_id;
        CameraMode mode = CameraMode::Velocity;
        QVector3D translation;
        QQuaternion rotation;
        qint64 transition_chunks = 1;
        qint64 elapsed = 0;
        CameraPose source;
    };

    using LatentVelocities = std::array<CameraVelocity, 3>;

    void promptBoundary(ChunkPlan& plan);
    void cameraBoundary(ChunkPlan& plan);
    double promptProgress() const;
    // The transition's progress at frame `frame` of `frames` in the current chunk.
    double promptProgressAt(int frame, int frames) const;
    // What the command in force asks for each latent frame of this chunk.
    LatentVelocities commandedVelocities(int generation_chunk_index) const;
    // What the camera does instead, under this chunk's steering faults.
    LatentVelocities appliedVelocities(int generation_chunk_index,
                                       const LatentVelocities& commanded) const;
    QStringList faultsAt(int generation_chunk_index) const;

    // Prompt track.
    QString m_prompt;
    WorldLook m_first_look;
    WorldLook m_look_from;
    WorldLook m_look_to;
    QString m_prompt_event_id;  // the last transition started (kept once settled)
    qint64 m_prompt_chunks = 0; // its K
    qint64 m_prompt_elapsed = 0;
    bool m_prompt_settled = false; // its last chunk was already rendered: hold progress at 1
    std::optional<PendingPrompt> m_pending_prompt;

    // Camera track.
    std::optional<KeyScript> m_script;
    bool m_camera_received = false;
    CameraPose m_pose;
    std::vector<CameraEvent> m_pending_cameras;
    std::optional<CameraEvent> m_camera;
    std::vector<FaultSpec> m_faults;
    std::map<int, LatentVelocities> m_commanded; // per chunk, for late-action
};

} // namespace lbm::sim
