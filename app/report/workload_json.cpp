#include "app/report/workload_json.h"

#include "app/report/python_json.h"
#include "app/report/report_error.h"
#include "metrics/constants.h"
#include "metrics/metric_error.h"
#include "metrics/python_text.h"

#include <QCborValue>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>
#include <limits>
#include <utility>

namespace lbm::report {
namespace {

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

QString fromStd(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// The value as it appears in the file, for messages.
QString jsonText(const QJsonValue& value) {
    return QString::fromUtf8(toPythonJson(value, -1));
}

// Python's truth value of a parsed JSON value (`a or b` in the seed).
bool pythonTruthy(const QJsonValue& value) {
    switch (value.type()) {
    case QJsonValue::Bool:
        return value.toBool();
    case QJsonValue::Double:
        return value.toDouble() != 0.0;
    case QJsonValue::String:
        return !value.toString().isEmpty();
    case QJsonValue::Array:
        return !value.toArray().isEmpty();
    case QJsonValue::Object:
        return !value.toObject().isEmpty();
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return false;
    }
    return false;
}

bool isNone(const QJsonValue& value) {
    return value.isNull() || value.isUndefined();
}

// Python's str() of a parsed JSON value (prompt=5 becomes "5", null becomes "None").
QString pythonStr(const QJsonValue& value, bool nested = false);

QString pythonReprList(const QJsonArray& array) {
    QStringList parts;
    for (const QJsonValue& item : array) {
        parts.append(pythonStr(item, true));
    }
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

QString pythonStr(const QJsonValue& value, bool nested) {
    switch (value.type()) {
    case QJsonValue::String:
        return nested ? fromStd(lbm::pythonRepr(value.toString().toStdString())) : value.toString();
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("True") : QStringLiteral("False");
    case QJsonValue::Double: {
        const QCborValue cbor = QCborValue::fromJsonValue(value);
        return cbor.isInteger() ? QString::number(cbor.toInteger())
                                : QString::fromStdString(lbm::pythonFloatRepr(value.toDouble()));
    }
    case QJsonValue::Array:
        return pythonReprList(value.toArray());
    case QJsonValue::Object: {
        const QJsonObject object = value.toObject();
        QStringList parts;
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            parts.append(fromStd(lbm::pythonRepr(it.key().toStdString())) + QStringLiteral(": ") +
                         pythonStr(it.value(), true));
        }
        return QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return QStringLiteral("None");
    }
    return {};
}

// Python's int() of a parsed JSON value: bools are 0/1, floats truncate toward zero,
// strings must spell an integer ("832", " 832 ", "+5"; not "832.0").
long long pythonInt(const QJsonValue& value, const QString& field) {
    const auto fail = [&](const QString& why) {
        return ReportError(QStringLiteral("Workload field %1 must be an integer; got %2%3. "
                                          "Write it as a JSON number such as 832.")
                               .arg(field, jsonText(value), why));
    };
    switch (value.type()) {
    case QJsonValue::Bool:
        return value.toBool() ? 1 : 0;
    case QJsonValue::Double: {
        const QCborValue cbor = QCborValue::fromJsonValue(value);
        if (cbor.isInteger()) {
            return cbor.toInteger();
        }
        const double number = value.toDouble();
        constexpr double kLimit = 9.2e18; // inside long long's range
        if (!std::isfinite(number) || std::fabs(number) > kLimit) {
            throw fail(QStringLiteral(" (out of range)"));
        }
        return static_cast<long long>(std::trunc(number));
    }
    case QJsonValue::String: {
        QString text = value.toString().trimmed();
        if (text.startsWith(QLatin1Char('+'))) {
            text.remove(0, 1);
        }
        bool ok = false;
        const long long number = text.toLongLong(&ok, 10);
        if (!ok) {
            throw fail(QString());
        }
        return number;
    }
    default:
        throw fail(QString());
    }
}

int pythonIntField(const QJsonValue& value, const QString& field) {
    const long long number = pythonInt(value, field);
    if (number < std::numeric_limits<int>::min() || number > std::numeric_limits<int>::max()) {
        throw ReportError(
            QStringLiteral("Workload field %1 is out of range: %2.").arg(field, jsonText(value)));
    }
    return static_cast<int>(number);
}

// Python's float(): numbers, bools, and strings such as "5", " 5.5 ", "1e3", "inf".
double pythonFloat(const QJsonValue& value, const QString& field) {
    switch (value.type()) {
    case QJsonValue::Bool:
        return value.toBool() ? 1.0 : 0.0;
    case QJsonValue::Double:
        return value.toDouble();
    case QJsonValue::String: {
        const QString text = value.toString().trimmed();
        const QString lower = text.toLower();
        const bool negative = lower.startsWith(QLatin1Char('-'));
        QString unsigned_text = lower;
        if (negative || lower.startsWith(QLatin1Char('+'))) {
            unsigned_text.remove(0, 1);
        }
        if (unsigned_text == QStringLiteral("inf") || unsigned_text == QStringLiteral("infinity")) {
            return negative ? -std::numeric_limits<double>::infinity()
                            : std::numeric_limits<double>::infinity();
        }
        if (unsigned_text == QStringLiteral("nan")) {
            return std::numeric_limits<double>::quiet_NaN();
        }
        bool ok = false;
        const double number = text.toDouble(&ok);
        if (ok) {
            return number;
        }
        break;
    }
    default:
        break;
    }
    throw ReportError(QStringLiteral("Workload field %1 must be a number; got %2. Write it as a "
                                     "JSON number such as 5.0.")
                          .arg(field, jsonText(value)));
}

// _validate_camera_script on untyped JSON: the seed's checks and messages, in its order.
lbm::CameraScript cameraScriptFromJson(const QJsonValue& value) {
    const auto chunkPrefix = [](qsizetype chunk_index) {
        return "camera_action_script[" + std::to_string(chunk_index) + "]";
    };
    if (value.isString() || value.isObject()) {
        // Python iterates a str by character and a dict by key: every element is a str.
        const bool empty =
            value.isString() ? value.toString().isEmpty() : value.toObject().isEmpty();
        if (empty) {
            throw lbm::MetricError("camera_action_script must not be empty.");
        }
        throw lbm::MetricError(chunkPrefix(0) + " must be a list of three action lists.");
    }
    if (!value.isArray()) {
        throw ReportError(QStringLiteral("Workload camera_action_script must be a list with one "
                                         "list of three action lists per chunk; got %1.")
                              .arg(jsonText(value)));
    }
    const QJsonArray chunks = value.toArray();
    lbm::CameraScript script;
    script.reserve(static_cast<std::size_t>(chunks.size()));
    for (qsizetype chunk_index = 0; chunk_index < chunks.size(); ++chunk_index) {
        const QJsonValue actions = chunks.at(chunk_index);
        if (!actions.isArray()) {
            throw lbm::MetricError(chunkPrefix(chunk_index) +
                                   " must be a list of three action lists.");
        }
        const QJsonArray frames = actions.toArray();
        if (frames.size() != lbm::kFramesPerBlock) {
            throw lbm::MetricError(chunkPrefix(chunk_index) + " must hold exactly " +
                                   std::to_string(lbm::kFramesPerBlock) + " action lists (got " +
                                   std::to_string(frames.size()) + "); one AR block is " +
                                   std::to_string(lbm::kFramesPerBlock) + " latent frames.");
        }
        lbm::ChunkActions chunk;
        for (qsizetype frame_index = 0; frame_index < frames.size(); ++frame_index) {
            const QJsonValue frame = frames.at(frame_index);
            const std::string frame_prefix =
                chunkPrefix(chunk_index) + "[" + std::to_string(frame_index) + "]";
            if (!frame.isArray()) {
                throw lbm::MetricError(frame_prefix + " must be a list of strings.");
            }
            lbm::FrameActions keys;
            for (const QJsonValue& key : frame.toArray()) {
                if (!key.isString()) {
                    throw lbm::MetricError(frame_prefix + " must contain only strings.");
                }
                keys.push_back(key.toString().toStdString());
            }
            chunk.push_back(std::move(keys));
        }
        script.push_back(std::move(chunk));
    }
    if (script.empty()) {
        throw lbm::MetricError("camera_action_script must not be empty.");
    }
    return script;
}

std::vector<lbm::PromptUpdate> promptUpdatesFromJson(const QJsonValue& value) {
    std::vector<lbm::PromptUpdate> updates;
    if (!pythonTruthy(value)) {
        return updates;
    }
    if (!value.isArray()) {
        throw ReportError(QStringLiteral("Workload prompt_updates must be a list of objects such "
                                         "as {\"after_chunk\": 4, \"prompt\": \"...\"}; got %1.")
                              .arg(jsonText(value)));
    }
    const QJsonArray entries = value.toArray();
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const QString where = QStringLiteral("prompt_updates[%1]").arg(i);
        if (!entries.at(i).isObject()) {
            throw ReportError(
                QStringLiteral("Workload %1 must be an object with after_chunk and prompt; got %2.")
                    .arg(where, jsonText(entries.at(i))));
        }
        const QJsonObject entry = entries.at(i).toObject();
        for (const QString& key : {QStringLiteral("after_chunk"), QStringLiteral("prompt")}) {
            if (!entry.contains(key)) {
                throw ReportError(QStringLiteral("Workload %1 needs a %2 field.").arg(where, key));
            }
        }
        lbm::PromptUpdate update;
        update.after_chunk =
            pythonIntField(entry.value(QStringLiteral("after_chunk")), where + u".after_chunk");
        update.prompt = pythonStr(entry.value(QStringLiteral("prompt"))).toStdString();
        update.transition_chunks =
            entry.contains(QStringLiteral("transition_chunks"))
                ? pythonIntField(entry.value(QStringLiteral("transition_chunks")),
                                 where + u".transition_chunks")
                : lbm::kDefaultTransitionChunks;
        // The seed's PromptUpdate validates itself on construction, before the next entry.
        update.validate();
        updates.push_back(std::move(update));
    }
    return updates;
}

// merged.get(key, default) where a present null is kept (Python returns None then).
QJsonValue getOr(const QJsonObject& merged, const QString& key, const QJsonValue& fallback) {
    return merged.contains(key) ? merged.value(key) : fallback;
}

} // namespace

lbm::Workload loadWorkloadFile(const QString& path, const WorkloadOverrides& overrides,
                               ImageResolver resolver) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        throw ReportError(QStringLiteral("Cannot read the workload file %1: %2. Check the "
                                         "--workload path.")
                              .arg(path, file.errorString()));
    }
    const QByteArray bytes = file.readAll();
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError) {
        throw ReportError(QStringLiteral("The workload file %1 is not valid JSON: %2 at byte %3.")
                              .arg(path, error.errorString())
                              .arg(error.offset));
    }
    if (!document.isObject()) {
        throw lbm::MetricError("A workload file must contain a JSON object.");
    }
    return loadWorkloadDocument(document.object(), overrides, std::move(resolver));
}

