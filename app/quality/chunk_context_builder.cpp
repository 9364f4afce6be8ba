#include "app/quality/chunk_context_builder.h"

#include <algorithm>

namespace lbm::quality {
namespace {

int held(const lbm::FrameActions& keys, const char* key) {
    return std::find(keys.cbegin(), keys.cend(), key) != keys.cend() ? 1 : 0;
}

} // namespace

ChunkContextBuilder::ChunkContextBuilder(const lbm::Workload& workload) {
    for (const lbm::PromptUpdate& update : workload.prompt_updates) {
        addPrompt(QString::fromStdString(update.eventId()), update.transition_chunks);
    }
    m_script_moves.reserve(workload.camera_script.size());
    for (const lbm::ChunkActions& actions : workload.camera_script) {
        m_script_moves.push_back(scriptMoves(actions));
    }
}

void ChunkContextBuilder::addPrompt(const QString& event_id, int transition_chunks) {
    m_prompts.insert(event_id, transition_chunks);
}

void ChunkContextBuilder::addCameraMove(const QString& event_id, bool jumps) {
    m_camera_moves.insert(event_id, CameraMove{jumps});
}

bool ChunkContextBuilder::scriptMoves(const lbm::ChunkActions& actions) {
    return std::any_of(actions.cbegin(), actions.cend(), [](const lbm::FrameActions& keys) {
        return held(keys, "w") != held(keys, "s") || held(keys, "a") != held(keys, "d") ||
               held(keys, "i") != held(keys, "k") || held(keys, "j") != held(keys, "l");
    });
}

ChunkContext ChunkContextBuilder::build(qint64 generation_index,
                                        const QStringList& started_event_ids,
                                        const QStringList& active_event_ids,
                                        const QStringList& completed_event_ids) const {
    ChunkContext context;
    context.generation_index = generation_index;
    QStringList ids = started_event_ids + active_event_ids + completed_event_ids;
    ids.removeDuplicates();
    for (const QString& id : ids) {
        const bool started = started_event_ids.contains(id);
        const bool active = active_event_ids.contains(id);
        const auto prompt = m_prompts.constFind(id);
        if (prompt != m_prompts.cend()) {
            context.prompts.push_back(PromptInChunk{id, prompt.value(), started, active,
                                                    completed_event_ids.contains(id)});
            continue;
        }
        const auto camera = m_camera_moves.constFind(id);
        if (camera != m_camera_moves.cend()) {
            context.camera_moving = context.camera_moving || active || started;
            context.camera_jump = context.camera_jump || (started && camera->jumps);
        }
    }
    if (generation_index >= 0 && generation_index < static_cast<qint64>(m_script_moves.size()) &&
        m_script_moves[static_cast<size_t>(generation_index)]) {
        context.camera_moving = true;
    }
    return context;
}

} // namespace lbm::quality
