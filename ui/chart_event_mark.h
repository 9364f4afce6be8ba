#pragma once
// A mark on the latency chart's chunk axis: where an interaction was sent, where its first
// affected chunk started it and where it completed (or failed), from the event timeline.
// Prompt and camera marks look different: a steering session sends many camera velocities.

#include <QString>

namespace lbm::ui {

struct ChartEventMark {
    enum class Kind { Sent, Started, Completed, Failed };
    enum class Subject { Prompt, Camera };
    Kind kind = Kind::Sent;
    Subject subject = Subject::Prompt;
    // Chunk axis position: a chunk index, or index - 0.5 for "between chunks" (a message
    // sent after chunk index - 1 landed).
    double chunk_position = 0.0;
    // Shown in the tooltip, e.g. "prompt 'A snowy street' (ui-3-1a2b3c4d)".
    QString label;
};

} // namespace lbm::ui