lbm::Workload loadWorkloadDocument(const QJsonObject& document, const WorkloadOverrides& overrides,
                                   ImageResolver resolver) {
    QJsonObject merged = document;
    const auto apply = [&merged](const char* key, const auto& value) {
        if (value.has_value()) {
            merged.insert(QString::fromLatin1(key), QJsonValue(*value));
        }
    };
    apply("prompt", overrides.prompt);
    apply("negative_prompt", overrides.negative_prompt);
    apply("width", overrides.width);
    apply("height", overrides.height);
    apply("fps", overrides.fps);
    if (overrides.seed.has_value()) {
        merged.insert(QStringLiteral("seed"), QJsonValue(static_cast<qint64>(*overrides.seed)));
    }
    apply("flow_shift", overrides.flow_shift);

    lbm::Workload workload;
    const QJsonValue script_value = merged.value(QStringLiteral("camera_action_script"));
    const bool script_given = !isNone(script_value);
    if (!script_given) {
        const QJsonValue num_chunks = merged.value(QStringLiteral("num_chunks"));
        if (isNone(num_chunks)) {
            throw lbm::MetricError(
                "A workload file needs either camera_action_script or num_chunks.");
        }
        const long long chunk_count = pythonInt(num_chunks, QStringLiteral("num_chunks"));
        if (chunk_count > kMaxWorkloadChunks) {
            throw ReportError(QStringLiteral("Workload field num_chunks is out of range: %1. A "
                                             "session holds at most %2 chunks (the server "
                                             "refuses a larger session.start).")
                                  .arg(jsonText(num_chunks))
                                  .arg(kMaxWorkloadChunks));
        }
        const QString pattern =
            pythonStr(getOr(merged, QStringLiteral("camera_pattern"), QStringLiteral("forward")));
        workload.camera_script = lbm::buildCameraScript(chunk_count, pattern.toStdString());
    }

    const QJsonValue image_field = merged.value(QStringLiteral("image"));
    const QJsonValue image =
        pythonTruthy(image_field) ? image_field : merged.value(QStringLiteral("image_reference"));
    if (isNone(image)) {
        throw lbm::MetricError("A workload file needs an image or image_reference field.");
    }
    const QString image_text = pythonStr(image);
    workload.image_reference = (resolver ? resolver(image_text) : image_text).toStdString();

    workload.prompt_updates = promptUpdatesFromJson(merged.value(QStringLiteral("prompt_updates")));

    const QJsonValue extra_field = merged.value(QStringLiteral("extra_params"));
    const QJsonValue extra_params = pythonTruthy(extra_field) ? extra_field : QJsonObject();
    if (!extra_params.isObject()) {
        throw lbm::MetricError("Workload extra_params must be a JSON object.");
    }
    workload.extra_params_json =
        QJsonDocument(extra_params.toObject()).toJson(QJsonDocument::Compact).toStdString();

    const QString default_prompt = fromStd(lbm::kDefaultPrompt);
    workload.prompt =
        pythonStr(getOr(merged, QStringLiteral("prompt"), default_prompt)).toStdString();
    workload.width = pythonIntField(getOr(merged, QStringLiteral("width"), lbm::kDefaultWidth),
                                    QStringLiteral("width"));
    workload.height = pythonIntField(getOr(merged, QStringLiteral("height"), lbm::kDefaultHeight),
                                     QStringLiteral("height"));
    workload.fps = pythonIntField(getOr(merged, QStringLiteral("fps"), lbm::kDefaultFps),
                                  QStringLiteral("fps"));
    workload.seed =
        pythonInt(getOr(merged, QStringLiteral("seed"), lbm::kDefaultSeed), QStringLiteral("seed"));
    workload.flow_shift =
        pythonFloat(getOr(merged, QStringLiteral("flow_shift"), lbm::kDefaultFlowShift),
                    QStringLiteral("flow_shift"));
    const QJsonValue negative = merged.value(QStringLiteral("negative_prompt"));
    if (negative.isString()) {
        workload.negative_prompt = negative.toString().toStdString();
    } else if (!isNone(negative)) {
        throw ReportError(QStringLiteral("Workload negative_prompt must be a string or null; got "
                                         "%1.")
                              .arg(jsonText(negative)));
    }

    if (script_given) {
        // __post_init__ checks prompt, image, geometry and fps before the script; run those
        // first on a copy whose script is trivially valid, so the seed's first error wins.
        lbm::Workload earlier_checks = workload;
        earlier_checks.camera_script = {lbm::ChunkActions(lbm::kFramesPerBlock)};
        earlier_checks.prompt_updates.clear();
        earlier_checks.validate();
        workload.camera_script = cameraScriptFromJson(script_value);
    }
    workload.validate();
    return workload;
}

