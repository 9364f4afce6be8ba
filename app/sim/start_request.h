#pragma once
// The server side of session.start: the checks the LingBot-World server makes, in its
// order, with its error texts, and the accepted request the simulator then generates from.
//
// Texts protocol.md gives verbatim are used as is. Where it shows only the shape
// ("Invalid session.start: ..."), the simulator's full texts are:
//   Invalid session.start format: expected 'm4s'.
//   Model mismatch: requested 'X' but this server serves 'Y'.
//   Invalid session.start: prompt must be a non-empty string.
//   Invalid session.start: negative_prompt must be a string.
//   Invalid session.start: width and height must be integers.
//   Invalid session.start: requested HxW (height x width); resolution must match the fixed
//     cache geometry 480x832.
//   Invalid session.start: num_frames must be a positive integer.
//   Invalid session.start: num_frames=N gives 0 chunks (chunks = ((num_frames - 1) // 4 + 1)
//     // 3); use at least 9 frames (valid counts are 9 + 12k).
//   Invalid session.start: fps must be a positive integer.
//   Invalid session.start: seed must be an integer.
//   Invalid session.start: extra_params must be an object.
//   Invalid session.start: camera_action_script must be a list with one entry per chunk.
//   Invalid session.start: camera_action_script must not be empty.
//   Invalid session.start: camera_action_script has L entries but num_frames=N generates C
//     chunks; give exactly one entry per chunk.
//   Invalid session.start: camera_action_script[i] must be a list of 3 per-latent-frame key
//     lists, e.g. [["w"], ["w"], []].
//   Invalid session.start: camera_action_script[i][j] has key 'x'; keys must be among
//     w, a, s, d, i, j, k, l.
//   Invalid session.start: image_reference.image_url is required (LingBot-World is
//     image-conditioned: send the first frame as a data: or http(s):// URL).
//   Invalid session.start: image_reference.image_url must be an http(s):// or data: URL.
//   Invalid session.start: image_reference data URL could not be decoded as an image.
//   Invalid session.start: image_reference is WxH; the source image may be at most
//     4096x4096.

#include "app/sim/simulator_config.h"

#include <QImage>
#include <QJsonObject>
#include <QString>

#include <optional>
#include <vector>

namespace lbm::sim {

// camera_action_script: per chunk, three per-latent-frame key lists.
using KeyScript = std::vector<std::vector<std::vector<QString>>>;

struct StartRequest {
    QJsonObject config; // the accepted request as video.start echoes it
    QString prompt;
    QString negative_prompt;
    qint64 num_frames = 0;
    int chunk_count = 0;
    int fps = 16;
    qint64 seed = 42;
    std::optional<KeyScript> camera_script;
    QImage first_frame; // null for http(s) URLs, which are not fetched
    bool image_is_remote = false;

    // Checks a parsed session.start object (its type already checked). On refusal returns
    // nullopt and sets error to the text the server sends.
    static std::optional<StartRequest> fromJson(const QJsonObject& message,
                                                const SimulatorConfig& config, QString* error);
};

} // namespace lbm::sim
