#include "app/report/quality_json.h"

#include "app/report/json_fields.h"
#include "app/report/report_error.h"

#include <QJsonArray>

namespace lbm::report {
namespace {

QString key(const char* name) {
    return QString::fromLatin1(name);
}

QJsonValue optionalNumber(const std::optional<double>& value) {
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QJsonObject thresholdsToJson(const quality::QualityThresholds& t) {
    return {{key("seam_score"), t.seam_score},
            {key("seam_min_change"), t.seam_min_change},
            {key("seam_plain_ratio"), t.seam_plain_ratio},
            {key("motion_floor"), t.motion_floor},
            {key("freeze_change"), t.freeze_change},
            {key("freeze_min_frames"), t.freeze_min_frames},
            {key("blur_ratio"), t.blur_ratio},
            {key("tint_drift"), t.tint_drift},
            {key("transition_min_change"), t.transition_min_change},
            {key("transition_step_tolerance"), t.transition_step_tolerance},
            {key("sharpness_zoom_exponent"), t.sharpness_zoom_exponent},
            {key("steering_min_pan_px"), t.steering_min_pan_px},
            {key("steering_min_zoom"), t.steering_min_zoom},
            {key("following_min_share"), t.following_min_share}};
}

quality::QualityThresholds thresholdsFromJson(const JsonFields& fields) {
    quality::QualityThresholds t;
    t.seam_score = fields.number(key("seam_score"));
    t.seam_min_change = fields.number(key("seam_min_change"));
    t.motion_floor = fields.number(key("motion_floor"));
    t.freeze_change = fields.number(key("freeze_change"));
    t.freeze_min_frames = static_cast<int>(fields.integer(key("freeze_min_frames")));
    t.blur_ratio = fields.number(key("blur_ratio"));
    t.tint_drift = fields.number(key("tint_drift"));
    t.transition_min_change = fields.number(key("transition_min_change"));
    t.transition_step_tolerance = fields.number(key("transition_step_tolerance"));
    // Added with the steering analysis: documents written before it keep the defaults.
    const quality::QualityThresholds defaults;
    t.sharpness_zoom_exponent = fields.optionalNumber(key("sharpness_zoom_exponent"))
                                    .value_or(defaults.sharpness_zoom_exponent);
    t.steering_min_pan_px =
        fields.optionalNumber(key("steering_min_pan_px")).value_or(defaults.steering_min_pan_px);
    t.steering_min_zoom =
        fields.optionalNumber(key("steering_min_zoom")).value_or(defaults.steering_min_zoom);
    t.following_min_share =
        fields.optionalNumber(key("following_min_share")).value_or(defaults.following_min_share);
    // Added with the recalibration on the 3-D simulated world (issue 20).
    t.seam_plain_ratio =
        fields.optionalNumber(key("seam_plain_ratio")).value_or(defaults.seam_plain_ratio);
    return t;
}

QJsonObject transitionToJson(const quality::TransitionCheck& check) {
    return {{key("event_id"), check.event_id},
            {key("transition_chunks"), check.transition_chunks},
            {key("start_chunk"), static_cast<double>(check.start_chunk)},
            {key("expected_chunk"), static_cast<double>(check.expected_chunk)},
            {key("landed_chunk"), check.landed_chunk
                                      ? QJsonValue(static_cast<double>(*check.landed_chunk))
                                      : QJsonValue(QJsonValue::Null)},
            {key("verdict"), quality::transitionVerdictName(check.verdict)}};
}

quality::TransitionCheck transitionFromJson(const JsonFields& fields) {
    quality::TransitionCheck check;
    check.event_id = fields.string(key("event_id"));
    check.transition_chunks = static_cast<int>(fields.integer(key("transition_chunks")));
    check.start_chunk = fields.integer(key("start_chunk"));
    check.expected_chunk = fields.integer(key("expected_chunk"));
    check.landed_chunk = fields.optionalInteger(key("landed_chunk"));
    const QString verdict = fields.string(key("verdict"));
    const auto known = quality::transitionVerdictFromName(verdict);
    if (!known) {
        throw ReportError(QStringLiteral("The field %1 must be one of on-time, early, late, never "
                                         "(got '%2').")
                              .arg(fields.path(key("verdict")), verdict));
    }
    check.verdict = *known;
    return check;
}

QJsonObject responseToJson(const quality::SteeringResponse& response) {
    return {{key("event_id"), response.event_id},
            {key("keys"), response.keys},
            {key("command_chunk"), static_cast<double>(response.command_chunk)},
            {key("response_chunk"), response.response_chunk
                                        ? QJsonValue(static_cast<double>(*response.response_chunk))
                                        : QJsonValue(QJsonValue::Null)},
            {key("response_frame"), response.response_frame},
            {key("response_ms"), optionalNumber(response.response_ms)}};
}

quality::SteeringResponse responseFromJson(const JsonFields& fields) {
    quality::SteeringResponse response;
    response.event_id = fields.string(key("event_id"));
    response.keys = fields.string(key("keys"));
    response.command_chunk = fields.integer(key("command_chunk"));
    response.response_chunk = fields.optionalInteger(key("response_chunk"));
    response.response_frame = static_cast<int>(fields.integer(key("response_frame")));
    response.response_ms = fields.optionalNumber(key("response_ms"));
    return response;
}

QJsonObject chunkToJson(const quality::ChunkQuality& chunk) {
    QJsonArray transitions;
    for (const quality::TransitionCheck& check : chunk.transitions) {
        transitions.append(transitionToJson(check));
    }
    QJsonArray responses;
    for (const quality::SteeringResponse& response : chunk.responses) {
        responses.append(responseToJson(response));
    }
    return {{key("chunk"), static_cast<double>(chunk.generation_index)},
            {key("frames"), chunk.frame_count},
            {key("change_median"), chunk.change_median},
            {key("boundary_change"), optionalNumber(chunk.boundary_change)},
            {key("seam_score"), optionalNumber(chunk.seam_score)},
            {key("frozen_frames"), chunk.frozen_frames},
            {key("sharpness"), chunk.sharpness},
            {key("sharpness_ratio"), chunk.sharpness_ratio},
            {key("sharpness_judged"), chunk.sharpness_judged},
            {key("mean_y"), chunk.mean_y},
            {key("mean_u"), chunk.mean_u},
            {key("mean_v"), chunk.mean_v},
            {key("chroma_drift"), chunk.chroma_drift},
            {key("reference_chunk"), static_cast<double>(chunk.reference_chunk)},
            {key("in_transition"), chunk.in_transition},
            {key("camera_moving"), chunk.camera_moving},
            {key("motion_expected"), chunk.motion_expected},
            {key("transitions"), transitions},
            {key("steering_keys"), chunk.steering_keys},
            {key("steering_moves"), chunk.steering_moves},
            {key("motion_x"), optionalNumber(chunk.motion_x)},
            {key("motion_y"), optionalNumber(chunk.motion_y)},
            {key("motion_zoom_percent"), optionalNumber(chunk.motion_zoom_percent)},
            {key("following"), optionalNumber(chunk.following)},
            {key("responses"), responses},
            {key("flags"), QJsonArray::fromStringList(quality::qualityFlagNames(chunk.flags))},
            {key("notes"), QJsonArray::fromStringList(chunk.notes)},
            {key("final"), chunk.is_final}};
}

QStringList stringList(const JsonFields& fields, const char* name) {
    const QJsonValue value = fields.value(key(name));
    if (!value.isArray()) {
        throw ReportError(wrongTypeMessage(fields.path(key(name)), key("a list"), value));
    }
    QStringList strings;
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        if (!array.at(i).isString()) {
            throw ReportError(
                wrongTypeMessage(fields.path(key(name)) + QStringLiteral("[%1]").arg(i),
                                 key("a string"), array.at(i)));
        }
        strings.append(array.at(i).toString());
    }
    return strings;
}

quality::ChunkQuality chunkFromJson(const JsonFields& fields) {
    quality::ChunkQuality chunk;
    chunk.generation_index = fields.integer(key("chunk"));
    chunk.frame_count = static_cast<int>(fields.integer(key("frames")));
    chunk.change_median = fields.number(key("change_median"));
    chunk.boundary_change = fields.optionalNumber(key("boundary_change"));
    chunk.seam_score = fields.optionalNumber(key("seam_score"));
    chunk.frozen_frames = static_cast<int>(fields.integer(key("frozen_frames")));
    chunk.sharpness = fields.number(key("sharpness"));
    chunk.sharpness_ratio = fields.number(key("sharpness_ratio"));
    // (Documents written before the field judged every chunk.)
    chunk.sharpness_judged = fields.optionalBoolean(key("sharpness_judged")).value_or(true);
    chunk.mean_y = fields.number(key("mean_y"));
    chunk.mean_u = fields.number(key("mean_u"));
    chunk.mean_v = fields.number(key("mean_v"));
    chunk.chroma_drift = fields.number(key("chroma_drift"));
    chunk.reference_chunk = fields.integer(key("reference_chunk"));
    chunk.in_transition = fields.boolean(key("in_transition"));
    chunk.camera_moving = fields.boolean(key("camera_moving"));
    const QJsonValue transitions = fields.value(key("transitions"));
    if (!transitions.isArray()) {
        throw ReportError(
            wrongTypeMessage(fields.path(key("transitions")), key("a list"), transitions));
    }
    const QJsonArray transition_array = transitions.toArray();
    for (qsizetype i = 0; i < transition_array.size(); ++i) {
        chunk.transitions.push_back(transitionFromJson(
            JsonFields(transition_array.at(i),
                       fields.path(key("transitions")) + QStringLiteral("[%1]").arg(i))));
    }
    for (const QString& name : stringList(fields, "flags")) {
        const auto flag = quality::qualityFlagFromName(name);
        if (!flag) {
            throw ReportError(QStringLiteral("The field %1 holds '%2'; flags are seam, freeze, "
                                             "blur, tint, transition and action.")
                                  .arg(fields.path(key("flags")), name));
        }
        chunk.flags |= *flag;
    }
    chunk.notes = stringList(fields, "notes");
    chunk.is_final = fields.boolean(key("final"));
    // Steering and motion_expected came later; a document written before them has neither
    // (its repeated frames counted as a freeze only where flagged or the camera moved).
    chunk.motion_expected =
        fields.optionalBoolean(key("motion_expected"))
            .value_or(chunk.camera_moving || chunk.flagged(quality::QualityFlag::Freeze));
    chunk.steering_keys = fields.optionalString(key("steering_keys")).value_or(QString());
    chunk.steering_moves = fields.optionalBoolean(key("steering_moves")).value_or(false);
    chunk.motion_x = fields.optionalNumber(key("motion_x"));
    chunk.motion_y = fields.optionalNumber(key("motion_y"));
    chunk.motion_zoom_percent = fields.optionalNumber(key("motion_zoom_percent"));
    chunk.following = fields.optionalNumber(key("following"));
    if (fields.hasValue(key("responses"))) {
        const QJsonValue responses = fields.value(key("responses"));
        if (!responses.isArray()) {
            throw ReportError(
                wrongTypeMessage(fields.path(key("responses")), key("a list"), responses));
        }
        const QJsonArray response_array = responses.toArray();
        for (qsizetype i = 0; i < response_array.size(); ++i) {
            chunk.responses.push_back(responseFromJson(
                JsonFields(response_array.at(i),
                           fields.path(key("responses")) + QStringLiteral("[%1]").arg(i))));
        }
    }
    return chunk;
}

} // namespace

QJsonObject qualityToJson(const SessionQuality& quality) {
    QJsonArray chunks;
    for (const quality::ChunkQuality& chunk : quality.chunks) {
        chunks.append(chunkToJson(chunk));
    }
    const QJsonObject settings = {
        {key("thresholds"), thresholdsToJson(quality.settings.thresholds)},
        {key("edge_margin"), quality.settings.edge_margin},
        {key("sample_step"), quality.settings.sample_step}};
    return {{key("settings"), settings}, {key("chunks"), chunks}};
}

SessionQuality qualityFromJson(const QJsonValue& value, const QString& where) {
    const JsonFields fields(value, where);
    SessionQuality quality;
    const JsonFields settings(fields.value(key("settings")), fields.path(key("settings")));
    quality.settings.thresholds = thresholdsFromJson(
        JsonFields(settings.value(key("thresholds")), settings.path(key("thresholds"))));
    quality.settings.edge_margin = settings.number(key("edge_margin"));
    quality.settings.sample_step = static_cast<int>(settings.integer(key("sample_step")));
    const QJsonValue chunks = fields.value(key("chunks"));
    if (!chunks.isArray()) {
        throw ReportError(wrongTypeMessage(fields.path(key("chunks")), key("a list"), chunks));
    }
    const QJsonArray chunk_array = chunks.toArray();
    for (qsizetype i = 0; i < chunk_array.size(); ++i) {
        quality.chunks.push_back(chunkFromJson(JsonFields(
            chunk_array.at(i), fields.path(key("chunks")) + QStringLiteral("[%1]").arg(i))));
    }
    return quality;
}

std::optional<SessionQuality> sessionQuality(const SessionEntry& session, const QString& where) {
    if (!session.monitor_extras.contains(kQualityKey) ||
        session.monitor_extras.value(kQualityKey).isNull()) {
        return std::nullopt;
    }
    return qualityFromJson(session.monitor_extras.value(kQualityKey),
                           where + QLatin1Char('.') + kMonitorKey + QLatin1Char('.') + kQualityKey);
}

void setSessionQuality(SessionEntry& session, const SessionQuality& quality) {
    session.monitor_extras.insert(kQualityKey, qualityToJson(quality));
}

} // namespace lbm::report
