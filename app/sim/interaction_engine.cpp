#include "app/sim/interaction_engine.h"

namespace lbm::sim {
namespace {

constexpr int kLatentFramesPerChunk = 3;

void appendUnique(QStringList& list, const QString& id) {
    if (!id.isEmpty() && !list.contains(id)) {
        list.append(id);
    }
}

} // namespace

InteractionEngine::InteractionEngine(const QString& prompt, std::optional<KeyScript> camera_script)
    : m_prompt(prompt)
    , m_grade_from(FrameRenderer::gradeForPrompt(prompt))
    , m_grade_to(m_grade_from)
    , m_script(std::move(camera_script)) {}

void InteractionEngine::queuePrompt(const QString& event_id, const QString& prompt,
                                    int transition_chunks) {
    if (m_pending_prompt) {
        m_superseded_prompts.append(m_pending_prompt->event_id);
    }
    m_pending_prompt = PendingPrompt{event_id, prompt, transition_chunks};
}

void InteractionEngine::queueCamera(const QString& event_id, CameraMode mode,
                                    const QVector3D& translation, const QQuaternion& rotation,
                                    int transition_chunks) {
    if (m_pending_camera) {
        m_superseded_cameras.append(m_pending_camera->event_id);
    }
    m_pending_camera = PendingCamera{event_id, mode, translation, rotation, transition_chunks};
}

ChunkPlan InteractionEngine::planChunk(int generation_chunk_index, int pixel_frames,
                                       qint64 first_frame_number) {
    ChunkPlan plan;
    plan.generation_chunk_index = generation_chunk_index;

    // Prompt boundary.
    for (const QString& id : m_superseded_prompts) {
        appendUnique(plan.completed_event_ids, id);
    }
    m_superseded_prompts.clear();
    const double previous_progress =
        m_prompt_event_id.isEmpty() || m_prompt_chunks == 0
            ? 1.0
            : static_cast<double>(m_prompt_chunks_done) / m_prompt_chunks;
    if (m_pending_prompt) {
        if (!m_prompt_event_id.isEmpty()) {
            appendUnique(plan.completed_event_ids, m_prompt_event_id); // interrupted
        }
        m_grade_from = FrameRenderer::blend(m_grade_from, m_grade_to, previous_progress);
        m_grade_to = FrameRenderer::gradeForPrompt(m_pending_prompt->prompt);
        m_prompt = m_pending_prompt->prompt;
        m_prompt_event_id = m_pending_prompt->event_id;
        m_prompt_chunks = m_pending_prompt->transition_chunks;
        m_prompt_chunks_done = 0;
        appendUnique(plan.started_event_ids, m_prompt_event_id);
        m_pending_prompt.reset();
    }
    double prompt_progress = 1.0;
    if (!m_prompt_event_id.isEmpty()) {
        ++m_prompt_chunks_done;
        prompt_progress = m_prompt_chunks == 0
                              ? 1.0
                              : static_cast<double>(m_prompt_chunks_done) / m_prompt_chunks;
        appendUnique(plan.active_event_ids, m_prompt_event_id);
    }
    const QColor grade = FrameRenderer::blend(m_grade_from, m_grade_to, prompt_progress);
    QString caption = m_prompt;
    if (!m_prompt_event_id.isEmpty() && m_prompt_chunks > 0) {
        caption =
            QStringLiteral("(%1/%2) ").arg(m_prompt_chunks_done).arg(m_prompt_chunks) + caption;
    }
    if (!m_prompt_event_id.isEmpty() && prompt_progress >= 1.0) {
        appendUnique(plan.completed_event_ids, m_prompt_event_id);
        m_grade_from = m_grade_to;
        m_prompt_event_id.clear();
    }

    // Camera boundary.
    for (const QString& id : m_superseded_cameras) {
        appendUnique(plan.completed_event_ids, id);
    }
    m_superseded_cameras.clear();
    if (m_pending_camera) {
        if (!m_camera_event_id.isEmpty()) {
            appendUnique(plan.completed_event_ids, m_camera_event_id); // replaced
        }
        m_camera_event_id = m_pending_camera->event_id;
        m_camera_mode = m_pending_camera->mode;
        appendUnique(plan.started_event_ids, m_camera_event_id);
        if (m_camera_mode == CameraMode::Velocity) {
            m_velocity = CameraVelocity{m_pending_camera->translation, m_pending_camera->rotation};
        } else {
            m_velocity = CameraVelocity{};
            m_target_from = m_pose;
            m_target =
                CameraPose{m_pending_camera->translation, m_pending_camera->rotation.normalized()};
            m_target_chunks = m_pending_camera->transition_chunks;
            m_target_chunks_done = 0;
        }
        m_pending_camera.reset();
    }
    std::vector<CameraPose> latent_poses;
    CameraPose pose = m_pose;
    for (int latent = 0; latent < kLatentFramesPerChunk; ++latent) {
        if (m_script) {
            const auto& entry =
                (*m_script)[static_cast<size_t>(generation_chunk_index) % m_script->size()];
            pose = pose.advanced(CameraVelocity::fromKeys(entry[static_cast<size_t>(latent)]));
        } else if (!m_camera_event_id.isEmpty() && m_camera_mode == CameraMode::Target) {
            const float t = m_target_chunks == 0
                                ? 1.0f
                                : static_cast<float>(m_target_chunks_done * kLatentFramesPerChunk +
                                                     latent + 1) /
                                      static_cast<float>(m_target_chunks * kLatentFramesPerChunk);
            pose = CameraPose::interpolated(m_target_from, m_target, std::min(1.0f, t));
        } else {
            pose = pose.advanced(m_velocity);
        }
        latent_poses.push_back(pose);
    }
    if (!m_camera_event_id.isEmpty()) {
        appendUnique(plan.active_event_ids, m_camera_event_id);
        bool done = false;
        if (m_camera_mode == CameraMode::Target) {
            ++m_target_chunks_done;
            done = m_target_chunks_done >= m_target_chunks;
        } else {
            done = m_velocity.isZero();
        }
        if (done) {
            appendUnique(plan.completed_event_ids, m_camera_event_id);
            m_camera_event_id.clear();
            m_velocity = CameraVelocity{};
        }
    }

    // Pixel frames: chunk 0's first latent frame is one pixel frame, every other four.
    const CameraPose chunk_start = m_pose;
    int frame = 0;
    for (int latent = 0; latent < kLatentFramesPerChunk; ++latent) {
        const int span = pixel_frames == 9 && latent == 0 ? 1 : 4;
        const CameraPose& from = latent == 0 ? chunk_start : latent_poses[latent - 1];
        for (int step = 0; step < span && frame < pixel_frames; ++step, ++frame) {
            FrameState state;
            state.pose = CameraPose::interpolated(from, latent_poses[latent],
                                                  static_cast<float>(step + 1) / span);
            state.grade = grade;
            state.caption = caption;
            state.frame_number = first_frame_number + frame;
            state.generation_chunk_index = generation_chunk_index;
            plan.frames.push_back(state);
        }
    }
    m_pose = latent_poses.back();
    return plan;
}

} // namespace lbm::sim
