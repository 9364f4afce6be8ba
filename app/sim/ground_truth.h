#pragma once
// The simulator's ground truth in its send log (`--log FILE`): one "frame" record per planned
// frame, written when the engine resolves the chunk (before it is rendered), so instruments
// and tests can be checked against what the simulated camera and world really did.
//
//   {"type":"frame","session":1,"chunk":5,"frame":57,"frame_in_chunk":0,
//    "pose":{"x":0,"y":0,"z":0.75,"yaw_deg":0,"pitch_deg":0},
//    "velocity":{"x":0,"y":0,"z":0.05,"yaw_deg":0,"pitch_deg":0},   applied, per latent frame
//    "commanded":{...same fields...},                                what the command asks
//    "camera_event":"script"|"<event_id>"|null, "prompt_event":"<event_id>"|null,
//    "transition":{"event_id":"p1","chunks":3,"progress":0.25}|null,
//    "faults":["blur@4"], "objects_visible":14, "objects_entered":1, "t_ns":..., "t_ms":...}
//
// Units and signs: protocol.md's Unity frame, translation in protocol units (0.05 per latent
// frame of `w`) in the camera's own frame (x right, y up, z along the view), yaw positive
// turning right (l), pitch positive looking up (i); pose position in the world (start pose at
// the origin, looking along +Z). "faults" lists every fault shaping the frame (seam, blur and
// tint from their chunk on; late-action over its delayed chunks). The pose is the camera's:
// under a freeze the picture holds its chunk's first frame while the pose moves on.
// A "world" record precedes each session's frames: {"type":"world","session":1,"seed":42,
// "width":832,"height":480,"realism":"low","horizontal_fov_deg":65,"metres_per_unit":20}.

#include "app/sim/frame_state.h"
#include "app/sim/interaction_engine.h"
#include "app/sim/world_layout.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <vector>

namespace lbm::sim {

QJsonObject groundTruthFrameRecord(const FrameState& frame, int frame_in_chunk, int objects_visible,
                                   int objects_entered);

// Writes a session's records: which objects each frame shows, and which of them it shows
// for the first time (counted against the frame before, so a passing house enters once).
class GroundTruthRecorder {
public:
    GroundTruthRecorder(quint64 seed, int width, int height);

    QJsonObject worldRecord(const QString& realism) const;
    std::vector<QJsonObject> frameRecords(const ChunkPlan& plan);

private:
    WorldLayout m_layout;
    quint64 m_seed;
    int m_width;
    int m_height;
    std::vector<qint64> m_visible; // the last frame's, sorted
};

// One frame's record, read back.
struct FrameTruth {
    int session = 0;
    int chunk = 0;
    qint64 frame = 0;
    int frame_in_chunk = 0;
    QVector3D position;
    double yaw_deg = 0.0;
    double pitch_deg = 0.0;
    QVector3D velocity; // applied translation per latent frame, camera frame
    double velocity_yaw_deg = 0.0;
    double velocity_pitch_deg = 0.0;
    QVector3D commanded;
    double commanded_yaw_deg = 0.0;
    double commanded_pitch_deg = 0.0;
    QString camera_event;
    QString prompt_event;
    qint64 transition_chunks = 0;
    double transition_progress = 1.0;
    QStringList faults;
    int objects_visible = -1; // -1: not recorded
    int objects_entered = -1;
    double t_ms = 0.0;

    bool moving() const;                      // the applied velocity is not zero
    bool hasFault(const QString& kind) const; // kind as in "blur" or "late-action"
};

struct WorldTruth {
    int session = 0;
    qint64 seed = 0;
    int width = 0;
    int height = 0;
    QString realism;
    double horizontal_fov_deg = 0.0;
    double metres_per_unit = 0.0;
};

// Reads a send log's ground truth; other record types are skipped.
class GroundTruthLog {
public:
    // nullopt (and error set) when the file cannot be read or a frame record is malformed.
    static std::optional<GroundTruthLog> read(const QString& path, QString* error);

    const std::vector<FrameTruth>& frames() const { return m_frames; }
    const std::vector<WorldTruth>& worlds() const { return m_worlds; }
    // One session's frames in frame order; session 0 = the first session in the log.
    std::vector<FrameTruth> sessionFrames(int session = 0) const;
    // Per chunk of one session: the frames of that chunk.
    std::vector<std::vector<FrameTruth>> chunks(int session = 0) const;

private:
    std::vector<FrameTruth> m_frames;
    std::vector<WorldTruth> m_worlds;
};

} // namespace lbm::sim
