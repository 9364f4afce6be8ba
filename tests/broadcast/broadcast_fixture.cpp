#include "tests/broadcast/broadcast_fixture.h"

#include "app/engine/session_engine.h"
#include "resources/bundled_resources.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTcpSocket>

#include <catch2/catch.hpp>

#include <cmath>
#include <map>

namespace lbm::broadcast::test {

engine::EngineSettings simulatorSettings(int chunks, const QString& profile) {
    engine::EngineSettings settings;
    settings.use_simulator = true;
    settings.simulator_profile = profile;
    settings.session.workload = defaultWorkload(bundledFirstFrameDataUrl().toStdString(), chunks);
    settings.session.ping_interval_s = 0;
    settings.session.first_chunk_timeout_s = 60;
    settings.session.chunk_timeout_s = 60;
    return settings;
}

LiveBroadcast::LiveBroadcast(const BroadcastSettings& settings) {
    REQUIRE(dir.isValid());
    QString error;
    REQUIRE(broadcaster.start(settings, &error));
    broadcaster.attach(&engine);
}

void LiveBroadcast::start(engine::EngineSettings settings) {
    settings.recording_path = dir.filePath(QStringLiteral("stream.m4s"));
    QString error;
    REQUIRE(engine.start(settings, &error));
}

QString LiveBroadcast::path(const QString& rest) const {
    return QStringLiteral("/%1/%2").arg(QString::fromLatin1(broadcaster.token()), rest);
}

QByteArray LiveBroadcast::recording() const {
    QFile file(dir.filePath(QStringLiteral("stream.m4s")));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

std::vector<RecordedPayload> recordPayloads(engine::EngineSettings settings, int timeout_ms) {
    std::vector<RecordedPayload> recorded;
    engine::SessionEngine engine;
    QObject::connect(&engine, &engine::SessionEngine::payloadLanded,
                     [&](const session::ChunkEvent& chunk) {
                         PayloadInfo info;
                         info.trailer = chunk.isTrailer();
                         info.generation_chunk = chunk.generationChunkIndex();
                         info.num_frames = chunk.numFrames();
                         recorded.push_back({info, chunk.bytes()});
                     });
    settings.decode = false;
    QString error;
    REQUIRE(engine.start(settings, &error));
    REQUIRE(engine.waitForFinished(timeout_ms));
    REQUIRE(engine.result()->ok);
    return recorded;
}

const std::vector<RecordedPayload>& simulatorPayloads() {
    static const std::vector<RecordedPayload> payloads =
        recordPayloads(simulatorSettings(6), 60'000);
    return payloads;
}

qint64 announcedFrames(const std::vector<RecordedPayload>& payloads) {
    qint64 frames = 0;
    for (const RecordedPayload& payload : payloads) {
        frames += payload.info.num_frames;
    }
    return frames;
}

QStringList playlistProblems(const QByteArray& playlist, bool ended) {
    QStringList problems;
    const QStringList lines =
        QString::fromUtf8(playlist).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.isEmpty() || lines.front() != QStringLiteral("#EXTM3U")) {
        return {QStringLiteral("the first line is not #EXTM3U")};
    }
    const auto attribute = [](const QString& line, const QString& name) {
        const QRegularExpression pattern(QStringLiteral("[:,]%1=(\"[^\"]*\"|[^,]*)").arg(name));
        QString value = pattern.match(line).captured(1);
        if (value.startsWith(QLatin1Char('"'))) {
            value = value.mid(1, value.size() - 2);
        }
        return value;
    };
    int target = -1;
    double part_target = -1;
    double hold_back = -1;
    bool has_endlist = false;
    bool has_hint = false;
    bool has_map = false;
    std::vector<double> segment_s;               // EXTINF per segment
    std::map<size_t, std::vector<double>> parts; // segment index -> its listed parts
    std::vector<double> pending_parts;
    for (const QString& line : lines) {
        if (line.startsWith(QStringLiteral("#EXT-X-TARGETDURATION:"))) {
            if (target >= 0) {
                problems << QStringLiteral("EXT-X-TARGETDURATION twice");
            }
            target = line.section(QLatin1Char(':'), 1).toInt();
        } else if (line.startsWith(QStringLiteral("#EXT-X-PART-INF:"))) {
            part_target = attribute(line, QStringLiteral("PART-TARGET")).toDouble();
        } else if (line.startsWith(QStringLiteral("#EXT-X-SERVER-CONTROL:"))) {
            hold_back = attribute(line, QStringLiteral("PART-HOLD-BACK")).toDouble();
            if (attribute(line, QStringLiteral("CAN-BLOCK-RELOAD")) != QStringLiteral("YES")) {
                problems << QStringLiteral("no CAN-BLOCK-RELOAD=YES");
            }
        } else if (line.startsWith(QStringLiteral("#EXT-X-MAP:"))) {
            has_map = true;
        } else if (line.startsWith(QStringLiteral("#EXT-X-PART:"))) {
            pending_parts.push_back(attribute(line, QStringLiteral("DURATION")).toDouble());
        } else if (line.startsWith(QStringLiteral("#EXTINF:"))) {
            segment_s.push_back(line.mid(8).section(QLatin1Char(','), 0, 0).toDouble());
            if (!pending_parts.empty()) {
                parts[segment_s.size() - 1] = pending_parts;
                pending_parts.clear();
            }
        } else if (line.startsWith(QStringLiteral("#EXT-X-PRELOAD-HINT:"))) {
            has_hint = true;
        } else if (line == QStringLiteral("#EXT-X-ENDLIST")) {
            has_endlist = true;
        }
    }
    if (target < 1) {
        problems << QStringLiteral("no EXT-X-TARGETDURATION");
    }
    if (!has_map) {
        problems << QStringLiteral("no EXT-X-MAP (fMP4 segments need their init segment)");
    }
    for (size_t i = 0; i < segment_s.size(); ++i) {
        if (std::lround(segment_s[i]) > target) {
            problems << QStringLiteral("segment %1 lasts %2 s, over the target %3 s")
                            .arg(i)
                            .arg(segment_s[i])
                            .arg(target);
        }
    }
    if (part_target <= 0 || hold_back < 2 * part_target) {
        problems << QStringLiteral("PART-HOLD-BACK %1 is not at least twice PART-TARGET %2")
                        .arg(hold_back)
                        .arg(part_target);
    }
    if (!pending_parts.empty()) {
        parts[segment_s.size()] = pending_parts; // the open segment's parts
    }
    for (const auto& [segment, durations] : parts) {
        double sum = 0;
        for (size_t p = 0; p < durations.size(); ++p) {
            sum += durations[p];
            if (durations[p] > part_target + 1e-4) {
                problems << QStringLiteral("a part of segment %1 is longer than PART-TARGET")
                                .arg(segment);
            }
            // The RFC's 85 % floor holds for every part but a segment's last.
            if (p + 1 < durations.size() && durations[p] < 0.85 * part_target) {
                problems << QStringLiteral("a part of segment %1 other than its last is under 85 % "
                                           "of PART-TARGET")
                                .arg(segment);
            }
        }
        if (segment < segment_s.size() && std::abs(sum - segment_s[segment]) > 1e-3) {
            problems << QStringLiteral("segment %1's parts add up to %2 s, its EXTINF says %3 s")
                            .arg(segment)
                            .arg(sum)
                            .arg(segment_s[segment]);
        }
    }
    if (ended) {
        if (!has_endlist) {
            problems << QStringLiteral("a finished session's playlist has no EXT-X-ENDLIST");
        }
        if (has_hint) {
            problems << QStringLiteral("a finished session's playlist still has a preload hint");
        }
        if (parts.count(segment_s.size())) {
            problems << QStringLiteral("a finished session's playlist has parts of no segment");
        }
    } else {
        if (has_endlist) {
            problems << QStringLiteral("a live playlist has EXT-X-ENDLIST");
        }
        if (!has_hint) {
            problems << QStringLiteral("a live playlist has no EXT-X-PRELOAD-HINT");
        }
    }
    // The RFC: parts of every segment within three target durations of the end are listed
    // (a finished session keeps them, for players part-way through its last segments).
    double from_end = 0; // the open segment's parts are the playlist's end too
    if (parts.count(segment_s.size())) {
        for (double part : parts[segment_s.size()]) {
            from_end += part;
        }
    }
    for (size_t i = segment_s.size(); i-- > 0;) {
        if (from_end + segment_s[i] <= 3.0 * target && !parts.count(i)) {
            problems << QStringLiteral("segment %1 is within three target durations of the "
                                       "end but its parts are not listed")
                            .arg(i);
        }
        from_end += segment_s[i];
    }
    return problems;
}

} // namespace lbm::broadcast::test
