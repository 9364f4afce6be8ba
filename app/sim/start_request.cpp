#include "app/sim/start_request.h"

#include "app/sim/py_value.h"
#include "app/sim/request_model.h"

#include <QByteArray>
#include <QJsonValue>
#include <QStringList>

#include <algorithm>

namespace lbm::sim {
namespace {

constexpr qsizetype kMaxStartCharacters = 4 * 1024 * 1024;
constexpr int kMaxSourceImageSide = 4096;
constexpr int kDefaultMuxFps = 24; // VideoGenerationRequest's DEFAULT_FPS

// VideoGenerationRequest's fields: what sampling_params may promote to the top level.
const QStringList& modelFields() {
    static const QStringList fields = {QStringLiteral("model"),
                                       QStringLiteral("prompt"),
                                       QStringLiteral("seconds"),
                                       QStringLiteral("size"),
                                       QStringLiteral("image_reference"),
                                       QStringLiteral("video_reference"),
                                       QStringLiteral("audio_reference"),
                                       QStringLiteral("video_params"),
                                       QStringLiteral("user"),
                                       QStringLiteral("width"),
                                       QStringLiteral("height"),
                                       QStringLiteral("fps"),
                                       QStringLiteral("num_frames"),
                                       QStringLiteral("negative_prompt"),
                                       QStringLiteral("num_inference_steps"),
                                       QStringLiteral("guidance_scale"),
                                       QStringLiteral("guidance_scale_2"),
                                       QStringLiteral("boundary_ratio"),
                                       QStringLiteral("flow_shift"),
                                       QStringLiteral("true_cfg_scale"),
                                       QStringLiteral("seed"),
                                       QStringLiteral("generate_sound"),
                                       QStringLiteral("sound_duration"),
                                       QStringLiteral("enable_frame_interpolation"),
                                       QStringLiteral("frame_interpolation_exp"),
                                       QStringLiteral("frame_interpolation_scale"),
                                       QStringLiteral("frame_interpolation_model_path"),
                                       QStringLiteral("lora"),
                                       QStringLiteral("extra_params")};
    return fields;
}

// The handler's _coerce_request_data: type, format and sampling_params leave; sampling_params'
// model fields the request does not set move up, the rest joins extra_params.
PyValue requestData(const PyValue& message) {
    PyValue data = message;
    data.remove(QStringLiteral("type"));
    data.remove(QStringLiteral("format"));
    data.remove(QStringLiteral("sampling_params"));
    const PyValue* sampling = message.get(QStringLiteral("sampling_params"));
    if (sampling == nullptr || sampling->type() != PyValue::Type::Dict) {
        return data;
    }
    const PyValue* existing = data.get(QStringLiteral("extra_params"));
    PyValue extra = existing != nullptr && existing->type() == PyValue::Type::Dict
                        ? *existing
                        : PyValue::dict({});
    for (const auto& [key, value] : sampling->entries()) {
        if (modelFields().contains(key) && !data.contains(key)) {
            data.set(key, value);
        } else {
            extra.set(key, value);
        }
    }
    if (!extra.entries().isEmpty()) {
        data.set(QStringLiteral("extra_params"), extra);
    }
    return data;
}

// Python's base64.b64decode without validation: characters outside the alphabet are
// dropped; the data must still be correctly padded.
std::optional<QByteArray> lenientBase64(const QString& text) {
    QByteArray data;
    int padding = 0;
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        const bool alphabet = (u >= u'A' && u <= u'Z') || (u >= u'a' && u <= u'z') ||
                              (u >= u'0' && u <= u'9') || u == u'+' || u == u'/';
        if (alphabet && padding == 0) {
            data.append(static_cast<char>(u));
        } else if (u == u'=') {
            ++padding;
        }
    }
    const qsizetype rest = data.size() % 4;
    if (rest == 1 || (rest == 2 && padding < 2) || (rest == 3 && padding < 1)) {
        return std::nullopt;
    }
    return QByteArray::fromBase64(data);
}

// decode_image_url for data: URLs (http(s) URLs are not fetched by the simulator). Returns
// the handler's error text, empty when the image decoded.
QString decodeImage(const QString& url, StartRequest& request) {
    if (url.startsWith(QStringLiteral("data:image"))) {
        const qsizetype comma = url.indexOf(QLatin1Char(','));
        if (comma < 0) {
            // The handler's unpacking of url.split(",", 1) fails outside its own checks.
            return QStringLiteral("not enough values to unpack (expected 2, got 1)");
        }
        const auto bytes = lenientBase64(url.mid(comma + 1));
        if (!bytes) {
            return QStringLiteral(
                "400: Invalid image_reference.image_url: image data is not valid base64.");
        }
        request.first_frame = QImage::fromData(*bytes);
        if (request.first_frame.isNull()) {
            return QStringLiteral(
                "400: Invalid image_reference.image_url: provided content is not a valid image.");
        }
        return {};
    }
    if (url.startsWith(QStringLiteral("http://")) || url.startsWith(QStringLiteral("https://"))) {
        request.image_is_remote = true;
        return {};
    }
    return QStringLiteral(
        "400: Invalid image_reference.image_url: must be an http(s) URL or data URL.");
}

QString pyOptional(const std::optional<qint64>& value) {
    return value ? QString::number(*value) : QStringLiteral("None");
}

// The engine's checks, in the harness's fake LingBot-World engine's order and words.
QString engineRefusal(const StartRequest& request, const std::optional<qint64>& width,
                      const std::optional<qint64>& height, const SimulatorConfig& config,
                      const std::optional<PyValue>& script) {
    if (!width || !height || *width != config.width || *height != config.height) {
        return QStringLiteral("Requested resolution %1x%2 must match the fixed cache geometry "
                              "%3x%4.")
            .arg(pyOptional(width), pyOptional(height))
            .arg(config.height)
            .arg(config.width);
    }
    if (request.first_frame.isNull() && !request.image_is_remote) {
        return QStringLiteral("LingBot-World requires an input image (image_reference).");
    }
    if (request.chunk_count < 1) {
        return QStringLiteral("num_frames=%1 gives no complete AR block; use 9 + 12k.")
            .arg(request.num_frames);
    }
    if (script && !script->isNone()) {
        if (script->type() != PyValue::Type::List ||
            script->items().size() != request.chunk_count) {
            const QString got = script->type() == PyValue::Type::List
                                    ? QString::number(script->items().size())
                                    : script->typeName();
            return QStringLiteral("camera_action_script must hold exactly one action list per "
                                  "generated chunk (%1 for num_frames=%2), got %3.")
                .arg(request.chunk_count)
                .arg(request.num_frames)
                .arg(got);
        }
        for (const PyValue& entry : script->items()) {
            bool shaped = entry.type() == PyValue::Type::List && entry.items().size() == 3;
            for (const PyValue& keys : entry.items()) {
                shaped = shaped && keys.type() == PyValue::Type::List;
                for (const PyValue& key : keys.items()) {
                    shaped = shaped && key.type() == PyValue::Type::Str &&
                             key.toStr().size() == 1 &&
                             QStringLiteral("wasdijkl").contains(key.toStr());
                }
            }
            if (!shaped) {
                return QStringLiteral("camera_action_script entries must be exactly 3 lists of "
                                      "keys from 'wasdijkl'.");
            }
        }
    }
    if (request.first_frame.width() > kMaxSourceImageSide ||
        request.first_frame.height() > kMaxSourceImageSide) {
        return QStringLiteral("Requested image_reference is %1x%2; the source image may be at "
                              "most %3x%3.")
            .arg(request.first_frame.width())
            .arg(request.first_frame.height())
            .arg(kMaxSourceImageSide);
    }
    return {};
}

KeyScript keyScript(const PyValue& script) {
    KeyScript keys;
    for (const PyValue& entry : script.items()) {
        std::vector<std::vector<QString>> chunk;
        for (const PyValue& frame : entry.items()) {
            std::vector<QString> frame_keys;
            for (const PyValue& key : frame.items()) {
                frame_keys.push_back(key.toStr());
            }
            chunk.push_back(frame_keys);
        }
        keys.push_back(chunk);
    }
    return keys;
}

// Everything the handler does between video.start and the first chunk that can refuse.
void resolveAfterStart(const VideoRequest& video, const SimulatorConfig& config,
                       StartRequest& request) {
    // resolve_video_params: top-level values, then video_params', then size; fps defaults.
    std::optional<qint64> width = video.width ? video.width : video.vp_width;
    std::optional<qint64> height = video.height ? video.height : video.vp_height;
    const qint64 fps = video.fps.value_or(video.vp_fps.value_or(kDefaultMuxFps));
    std::optional<qint64> num_frames = video.num_frames ? video.num_frames : video.vp_num_frames;
    if (video.size) {
        const QStringList parts = video.size->split(QLatin1Char('x'));
        width = parts.value(0).toLongLong();
        height = parts.value(1).toLongLong();
        if (*width <= 0 || *height <= 0) {
            request.post_start_error =
                QStringLiteral("Invalid size: %1x%2. Width and height must be positive integers.")
                    .arg(*width)
                    .arg(*height);
            return;
        }
    }
    if (!num_frames && video.seconds) {
        num_frames = video.seconds->toLongLong() * fps;
    }
    request.fps = static_cast<int>(std::clamp<qint64>(fps, 1, 1000));
    // The engine's default when nothing asks for frames: one frame, i.e. no chunk.
    request.num_frames = num_frames.value_or(1);
    request.chunk_count =
        static_cast<int>(std::clamp<qint64>(((request.num_frames - 1) / 4 + 1) / 3, 0, 1 << 20));

    if (video.image_file_id) {
        request.post_start_error =
            QStringLiteral("400: Invalid image_reference: file_id is not supported yet.");
        return;
    }
    if (video.image_url) {
        request.post_start_error = decodeImage(*video.image_url, request);
        if (!request.post_start_error.isEmpty()) {
            return;
        }
    }
    const PyValue* preencode =
        video.extra_params ? video.extra_params->get(QStringLiteral("preencode_mp4")) : nullptr;
    if (config.handler == HandlerVersion::Newest && preencode != nullptr && preencode->truthy()) {
        request.post_start_error =
            QStringLiteral("400: preencode_mp4 is not supported for streaming video sessions.");
        return;
    }
    std::optional<PyValue> script;
    if (video.extra_params) {
        if (const PyValue* value =
                video.extra_params->get(QStringLiteral("camera_action_script"))) {
            script = *value;
        }
    }
    request.post_start_error = engineRefusal(request, width, height, config, script);
    if (request.post_start_error.isEmpty() && script && !script->isNone()) {
        request.camera_script = keyScript(*script);
    }
}

} // namespace

