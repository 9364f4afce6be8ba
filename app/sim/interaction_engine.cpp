#include "app/sim/interaction_engine.h"

#include <algorithm>

namespace lbm::sim {
namespace {

constexpr int kLatentFramesPerChunk = 3;
// The world's clock runs at the protocol's default mux rate; fps is only a label on the MP4.
constexpr double kWorldFramesPerSecond = 16.0;

void appendUnique(QStringList& list, const QString& id) {
    if (!id.isEmpty() && !list.contains(id)) {
        list.append(id);
    }
}

} // namespace

InteractionEngine::InteractionEngine(const QString& prompt, std::optional<KeyScript> camera_script,
                                     const WorldLook& first_look, std::vector<FaultSpec> faults)
    : m_prompt(prompt)
    , m_first_look(first_look)
    , m_look_from(first_look)
    , m_look_to(first_look)
    , m_script(std::move(camera_script))
    , m_faults(std::move(faults)) {}

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

double InteractionEngine::promptProgressAt(int frame, int frames) const {
    // A settled transition stays at its end: without this its last step would replay in every
    // later chunk (a jump at each boundary that the instruments rightly read as a seam).
    if (m_prompt_settled || m_prompt_event_id.isEmpty() || m_prompt_chunks <= 0) {
        return 1.0;
    }
    const double within = static_cast<double>(frame + 1) / static_cast<double>(frames);
    return std::clamp((static_cast<double>(m_prompt_elapsed - 1) + within) /
                          static_cast<double>(m_prompt_chunks),
                      0.0, 1.0);
}

void InteractionEngine::promptBoundary(ChunkPlan& plan) {
    // What the last frame showed: a transition that starts here blends on from it.
    const double reached = promptProgress();
    m_prompt_settled = m_prompt_elapsed >= m_prompt_chunks;
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
    m_look_from = WorldLook::blend(m_look_from, m_look_to, reached);
    m_look_to = WorldLook::forPrompt(m_pending_prompt->prompt, m_first_look);
    m_prompt = m_pending_prompt->prompt;
    m_prompt_event_id = m_pending_prompt->event_id;
    m_prompt_chunks = m_pending_prompt->transition_chunks;
    m_prompt_elapsed = m_prompt_chunks > 0 ? 1 : 0;
    m_prompt_settled = false;
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

    QString caption = m_prompt;
    if (!m_prompt_event_id.isEmpty() && m_prompt_chunks > 0 && promptProgress() < 1.0) {
        caption = QStringLiteral("(%1/%2) ").arg(m_prompt_elapsed).arg(m_prompt_chunks) + caption;
    }

    const LatentVelocities commanded = commandedVelocities(generation_chunk_index);
    m_commanded[generation_chunk_index] = commanded;
    m_commanded.erase(m_commanded.begin(), m_commanded.lower_bound(generation_chunk_index - 64));
    const LatentVelocities applied = appliedVelocities(generation_chunk_index, commanded);
    // The poses at the end of each latent frame.
    std::vector<CameraPose> latent_poses;
    CameraPose pose = m_pose;
    for (int latent = 0; latent < kLatentFramesPerChunk; ++latent) {
        pose = pose.advanced(applied[static_cast<size_t>(latent)]);
        latent_poses.push_back(pose);
    }
    // A reached target leaves the camera where it ended.
    const QString camera_event_id =
        m_script ? QStringLiteral("script") : (m_camera ? m_camera->event_id : QString());
    if (m_camera && m_camera->mode == CameraMode::Target &&
        plan.completed_event_ids.contains(m_camera->event_id)) {
        m_camera.reset();
    }

    // Pixel frames: chunk 0's first latent frame is one pixel frame, every other four.
    const QStringList faults = faultsAt(generation_chunk_index);
    const CameraPose chunk_start = m_pose;
    int frame = 0;
    for (int latent = 0; latent < kLatentFramesPerChunk; ++latent) {
        const int span = pixel_frames == 9 && latent == 0 ? 1 : 4;
        const CameraPose& from = latent == 0 ? chunk_start : latent_poses[latent - 1];
        for (int step = 0; step < span && frame < pixel_frames; ++step, ++frame) {
            FrameState state;
            state.pose =
                CameraPose::interpolated(from, latent_poses[latent],
                                         static_cast<float>(step + 1) / static_cast<float>(span));
            const double progress = promptProgressAt(frame, pixel_frames);
            state.look = WorldLook::blend(m_look_from, m_look_to, progress);
            state.caption = caption;
            state.frame_number = first_frame_number + frame;
            state.generation_chunk_index = generation_chunk_index;
            state.world_time_s = static_cast<double>(state.frame_number) / kWorldFramesPerSecond;
            if (generation_chunk_index == 0) {
                // The client's image is the first frame, seen from the start pose; the world
                // shows through it over the rest of chunk 0.
                if (frame == 0) {
                    state.pose = chunk_start;
                }
                state.first_frame_mix = 1.0 - static_cast<double>(frame) / (pixel_frames - 1);
            }
            state.commanded = commanded[static_cast<size_t>(latent)];
            state.applied = applied[static_cast<size_t>(latent)];
            state.camera_event_id = camera_event_id;
            state.prompt_event_id = m_prompt_event_id;
            state.transition_chunks = m_prompt_chunks;
            state.transition_progress = progress;
            state.faults = faults;
            plan.frames.push_back(state);
        }
    }
    m_pose = latent_poses.back();
    return plan;
}

InteractionEngine::LatentVelocities
InteractionEngine::commandedVelocities(int generation_chunk_index) const {
    LatentVelocities velocities{};
    CameraPose pose = m_pose;
    for (int latent = 0; latent < kLatentFramesPerChunk; ++latent) {
        CameraVelocity& velocity = velocities[static_cast<size_t>(latent)];
        if (m_script) {
            const auto& entry =
                (*m_script)[static_cast<size_t>(generation_chunk_index) % m_script->size()];
            velocity = CameraVelocity::fromKeys(entry[static_cast<size_t>(latent)]);
        } else if (m_camera && m_camera->mode == CameraMode::Target) {
            const double k = static_cast<double>(std::max<qint64>(1, m_camera->transition_chunks));
            const double t = m_camera->transition_chunks <= 0
                                 ? 1.0
                                 : (static_cast<double>(m_camera->elapsed - 1) +
                                    (latent + 1) / static_cast<double>(kLatentFramesPerChunk)) /
                                       k;
            const CameraPose target = CameraPose::interpolated(
                m_camera->source,
                CameraPose{m_camera->translation, m_camera->rotation.normalized()},
                static_cast<float>(std::min(1.0, t)));
            velocity = CameraVelocity::between(pose, target);
        } else if (m_camera) {
            velocity = CameraVelocity{m_camera->translation, m_camera->rotation};
        }
        pose = pose.advanced(velocity);
    }
    return velocities;
}

InteractionEngine::LatentVelocities
InteractionEngine::appliedVelocities(int generation_chunk_index,
                                     const LatentVelocities& commanded) const {
    LatentVelocities applied = commanded;
    for (const FaultSpec& fault : m_faults) {
        if (fault.kind == FaultKind::IgnoreAction && fault.chunk == generation_chunk_index) {
            applied = LatentVelocities{};
        } else if (fault.kind == FaultKind::ReverseAction &&
                   fault.chunk == generation_chunk_index) {
            for (CameraVelocity& velocity : applied) {
                velocity = velocity.reversed();
            }
        } else if (fault.kind == FaultKind::LateAction && fault.chunk <= generation_chunk_index &&
                   generation_chunk_index < fault.chunk + fault.delay_chunks) {
            // The command of the chunk before the fault goes on until the late one lands.
            const auto before = m_commanded.find(fault.chunk - 1);
            applied = before != m_commanded.end() ? before->second : LatentVelocities{};
        }
    }
    return applied;
}

QStringList InteractionEngine::faultsAt(int generation_chunk_index) const {
    QStringList names;
    for (const FaultSpec& fault : m_faults) {
        bool shapes = false;
        switch (fault.kind) {
        case FaultKind::Seam:
        case FaultKind::Blur:
        case FaultKind::Tint:
            shapes = fault.chunk <= generation_chunk_index; // they last from their chunk on
            break;
        case FaultKind::LateAction:
            shapes = fault.chunk <= generation_chunk_index &&
                     generation_chunk_index < fault.chunk + fault.delay_chunks;
            break;
        default:
            shapes = fault.chunk == generation_chunk_index;
            break;
        }
        if (shapes) {
            names.append(fault.toString());
        }
    }
    return names;
}

} // namespace lbm::sim
