#include "app/sim/interaction_engine.h"

#include <algorithm>

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
                                    qint64 transition_chunks) {
    m_pending_prompt = PendingPrompt{event_id, prompt, transition_chunks};
}

void InteractionEngine::queueCamera(const QString& event_id, CameraMode mode,
                                    const QVector3D& translation, const QQuaternion& rotation,
                                    qint64 transition_chunks) {
    CameraEvent event;
    event.event_id = event_id;
    event.mode = mode;
    event.translation = translation;
    event.rotation = rotation;
    event.transition_chunks = mode == CameraMode::Target ? transition_chunks : 0;
    m_pending_cameras.push_back(event);
    m_camera_received = true;
}

double InteractionEngine::promptProgress() const {
    if (m_prompt_event_id.isEmpty() || m_prompt_chunks <= 0) {
        return 1.0;
    }
    return std::min(1.0,
                    static_cast<double>(m_prompt_elapsed) / static_cast<double>(m_prompt_chunks));
}

void InteractionEngine::promptBoundary(ChunkPlan& plan) {
    // The active transition advances first.
    if (!m_prompt_event_id.isEmpty() && m_prompt_chunks > 0 && m_prompt_elapsed < m_prompt_chunks) {
        ++m_prompt_elapsed;
        appendUnique(plan.active_event_ids, m_prompt_event_id);
        if (m_prompt_elapsed >= m_prompt_chunks) {
            appendUnique(plan.completed_event_ids, m_prompt_event_id);
        }
    }
    if (!m_pending_prompt) {
        return;
    }
    // A new one starts from the state just reached.
    m_grade_from = FrameRenderer::blend(m_grade_from, m_grade_to, promptProgress());
    m_grade_to = FrameRenderer::gradeForPrompt(m_pending_prompt->prompt);
    m_prompt = m_pending_prompt->prompt;
    m_prompt_event_id = m_pending_prompt->event_id;
    m_prompt_chunks = m_pending_prompt->transition_chunks;
    m_prompt_elapsed = m_prompt_chunks > 0 ? 1 : 0;
    m_pending_prompt.reset();
    appendUnique(plan.started_event_ids, m_prompt_event_id);
    appendUnique(plan.active_event_ids, m_prompt_event_id);
    if (m_prompt_chunks <= 1) {
        appendUnique(plan.completed_event_ids, m_prompt_event_id);
    }
}

void InteractionEngine::cameraBoundary(ChunkPlan& plan) {
    if (m_script && m_camera_received) {
        // Worded as the harness's engine raises it (trailing "; " included).
        plan.failure = QStringLiteral("Cannot use mid-generation camera interaction together "
                                      "with camera_action_script; ");
        return;
    }
    QStringList started;
    QStringList completed;
    for (CameraEvent& event : m_pending_cameras) {
        appendUnique(started, event.event_id);
        if (m_camera && m_camera->event_id != event.event_id) {
            appendUnique(completed, m_camera->event_id);
        }
        event.elapsed = 0;
        event.source = m_pose;
        m_camera = event;
    }
    m_pending_cameras.clear();
    if (m_camera && m_camera->mode == CameraMode::Target) {
        ++m_camera->elapsed;
        if (m_camera->transition_chunks <= 0 || m_camera->elapsed >= m_camera->transition_chunks) {
            appendUnique(completed, m_camera->event_id);
        }
    }
    for (const QString& id : started) {
        appendUnique(plan.started_event_ids, id);
    }
    const bool target_done =
        m_camera && m_camera->mode == CameraMode::Target && completed.contains(m_camera->event_id);
    if (m_camera && !target_done) {
        appendUnique(plan.active_event_ids, m_camera->event_id);
    }
    for (const QString& id : completed) {
        appendUnique(plan.completed_event_ids, id);
    }
}

ChunkPlan InteractionEngine::planChunk(int generation_chunk_index, int pixel_frames,
                                       qint64 first_frame_number) {
    ChunkPlan plan;
    plan.generation_chunk_index = generation_chunk_index;
    if (generation_chunk_index > 0) {
        promptBoundary(plan);
        cameraBoundary(plan);
        if (!plan.failure.isEmpty()) {
            return plan;
        }
    }

    const QColor grade = FrameRenderer::blend(m_grade_from, m_grade_to, promptProgress());
    QString caption = m_prompt;
    if (!m_prompt_event_id.isEmpty() && m_prompt_chunks > 0 && promptProgress() < 1.0) {
        caption = QStringLiteral("(%1/%2) ").arg(m_prompt_elapsed).arg(m_prompt_chunks) + caption;
    }

    // The poses at the end of each latent frame.
    std::vector<CameraPose> latent_poses;
    CameraPose pose = m_pose;
    for (int latent = 0; latent < kLatentFramesPerChunk; ++latent) {
        if (m_script) {
            const auto& entry =
                (*m_script)[static_cast<size_t>(generation_chunk_index) % m_script->size()];
            pose = pose.advanced(CameraVelocity::fromKeys(entry[static_cast<size_t>(latent)]));
        } else if (m_camera && m_camera->mode == CameraMode::Target) {
            const double k = static_cast<double>(std::max<qint64>(1, m_camera->transition_chunks));
            const double t = m_camera->transition_chunks <= 0
                                 ? 1.0
                                 : (static_cast<double>(m_camera->elapsed - 1) +
                                    (latent + 1) / static_cast<double>(kLatentFramesPerChunk)) /
                                       k;
            pose = CameraPose::interpolated(
                m_camera->source,
                CameraPose{m_camera->translation, m_camera->rotation.normalized()},
                static_cast<float>(std::min(1.0, t)));
        } else if (m_camera) {
            pose = pose.advanced(CameraVelocity{m_camera->translation, m_camera->rotation});
        }
        latent_poses.push_back(pose);
    }
    // A reached target leaves the camera where it ended.
    if (m_camera && m_camera->mode == CameraMode::Target &&
        plan.completed_event_ids.contains(m_camera->event_id)) {
        m_camera.reset();
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
