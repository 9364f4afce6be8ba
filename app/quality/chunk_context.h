#pragma once
// What the interaction timeline says about one generation chunk, in plain values: which
// prompt transitions started, run or completed in it and how many chunks each was given, and
// whether the camera moves. The quality analysis uses it to tell an expected change (a
// prompt transition, camera motion) from a defect. It knows nothing of the session layer's
// types: whoever runs the session fills it from the chunk's metadata (started / active /
// completed event ids) and from what it knows of each event (the workload's prompt updates,
// the prompts and camera moves it sent).

#include "app/quality/steering_command.h"

#include <QString>
#include <QtGlobal>

#include <optional>
#include <utility>
#include <vector>

namespace lbm::quality {

// One prompt interaction as seen in one chunk's metadata.
struct PromptInChunk {
    QString event_id;
    // transition_chunks K the prompt was sent with (0 = hard switch, reached in its first
    // chunk like K = 1).
    int transition_chunks = 0;
    bool started = false;   // in started_event_ids
    bool active = false;    // in active_event_ids
    bool completed = false; // in completed_event_ids
};

struct ChunkContext {
    qint64 generation_index = 0;
    // Only prompt interactions; camera interactions go in the two flags below.
    std::vector<PromptInChunk> prompts;
    // The camera moves in this chunk (a camera_action_script entry with keys, or an active
    // camera interaction with a non-zero velocity or an unreached target). Near-identical
    // frames under a moving camera are a freeze even when the picture never moved before.
    bool camera_moving = false;
    // The camera is told to jump at this chunk's start (a camera target with
    // transition_chunks 0): a large change across the boundary is expected, not a seam.
    bool camera_jump = false;
    // The camera command in force in this chunk: its camera_action_script entry (keys of its
    // first latent frame), or the newest camera velocity interaction the metadata lists as
    // started or active. nullopt when nothing steers the camera.
    std::optional<SteeringCommand> steering;
    // Live camera commands sent after the previous chunk arrived and before this one: this
    // chunk is the first that arrived after they were sent (response times count from here).
    std::vector<SteeringCommand> sent_before;
    // Send times (event id, session clock seconds) stamped since the last chunk for commands
    // listed in an earlier or this chunk's sent_before without one.
    std::vector<std::pair<QString, double>> sent_stamps;
    // Session clock (seconds) when the chunk arrived, when known.
    std::optional<double> arrival_s;
};

} // namespace lbm::quality
