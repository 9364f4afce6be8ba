#include "app/protocol/server_error_text.h"

#include <array>
#include <string_view>
#include <utility>

namespace lbm::protocol {
namespace {

bool startsWith(const QString& message, const char* prefix) {
    return message.startsWith(QLatin1String(prefix));
}

bool contains(const QString& message, const char* part) {
    return message.contains(QLatin1String(part));
}

} // namespace

bool isInteractionRefusal(const QString& message) {
    return startsWith(message, "session.interaction ") ||
           message == QLatin1String("event_id_conflict") ||
           message == QLatin1String("Failed to apply interaction");
}

bool isControlLoopError(const QString& message) {
    return isInteractionRefusal(message) || message == QLatin1String("control message too large") ||
           message == QLatin1String("Invalid JSON message") ||
           message == QLatin1String("WebSocket messages must be JSON objects") ||
           startsWith(message, "Unknown message type: ");
}

QString serverErrorAdvice(const QString& message) {
    // Matched by a part of the text that stays the same whatever the values in it.
    static const std::array<std::pair<const char*, const char*>, 21> kAdvice = {{
        {"must match the fixed cache geometry",
         "Keep --width 832 --height 480: the server's KV cache geometry is fixed."},
        {"Model mismatch:",
         "Pass the model name the server was started with (--model), or leave it out."},
        {"Timeout waiting for session.start",
         "session.start must follow within 10 s of connecting; check that the client can read "
         "its image and workload quickly."},
        {"session.start message too large",
         "Keep session.start under 4 MiB: use a smaller first frame or an http(s):// URL."},
        {"Cannot use mid-generation camera interaction together with camera_action_script",
         "Start the session without a camera script (camera_pattern) to steer it."},
        {"Stall timeout: no generation progress",
         "Keep --ping-interval on (default 20 s): the first block can compile for minutes."},
        {"provided content is not a valid image",
         "Give the first frame as a PNG or JPEG file, or an http(s):// or data:image/... URL of "
         "one."},
        {"image data is not valid base64",
         "The data: URL of the first frame is not valid base64; give the image file instead."},
        {"must be an http(s) URL or data URL",
         "--image must be a file, an http(s):// URL or a data:image/...;base64 URL."},
        {"failed to download image",
         "The server could not fetch the image URL: check it is reachable from the server, or "
         "give a local file (it is sent inline)."},
        {"file_id is not supported",
         "Send the first frame as image_reference.image_url, not file_id."},
        {"requires an input image",
         "LingBot-World needs a first frame: give --image (or the workload's image)."},
        {"gives no complete AR block",
         "Ask for whole chunks: num_frames = 9 + 12k (lingbot-monitor's --num-chunks does)."},
        {"camera_action_script must hold exactly one action list per generated chunk",
         "Give one camera_action_script entry per chunk, or let --camera-pattern build it."},
        {"camera_action_script entries must be exactly 3 lists",
         "Each camera_action_script entry is three lists of keys from w a s d i j k l, e.g. "
         "[[\"w\"], [\"w\"], [\"w\"]]."},
        {"preencode_mp4 is not supported",
         "Remove preencode_mp4 from extra_params: streaming sessions mux their own fMP4."},
        {"Invalid session.start format",
         "Send format \"m4s\" or leave it out: it is the only streaming format."},
        {"Invalid session.start:",
         "A session.start field has the wrong type or value; the text above names it."},
        {"'text'", "The server read a binary frame where it expected session.start as text."},
        {"event_id_conflict",
         "Every interaction needs a fresh event_id; lingbot-monitor mints them, so only "
         "hand-written clients hit this."},
        {"Failed to apply interaction",
         "The engine did not take the interaction: the session had finished generating, or the "
         "interaction's data was not valid for this model."},
    }};
    for (const auto& [part, advice] : kAdvice) {
        if (contains(message, part) &&
            (std::string_view(part) != "'text'" || message == QLatin1String("'text'"))) {
            return QString::fromUtf8(advice);
        }
    }
    return {};
}

} // namespace lbm::protocol
