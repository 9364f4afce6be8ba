#include "app/protocol/session_start_message.h"

#include <QJsonDocument>

namespace lbm::protocol {

QJsonArray cameraScriptToJson(const lbm::CameraScript& script) {
    QJsonArray chunks;
    for (const lbm::ChunkActions& chunk : script) {
        QJsonArray frames;
        for (const lbm::FrameActions& frame : chunk) {
            QJsonArray keys;
            for (const std::string& key : frame) {
                keys.append(QString::fromStdString(key));
            }
            frames.append(keys);
        }
        chunks.append(frames);
    }
    return chunks;
}

QJsonObject sessionStartMessage(const lbm::Workload& workload, const QString& model) {
    QJsonObject extra_params{
        {QStringLiteral("flow_shift"), workload.flow_shift},
        {QStringLiteral("camera_action_script"), cameraScriptToJson(workload.camera_script)},
    };
    const QJsonObject workload_extra =
        QJsonDocument::fromJson(QByteArray::fromStdString(workload.extra_params_json)).object();
    for (auto it = workload_extra.constBegin(); it != workload_extra.constEnd(); ++it) {
        extra_params.insert(it.key(), it.value());
    }
    QJsonObject payload{
        {QStringLiteral("type"), QStringLiteral("session.start")},
        {QStringLiteral("model"), model},
        {QStringLiteral("prompt"), QString::fromStdString(workload.prompt)},
        {QStringLiteral("image_reference"),
         QJsonObject{
             {QStringLiteral("image_url"), QString::fromStdString(workload.image_reference)}}},
        {QStringLiteral("width"), workload.width},
        {QStringLiteral("height"), workload.height},
        {QStringLiteral("num_frames"), static_cast<qint64>(workload.numFrames())},
        {QStringLiteral("fps"), workload.fps},
        {QStringLiteral("seed"), static_cast<qint64>(workload.seed)},
        {QStringLiteral("extra_params"), extra_params},
    };
    if (workload.negative_prompt.has_value()) {
        payload.insert(QStringLiteral("negative_prompt"),
                       QString::fromStdString(*workload.negative_prompt));
    }
    return payload;
}

QJsonObject promptUpdateMessage(const lbm::PromptUpdate& update) {
    return QJsonObject{
        {QStringLiteral("type"), QStringLiteral("session.interaction")},
        {QStringLiteral("interaction"),
         QJsonObject{
             {QStringLiteral("event_id"), QString::fromStdString(update.eventId())},
             {QStringLiteral("event"),
              QJsonObject{{QStringLiteral("prompt"), QString::fromStdString(update.prompt)}}},
             {QStringLiteral("transition_chunks"), update.transition_chunks},
         }},
    };
}

} // namespace lbm::protocol
