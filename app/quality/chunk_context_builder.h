#pragma once
// Builds each chunk's ChunkContext from what a session runner knows: the prompts and camera
// moves it scheduled or sent (event id -> transition_chunks) and the workload's camera
// script, applied to the event ids a chunk's metadata lists as started, active and
// completed. One per session; not thread-safe (fill it on the thread that sees the
// metadata, then hand the contexts on).

#include "app/quality/chunk_context.h"
#include "metrics/workload.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace lbm::quality {

class ChunkContextBuilder {
public:
    ChunkContextBuilder() = default;
    // Registers the workload's prompt updates (event ids "chunk-<after_chunk>") and its
    // camera script.
    explicit ChunkContextBuilder(const lbm::Workload& workload);

    // A prompt interaction sent during the session.
    void addPrompt(const QString& event_id, int transition_chunks);
    // A camera interaction sent during the session: it moves the camera while active;
    // jumps: a target reached in zero chunks (the view snaps at the chunk it starts in).
    void addCameraMove(const QString& event_id, bool jumps);
    // A camera velocity interaction sent during the session (session clock sent_s, seconds):
    // the command the picture should follow from the chunk that starts it until the next.
    void addCameraCommand(const QString& event_id, SteeringCommand command);
    // The send time of a command added before (the network thread's stamp). A command without
    // one is listed in the next chunk's sent_before (it was sent before that chunk was seen)
    // and its time follows in a later context's sent_stamps.
    void setCommandSentTime(const QString& event_id, double sent_s);

    // arrival_s: the chunk's arrival on the session clock (seconds), when known; live
    // commands sent before it are listed in its context's sent_before (once).
    ChunkContext build(qint64 generation_index, const QStringList& started_event_ids,
                       const QStringList& active_event_ids, const QStringList& completed_event_ids,
                       std::optional<double> arrival_s = std::nullopt);

    // Whether a camera_action_script entry moves the camera: some latent frame holds keys
    // whose motion does not cancel out (w/s, a/d, i/k, j/l).
    static bool scriptMoves(const lbm::ChunkActions& actions);

private:
    struct CameraMove {
        bool jumps = false;
        std::optional<SteeringCommand> command; // velocity interactions
        int order = 0;                          // registration order: the newest wins
        bool reported_sent = false;             // listed in a context's sent_before
        bool stamp_reported = false;            // its sent_s listed in a context's sent_stamps
    };
    QHash<QString, int> m_prompts; // event id -> transition_chunks
    QHash<QString, CameraMove> m_camera_moves;
    std::vector<bool> m_script_moves;               // per chunk of the workload's camera script
    std::vector<SteeringCommand> m_script_commands; // per chunk: its first latent frame's keys
    int m_next_order = 0;
};

} // namespace lbm::quality
