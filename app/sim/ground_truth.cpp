#include "app/sim/ground_truth.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <map>

namespace lbm::sim {
namespace {

QJsonObject motion(const CameraVelocity& velocity) {
    return {{QStringLiteral("x"), velocity.translation.x()},
            {QStringLiteral("y"), velocity.translation.y()},
            {QStringLiteral("z"), velocity.translation.z()},
            {QStringLiteral("yaw_deg"), velocity.yawDeg()},
            {QStringLiteral("pitch_deg"), velocity.pitchDeg()}};
}

QJsonValue orNull(const QString& text) {
    return text.isEmpty() ? QJsonValue() : QJsonValue(text);
}

QVector3D vector(const QJsonObject& object) {
    return QVector3D(static_cast<float>(object.value(QStringLiteral("x")).toDouble()),
                     static_cast<float>(object.value(QStringLiteral("y")).toDouble()),
                     static_cast<float>(object.value(QStringLiteral("z")).toDouble()));
}

} // namespace

QJsonObject groundTruthFrameRecord(const FrameState& frame, int frame_in_chunk, int objects_visible,
                                   int objects_entered) {
    const QVector3D& position = frame.pose.position;
    QJsonObject record{
        {QStringLiteral("type"), QStringLiteral("frame")},
        {QStringLiteral("chunk"), static_cast<double>(frame.generation_chunk_index)},
        {QStringLiteral("frame"), static_cast<double>(frame.frame_number)},
        {QStringLiteral("frame_in_chunk"), frame_in_chunk},
        {QStringLiteral("pose"), QJsonObject{{QStringLiteral("x"), position.x()},
                                             {QStringLiteral("y"), position.y()},
                                             {QStringLiteral("z"), position.z()},
                                             {QStringLiteral("yaw_deg"), frame.pose.yawDeg()},
                                             {QStringLiteral("pitch_deg"), frame.pose.pitchDeg()}}},
        {QStringLiteral("velocity"), motion(frame.applied)},
        {QStringLiteral("commanded"), motion(frame.commanded)},
        {QStringLiteral("camera_event"), orNull(frame.camera_event_id)},
        {QStringLiteral("prompt_event"), orNull(frame.prompt_event_id)},
        {QStringLiteral("faults"), QJsonArray::fromStringList(frame.faults)},
        {QStringLiteral("objects_visible"), objects_visible},
        {QStringLiteral("objects_entered"), objects_entered}};
    record.insert(
        QStringLiteral("transition"),
        frame.prompt_event_id.isEmpty()
            ? QJsonValue()
            : QJsonObject{{QStringLiteral("event_id"), frame.prompt_event_id},
                          {QStringLiteral("chunks"), static_cast<double>(frame.transition_chunks)},
                          {QStringLiteral("progress"), frame.transition_progress}});
    return record;
}

GroundTruthRecorder::GroundTruthRecorder(quint64 seed, int width, int height)
    : m_layout(seed)
    , m_seed(seed)
    , m_width(width)
    , m_height(height) {}

QJsonObject GroundTruthRecorder::worldRecord(const QString& realism) const {
    return {{QStringLiteral("type"), QStringLiteral("world")},
            {QStringLiteral("seed"), static_cast<double>(m_seed)},
            {QStringLiteral("width"), m_width},
            {QStringLiteral("height"), m_height},
            {QStringLiteral("realism"), realism},
            {QStringLiteral("horizontal_fov_deg"), kHorizontalFovDeg},
            {QStringLiteral("metres_per_unit"), kMetresPerUnit}};
}

std::vector<QJsonObject> GroundTruthRecorder::frameRecords(const ChunkPlan& plan) {
    std::vector<QJsonObject> records;
    int index = 0;
    for (const FrameState& frame : plan.frames) {
        std::vector<qint64> visible = m_layout.visibleObjectIds(frame.pose, m_width, m_height);
        std::vector<qint64> entered;
        std::set_difference(visible.cbegin(), visible.cend(), m_visible.cbegin(), m_visible.cend(),
                            std::back_inserter(entered));
        records.push_back(groundTruthFrameRecord(frame, index++, static_cast<int>(visible.size()),
                                                 static_cast<int>(entered.size())));
        m_visible = std::move(visible);
    }
    return records;
}

bool FrameTruth::moving() const {
    // The log's angles carry float noise (about 1e-7 degrees where nothing turns).
    constexpr double kStill = 1e-4;
    return velocity.length() > kStill || std::abs(velocity_yaw_deg) > kStill ||
           std::abs(velocity_pitch_deg) > kStill;
}

bool FrameTruth::hasFault(const QString& kind) const {
    return std::any_of(faults.cbegin(), faults.cend(), [&kind](const QString& fault) {
        return fault.section(QLatin1Char('@'), 0, 0) == kind;
    });
}

std::optional<GroundTruthLog> GroundTruthLog::read(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        if (error != nullptr) {
            *error = QStringLiteral("Cannot read the simulator log '%1': %2.")
                         .arg(path, file.errorString());
        }
        return std::nullopt;
    }
    GroundTruthLog log;
    int line_number = 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        ++line_number;
        if (line.isEmpty()) {
            continue;
        }
        const QJsonObject record = QJsonDocument::fromJson(line).object();
        const QString type = record.value(QStringLiteral("type")).toString();
        if (type == QStringLiteral("world")) {
            WorldTruth world;
            world.session = record.value(QStringLiteral("session")).toInt();
            world.seed = static_cast<qint64>(record.value(QStringLiteral("seed")).toDouble());
            world.width = record.value(QStringLiteral("width")).toInt();
            world.height = record.value(QStringLiteral("height")).toInt();
            world.realism = record.value(QStringLiteral("realism")).toString();
            world.horizontal_fov_deg =
                record.value(QStringLiteral("horizontal_fov_deg")).toDouble();
            world.metres_per_unit = record.value(QStringLiteral("metres_per_unit")).toDouble();
            log.m_worlds.push_back(world);
            continue;
        }
        if (type != QStringLiteral("frame")) {
            continue;
        }
        if (!record.value(QStringLiteral("pose")).isObject() ||
            !record.value(QStringLiteral("chunk")).isDouble()) {
            if (error != nullptr) {
                *error = QStringLiteral("'%1' line %2: a frame record without chunk or pose; "
                                        "is this a simulator log (`simulate --log`)?")
                             .arg(path)
                             .arg(line_number);
            }
            return std::nullopt;
        }
        FrameTruth frame;
        frame.session = record.value(QStringLiteral("session")).toInt();
        frame.chunk = record.value(QStringLiteral("chunk")).toInt();
        frame.frame = static_cast<qint64>(record.value(QStringLiteral("frame")).toDouble());
        frame.frame_in_chunk = record.value(QStringLiteral("frame_in_chunk")).toInt();
        const QJsonObject pose = record.value(QStringLiteral("pose")).toObject();
        frame.position = vector(pose);
        frame.yaw_deg = pose.value(QStringLiteral("yaw_deg")).toDouble();
        frame.pitch_deg = pose.value(QStringLiteral("pitch_deg")).toDouble();
        const QJsonObject velocity = record.value(QStringLiteral("velocity")).toObject();
        frame.velocity = vector(velocity);
        frame.velocity_yaw_deg = velocity.value(QStringLiteral("yaw_deg")).toDouble();
        frame.velocity_pitch_deg = velocity.value(QStringLiteral("pitch_deg")).toDouble();
        const QJsonObject commanded = record.value(QStringLiteral("commanded")).toObject();
        frame.commanded = vector(commanded);
        frame.commanded_yaw_deg = commanded.value(QStringLiteral("yaw_deg")).toDouble();
        frame.commanded_pitch_deg = commanded.value(QStringLiteral("pitch_deg")).toDouble();
        frame.camera_event = record.value(QStringLiteral("camera_event")).toString();
        frame.prompt_event = record.value(QStringLiteral("prompt_event")).toString();
        const QJsonObject transition = record.value(QStringLiteral("transition")).toObject();
        frame.transition_chunks =
            static_cast<qint64>(transition.value(QStringLiteral("chunks")).toDouble());
        frame.transition_progress = transition.value(QStringLiteral("progress")).toDouble(1.0);
        for (const QJsonValue& fault : record.value(QStringLiteral("faults")).toArray()) {
            frame.faults.append(fault.toString());
        }
        frame.objects_visible = record.value(QStringLiteral("objects_visible")).toInt(-1);
        frame.objects_entered = record.value(QStringLiteral("objects_entered")).toInt(-1);
        frame.t_ms = record.value(QStringLiteral("t_ms")).toDouble();
        log.m_frames.push_back(frame);
    }
    return log;
}

std::vector<FrameTruth> GroundTruthLog::sessionFrames(int session) const {
    if (session == 0 && !m_frames.empty()) {
        session = m_frames.front().session;
    }
    std::vector<FrameTruth> frames;
    std::copy_if(m_frames.cbegin(), m_frames.cend(), std::back_inserter(frames),
                 [session](const FrameTruth& frame) { return frame.session == session; });
    std::stable_sort(frames.begin(), frames.end(),
                     [](const FrameTruth& a, const FrameTruth& b) { return a.frame < b.frame; });
    return frames;
}

std::vector<std::vector<FrameTruth>> GroundTruthLog::chunks(int session) const {
    std::vector<std::vector<FrameTruth>> by_chunk;
    for (const FrameTruth& frame : sessionFrames(session)) {
        if (frame.chunk >= static_cast<int>(by_chunk.size())) {
            by_chunk.resize(static_cast<size_t>(frame.chunk) + 1);
        }
        by_chunk[static_cast<size_t>(frame.chunk)].push_back(frame);
    }
    return by_chunk;
}

} // namespace lbm::sim
