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
    for (size_t chunk = 0; chunk < workload.camera_script.size(); ++chunk) {
        const lbm::ChunkActions& actions = workload.camera_script[chunk];
        m_script_moves.push_back(scriptMoves(actions));
        QString letters;
        if (!actions.empty()) {
            for (const std::string& key : actions.front()) {
                letters += QString::fromStdString(key);
            }
        }
        SteeringCommand command = SteeringCommand::fromKeys(letters);
        command.event_id = QStringLiteral("script:%1").arg(chunk);
        m_script_commands.push_back(command);
    }
}

void ChunkContextBuilder::addPrompt(const QString& event_id, int transition_chunks) {
    m_prompts.insert(event_id, transition_chunks);
}

void ChunkContextBuilder::addCameraMove(const QString& event_id, bool jumps) {
    m_camera_moves.insert(event_id, CameraMove{jumps, std::nullopt, m_next_order++, true});
}

void ChunkContextBuilder::addCameraCommand(const QString& event_id, SteeringCommand command) {
    command.event_id = event_id;
    m_camera_moves.insert(event_id, CameraMove{false, command, m_next_order++, false});
}

bool ChunkContextBuilder::scriptMoves(const lbm::ChunkActions& actions) {
    return std::any_of(actions.cbegin(), actions.cend(), [](const lbm::FrameActions& keys) {
        return held(keys, "w") != held(keys, "s") || held(keys, "a") != held(keys, "d") ||
               held(keys, "i") != held(keys, "k") || held(keys, "j") != held(keys, "l");
    });
}

void ChunkContextBuilder::setCommandSentTime(const QString& event_id, double sent_s) {
    const auto found = m_camera_moves.find(event_id);
    if (found != m_camera_moves.end() && found->command && !found->stamp_reported) {
        found->command->sent_s = sent_s;
    }
}

ChunkContext ChunkContextBuilder::build(qint64 generation_index,
                                        const QStringList& started_event_ids,
                                        const QStringList& active_event_ids,
                                        const QStringList& completed_event_ids,
                                        std::optional<double> arrival_s) {
    ChunkContext context;
    context.generation_index = generation_index;
    int newest_order = -1;
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
        if (camera != m_camera_moves.cend() && (active || started)) {
            // A velocity of zero (the "stop" sent on key release) holds the camera still.
            const bool moves = !camera->command || camera->command->moves();
            context.camera_moving = context.camera_moving || moves;
            context.camera_jump = context.camera_jump || (started && camera->jumps);
            if (camera->command && camera->order >= newest_order) {
                newest_order = camera->order;
                context.steering = camera->command;
            }
        }
    }
    if (generation_index >= 0 && generation_index < static_cast<qint64>(m_script_moves.size())) {
        const auto chunk = static_cast<size_t>(generation_index);
        context.camera_moving = context.camera_moving || m_script_moves[chunk];
        if (!context.steering) {
            context.steering = m_script_commands[chunk];
        }
    }
    context.arrival_s = arrival_s;
    if (arrival_s) {
        std::vector<std::pair<int, SteeringCommand>> sent;
        for (auto it = m_camera_moves.begin(); it != m_camera_moves.end(); ++it) {
            CameraMove& move = it.value();
            if (!move.command) {
                continue;
            }
            if (!move.reported_sent &&
                (!move.command->sent_s || *move.command->sent_s <= *arrival_s)) {
                move.reported_sent = true;
                sent.emplace_back(move.order, *move.command);
            }
            if (move.reported_sent && !move.stamp_reported && move.command->sent_s) {
                move.stamp_reported = true;
                context.sent_stamps.emplace_back(it.key(), *move.command->sent_s);
            }
        }
        std::sort(sent.begin(), sent.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        for (auto& [order, command] : sent) {
            context.sent_before.push_back(std::move(command));
        }
    }
    return context;
}

} // namespace lbm::quality
