#pragma once
// The server side of session.start, as vLLM-Omni's realtime-video handler does it, in its
// order and with its texts (measured against the real handler: docs/upstream-conformance.md).
//
// Refused before video.start (one error, no video.start):
//   session.start message too large | Invalid JSON in session.start |
//   session.start must be a JSON object | Expected session.start, got: X |
//   Invalid session.start format: expected 'm4s'. |
//   Invalid session.start: <pydantic's validation text> (app/sim/request_model.h) |
//   Model mismatch: request specifies 'X' but server is running 'Y'.
// Accepted, so video.start (echoing the validated request with the model's defaults) goes
// out, then refused with one error and no session.done (post_start_error):
//   the handler's own: "Invalid size: ..." for a size of 0, "400: Invalid
//   image_reference.image_url: ..." when the first frame cannot be decoded, "400:
//   preencode_mp4 is not supported for streaming video sessions." (newest handler only);
//   the engine's (LingBot-World; worded as the harness's fake engine words them):
//   "Requested resolution WxH must match the fixed cache geometry 480x832.",
//   "LingBot-World requires an input image (image_reference).", "num_frames=N gives no
//   complete AR block; use 9 + 12k.", "camera_action_script must hold exactly one action list
//   per generated chunk (C for num_frames=N), got L.", "camera_action_script entries must be
//   exactly 3 lists of keys from 'wasdijkl'.", and the simulator's own source-image limit
//   "Requested image_reference is WxH; the source image may be at most 4096x4096."

#include "app/sim/py_value.h"
#include "app/sim/simulator_config.h"

#include <QImage>
#include <QString>

#include <optional>
#include <vector>

namespace lbm::sim {

// camera_action_script: per chunk, three per-latent-frame key lists.
using KeyScript = std::vector<std::vector<std::vector<QString>>>;

struct StartRequest {
    PyValue config; // what video.start echoes, in the model's field order
    // Non-empty: the handler accepted the message (video.start) but the session fails with
    // this error before any chunk.
    QString post_start_error;
    QString prompt;
    qint64 num_frames = 0;
    int chunk_count = 0;
    int fps = 24; // the mux rate: the request's fps, else the model's default of 24
    qint64 seed = 0;
    std::optional<KeyScript> camera_script;
    QImage first_frame; // null for http(s) URLs, which are not fetched
    bool image_is_remote = false;
};

struct StartOutcome {
    std::optional<StartRequest> request; // empty: refused before video.start
    QString refusal;
};

// text: the first text message of a connection.
StartOutcome parseStartRequest(const QString& text, const SimulatorConfig& config);

} // namespace lbm::sim
