#pragma once
// Steering measured from the picture: per frame, the camera's measured motion (FrameMotion)
// against the camera command in force (SteeringCommand). For every command that asks for
// motion it finds the first frame moving the commanded way (the response, in chunks and
// milliseconds); per chunk it counts the share of frames that follow the command in force and
// raises `action` when too few do (the picture ignores, reverses or lags the command). A live
// command is answered only from the chunk whose metadata lists it (or a newer one) as started
// or active: the server's word for when it was applied.
// Fed one evaluated chunk at a time, in generation order, by QualityAnalyzer.

#include "app/quality/chunk_context.h"
#include "app/quality/chunk_quality.h"
#include "app/quality/quality_settings.h"

#include <QHash>

#include <map>
#include <optional>
#include <vector>

namespace lbm::quality {

class SteeringJudge {
public:
    explicit SteeringJudge(const QualityThresholds& thresholds);

    // Fills the chunk's steering fields (steering_keys, motion_*, following, responses) and
    // flags it with Action when it does not follow its command.
    void judge(ChunkQuality& chunk, const ChunkContext& context);

    // How a frame's motion relates to a command: +1 moves the commanded way on every axis the
    // command drives, -1 moves against it on some axis, 0 neither (still, or too slow).
    static int agreement(const FrameMotion& motion, const SteeringCommand& command,
                         const QualityThresholds& thresholds);

private:
    struct Pending {
        SteeringCommand command;
        qint64 command_chunk = 0;
        std::optional<double> from_s; // sent (live) or command chunk's arrival (script)
        bool was_in_force = false;    // the server listed it as the command in force
    };

    // More waiting commands than keys a person presses within a few chunks.
    static constexpr size_t kMaxPending = 16;

    QualityThresholds m_thresholds;
    std::vector<Pending> m_pending;   // commands still waiting for their first moving frame
    QHash<QString, int> m_send_order; // live command event id -> order of sending
    int m_next_send_order = 0;
    std::optional<SteeringCommand> m_last_command;
};

} // namespace lbm::quality
