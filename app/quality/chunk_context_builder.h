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

    ChunkContext build(qint64 generation_index, const QStringList& started_event_ids,
                       const QStringList& active_event_ids,
                       const QStringList& completed_event_ids) const;

    // Whether a camera_action_script entry moves the camera: some latent frame holds keys
    // whose motion does not cancel out (w/s, a/d, i/k, j/l).
    static bool scriptMoves(const lbm::ChunkActions& actions);

private:
    struct CameraMove {
        bool jumps = false;
    };
    QHash<QString, int> m_prompts; // event id -> transition_chunks
    QHash<QString, CameraMove> m_camera_moves;
    std::vector<bool> m_script_moves; // per chunk of the workload's camera script
};

} // namespace lbm::quality
