#pragma once
// The server's interaction semantics for one session: queued prompt and camera
// interactions take effect at the next chunk boundary, and each chunk's plan says which
// ids started, are active and completed in it, truthfully for what is drawn.
//
// Rules (protocol.md): a prompt with transition_chunks K reaches its target in the K-th
// affected chunk (progress 1/K .. 1; K = 0 is a hard switch). A newer prompt supersedes an
// older pending one (the superseded id is reported completed, never started, in the chunk
// the newer one starts) and interrupts an active one (reported completed there; the new
// blend starts from the state reached). Camera velocity applies once per latent frame
// until replaced (the replaced id completes where its successor starts); a zero velocity
// starts and completes in its first chunk. A target is reached over K chunks (0 snaps).

#include "app/sim/camera_pose.h"
#include "app/sim/frame_renderer.h"
#include "app/sim/start_request.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace lbm::sim {

struct ChunkPlan {
    int generation_chunk_index = 0;
    std::vector<FrameState> frames;
    QStringList started_event_ids;
    QStringList active_event_ids;
    QStringList completed_event_ids;
};

class InteractionEngine {
public:
    enum class CameraMode { Velocity, Target };

    InteractionEngine(const QString& prompt, std::optional<KeyScript> camera_script);

    void queuePrompt(const QString& event_id, const QString& prompt, int transition_chunks);
    void queueCamera(const QString& event_id, CameraMode mode, const QVector3D& translation,
                     const QQuaternion& rotation, int transition_chunks);

    // Resolves the boundary before chunk generation_chunk_index and plans its frames
    // (9 or 12 pixel frames over three latent frames). first_frame_number is global.
    ChunkPlan planChunk(int generation_chunk_index, int pixel_frames, qint64 first_frame_number);

private:
    struct PendingPrompt {
        QString event_id;
        QString prompt;
        int transition_chunks = 0;
    };
    struct PendingCamera {
        QString event_id;
        CameraMode mode = CameraMode::Velocity;
        QVector3D translation;
        QQuaternion rotation;
        int transition_chunks = 1;
    };

    // Prompt track.
    QString m_prompt;
    QColor m_grade_from;
    QColor m_grade_to;
    QString m_prompt_event_id; // the active transition, empty when settled
    int m_prompt_chunks = 0;   // K of the active transition
    int m_prompt_chunks_done = 0;
    std::optional<PendingPrompt> m_pending_prompt;
    QStringList m_superseded_prompts;

    // Camera track.
    std::optional<KeyScript> m_script;
    CameraPose m_pose;
    std::optional<PendingCamera> m_pending_camera;
    QStringList m_superseded_cameras;
    QString m_camera_event_id;
    CameraMode m_camera_mode = CameraMode::Velocity;
    CameraVelocity m_velocity; // zero until the first velocity
    CameraPose m_target_from;
    CameraPose m_target;
    int m_target_chunks = 0;
    int m_target_chunks_done = 0;
};

} // namespace lbm::sim