StartOutcome parseStartRequest(const QString& text, const SimulatorConfig& config) {
    const auto refuse = [](const QString& reason) { return StartOutcome{std::nullopt, reason}; };
    if (text.size() > kMaxStartCharacters) {
        return refuse(QStringLiteral("session.start message too large"));
    }
    const auto message = PyValue::parse(text);
    if (!message) {
        return refuse(QStringLiteral("Invalid JSON in session.start"));
    }
    if (message->type() != PyValue::Type::Dict) {
        return refuse(QStringLiteral("session.start must be a JSON object"));
    }
    const PyValue* type = message->get(QStringLiteral("type"));
    if (type == nullptr || type->type() != PyValue::Type::Str ||
        type->toStr() != QStringLiteral("session.start")) {
        return refuse(QStringLiteral("Expected session.start, got: ") +
                      (type != nullptr ? type->str() : QStringLiteral("None")));
    }
    // msg.pop("format", "m4s"): a null format is not the default.
    const PyValue* format = message->get(QStringLiteral("format"));
    if (format != nullptr &&
        (format->type() != PyValue::Type::Str || format->toStr() != QStringLiteral("m4s"))) {
        return refuse(QStringLiteral("Invalid session.start format: expected 'm4s'."));
    }
    QString validation;
    const auto video = validateVideoRequest(requestData(*message), &validation);
    if (!video) {
        return refuse(QStringLiteral("Invalid session.start: ") + validation);
    }
    if (video->model && *video->model != config.model) {
        return refuse(QStringLiteral("Model mismatch: request specifies '%1' but server is "
                                     "running '%2'.")
                          .arg(*video->model, config.model));
    }
    StartRequest request;
    request.config = video->dump;
    request.prompt = video->prompt;
    request.seed = video->seed.value_or(0);
    resolveAfterStart(*video, config, request);
    return StartOutcome{request, {}};
}

} // namespace lbm::sim
