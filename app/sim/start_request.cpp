#include "app/sim/start_request.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

#include <algorithm>
#include <cmath>

namespace lbm::sim {
namespace {

constexpr int kMaxSourceImageSide = 4096;
const QString kInvalid = QStringLiteral("Invalid session.start: ");

std::optional<qint64> integerValue(const QJsonValue& value) {
    if (!value.isDouble()) {
        return std::nullopt;
    }
    const double number = value.toDouble();
    if (!std::isfinite(number) || std::floor(number) != number || std::abs(number) > 9.0e15) {
        return std::nullopt;
    }
    return static_cast<qint64>(number);
}

bool isKey(const QString& key) {
    return key.size() == 1 && QStringLiteral("wasdijkl").contains(key[0]);
}

} // namespace

std::optional<StartRequest> StartRequest::fromJson(const QJsonObject& message,
                                                   const SimulatorConfig& config, QString* error) {
    const auto refuse = [error](const QString& text) -> std::optional<StartRequest> {
        if (error != nullptr) {
            *error = text;
        }
        return std::nullopt;
    };
    StartRequest request;

    const QJsonValue format = message.value(QStringLiteral("format"));
    if (!format.isUndefined() && !format.isNull() && format.toString() != QStringLiteral("m4s")) {
        return refuse(QStringLiteral("Invalid session.start format: expected 'm4s'."));
    }
    const QJsonValue model = message.value(QStringLiteral("model"));
    if (!model.isUndefined() && !model.isNull() && model.toString() != config.model) {
        const QString requested =
            model.isString()
                ? model.toString()
                : QString::fromUtf8(QJsonDocument(QJsonArray{model}).toJson(QJsonDocument::Compact))
                      .mid(1)
                      .chopped(1);
        return refuse(QStringLiteral("Model mismatch: requested '%1' but this server serves '%2'.")
                          .arg(requested, config.model));
    }

    const QJsonValue prompt = message.value(QStringLiteral("prompt"));
    if (!prompt.isString() || prompt.toString().trimmed().isEmpty()) {
        return refuse(kInvalid + QStringLiteral("prompt must be a non-empty string."));
    }
    request.prompt = prompt.toString();
    const QJsonValue negative = message.value(QStringLiteral("negative_prompt"));
    if (!negative.isUndefined() && !negative.isNull()) {
        if (!negative.isString()) {
            return refuse(kInvalid + QStringLiteral("negative_prompt must be a string."));
        }
        request.negative_prompt = negative.toString();
    }

    const auto width = integerValue(message.value(QStringLiteral("width")));
    const auto height = integerValue(message.value(QStringLiteral("height")));
    if (!width || !height) {
        return refuse(kInvalid + QStringLiteral("width and height must be integers."));
    }
    if (*width != config.width || *height != config.height) {
        return refuse(kInvalid + QStringLiteral("requested %1x%2 (height x width); resolution "
                                                "must match the fixed cache geometry %3x%4.")
                                     .arg(*height)
                                     .arg(*width)
                                     .arg(config.height)
                                     .arg(config.width));
    }

    const auto num_frames = integerValue(message.value(QStringLiteral("num_frames")));
    if (!num_frames || *num_frames < 1) {
        return refuse(kInvalid + QStringLiteral("num_frames must be a positive integer."));
    }
    request.num_frames = *num_frames;
    const qint64 chunks = ((*num_frames - 1) / 4 + 1) / 3;
    if (chunks < 1) {
        return refuse(kInvalid + QStringLiteral("num_frames=%1 gives 0 chunks (chunks = "
                                                "((num_frames - 1) // 4 + 1) // 3); use at "
                                                "least 9 frames (valid counts are 9 + 12k).")
                                     .arg(*num_frames));
    }
    request.chunk_count = static_cast<int>(std::min<qint64>(chunks, 1 << 20));

    const QJsonValue fps = message.value(QStringLiteral("fps"));
    if (!fps.isUndefined() && !fps.isNull()) {
        const auto value = integerValue(fps);
        if (!value || *value < 1 || *value > 240) {
            return refuse(kInvalid + QStringLiteral("fps must be a positive integer."));
        }
        request.fps = static_cast<int>(*value);
    }
    const QJsonValue seed = message.value(QStringLiteral("seed"));
    if (!seed.isUndefined() && !seed.isNull()) {
        const auto value = integerValue(seed);
        if (!value) {
            return refuse(kInvalid + QStringLiteral("seed must be an integer."));
        }
        request.seed = *value;
    }

    const QJsonValue extra = message.value(QStringLiteral("extra_params"));
    if (!extra.isUndefined() && !extra.isNull() && !extra.isObject()) {
        return refuse(kInvalid + QStringLiteral("extra_params must be an object."));
    }
    const QJsonValue script = extra.toObject().value(QStringLiteral("camera_action_script"));
    if (!script.isUndefined() && !script.isNull()) {
        if (!script.isArray()) {
            return refuse(kInvalid + QStringLiteral("camera_action_script must be a list with "
                                                    "one entry per chunk."));
        }
        const QJsonArray entries = script.toArray();
        if (entries.isEmpty()) {
            return refuse(kInvalid + QStringLiteral("camera_action_script must not be empty."));
        }
        if (entries.size() != chunks) {
            return refuse(kInvalid + QStringLiteral("camera_action_script has %1 entries but "
                                                    "num_frames=%2 generates %3 chunks; give "
                                                    "exactly one entry per chunk.")
                                         .arg(entries.size())
                                         .arg(*num_frames)
                                         .arg(chunks));
        }
        KeyScript keys;
        for (qsizetype i = 0; i < entries.size(); ++i) {
            const QJsonArray frames = entries.at(i).toArray();
            bool shaped = entries.at(i).isArray() && frames.size() == 3;
            for (const QJsonValue& frame : frames) {
                shaped = shaped && frame.isArray();
            }
            if (!shaped) {
                return refuse(kInvalid + QStringLiteral("camera_action_script[%1] must be a "
                                                        "list of 3 per-latent-frame key lists, "
                                                        "e.g. [[\"w\"], [\"w\"], []].")
                                             .arg(i));
            }
            std::vector<std::vector<QString>> chunk_keys;
            for (qsizetype j = 0; j < frames.size(); ++j) {
                std::vector<QString> frame_keys;
                for (const QJsonValue& key : frames.at(j).toArray()) {
                    if (!key.isString() || !isKey(key.toString())) {
                        const QString shown =
                            key.isString()
                                ? key.toString()
                                : QString::fromUtf8(
                                      QJsonDocument(QJsonArray{key}).toJson(QJsonDocument::Compact))
                                      .mid(1)
                                      .chopped(1);
                        return refuse(kInvalid +
                                      QStringLiteral("camera_action_script[%1][%2] has key "
                                                     "'%3'; keys must be among w, a, s, d, i, "
                                                     "j, k, l.")
                                          .arg(i)
                                          .arg(j)
                                          .arg(shown));
                    }
                    frame_keys.push_back(key.toString());
                }
                chunk_keys.push_back(frame_keys);
            }
            keys.push_back(chunk_keys);
        }
        request.camera_script = keys;
    }

    const QJsonValue url_value = message.value(QStringLiteral("image_reference"))
                                     .toObject()
                                     .value(QStringLiteral("image_url"));
    const QString url = url_value.toString();
    if (!url_value.isString() || url.trimmed().isEmpty()) {
        return refuse(kInvalid + QStringLiteral("image_reference.image_url is required "
                                                "(LingBot-World is image-conditioned: send the "
                                                "first frame as a data: or http(s):// URL)."));
    }
    if (url.startsWith(QStringLiteral("http://"), Qt::CaseInsensitive) ||
        url.startsWith(QStringLiteral("https://"), Qt::CaseInsensitive)) {
        request.image_is_remote = true;
    } else if (url.startsWith(QStringLiteral("data:"), Qt::CaseInsensitive)) {
        const qsizetype comma = url.indexOf(QLatin1Char(','));
        const QString header = comma < 0 ? QString() : url.mid(5, comma - 5);
        QImage image;
        if (comma >= 0 && header.endsWith(QStringLiteral(";base64"), Qt::CaseInsensitive)) {
            const auto decoded = QByteArray::fromBase64Encoding(
                url.mid(comma + 1).toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
            if (decoded) {
                image = QImage::fromData(*decoded);
            }
        }
        if (image.isNull()) {
            return refuse(kInvalid + QStringLiteral("image_reference data URL could not be "
                                                    "decoded as an image."));
        }
        if (image.width() > kMaxSourceImageSide || image.height() > kMaxSourceImageSide) {
            return refuse(kInvalid + QStringLiteral("image_reference is %1x%2; the source image "
                                                    "may be at most %3x%3.")
                                         .arg(image.width())
                                         .arg(image.height())
                                         .arg(kMaxSourceImageSide));
        }
        request.first_frame = image;
    } else {
        return refuse(kInvalid + QStringLiteral("image_reference.image_url must be an "
                                                "http(s):// or data: URL."));
    }

    QJsonObject accepted = message;
    accepted.remove(QStringLiteral("type"));
    accepted.insert(QStringLiteral("format"), QStringLiteral("m4s"));
    accepted.insert(QStringLiteral("model"), config.model);
    accepted.insert(QStringLiteral("fps"), request.fps);
    accepted.insert(QStringLiteral("seed"), request.seed);
    request.config = accepted;
    return request;
}

} // namespace lbm::sim