QJsonObject describeWorkload(const lbm::Workload& workload) {
    QJsonArray updates;
    for (const lbm::PromptUpdate& update : workload.prompt_updates) {
        updates.append(
            QJsonObject{{QStringLiteral("after_chunk"), update.after_chunk},
                        {QStringLiteral("transition_chunks"), update.transition_chunks}});
    }
    return QJsonObject{
        {QStringLiteral("num_chunks"), static_cast<qint64>(workload.numChunks())},
        {QStringLiteral("num_frames"), static_cast<qint64>(workload.numFrames())},
        {QStringLiteral("width"), workload.width},
        {QStringLiteral("height"), workload.height},
        {QStringLiteral("fps"), workload.fps},
        {QStringLiteral("seed"), static_cast<qint64>(workload.seed)},
        {QStringLiteral("flow_shift"), workload.flow_shift},
        {QStringLiteral("video_seconds"), workload.videoSeconds()},
        {QStringLiteral("prompt_updates"), updates},
    };
}

QString imageMimeTypeForPath(const QString& path) {
    // The image types Python's mimetypes.guess_type knows, by extension.
    static const QList<std::pair<QString, QString>> kTypes = {
        {QStringLiteral("png"), QStringLiteral("image/png")},
        {QStringLiteral("jpg"), QStringLiteral("image/jpeg")},
        {QStringLiteral("jpeg"), QStringLiteral("image/jpeg")},
        {QStringLiteral("jpe"), QStringLiteral("image/jpeg")},
        {QStringLiteral("gif"), QStringLiteral("image/gif")},
        {QStringLiteral("bmp"), QStringLiteral("image/bmp")},
        {QStringLiteral("webp"), QStringLiteral("image/webp")},
        {QStringLiteral("tif"), QStringLiteral("image/tiff")},
        {QStringLiteral("tiff"), QStringLiteral("image/tiff")},
        {QStringLiteral("svg"), QStringLiteral("image/svg+xml")},
        {QStringLiteral("ico"), QStringLiteral("image/vnd.microsoft.icon")},
        {QStringLiteral("avif"), QStringLiteral("image/avif")},
    };
    const QString suffix = QFileInfo(path).suffix().toLower();
    for (const auto& [extension, mime] : kTypes) {
        if (extension == suffix) {
            return mime;
        }
    }
    return QStringLiteral("image/png");
}

QString resolveImageReference(const QString& image) {
    if (image.startsWith(QStringLiteral("http://")) ||
        image.startsWith(QStringLiteral("https://")) || image.startsWith(QStringLiteral("data:"))) {
        return image;
    }
    QFile file(image);
    if (!QFileInfo(image).isFile() || !file.open(QIODevice::ReadOnly)) {
        throw ReportError(
            QStringLiteral("--image is neither a URL nor a readable file: %1").arg(image));
    }
    return QStringLiteral("data:") + imageMimeTypeForPath(image) + QStringLiteral(";base64,") +
           QString::fromLatin1(file.readAll().toBase64());
}

} // namespace lbm::report
