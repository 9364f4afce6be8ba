#include "tests/quality/quality_session.h"

#include "app/engine/session_engine.h"
#include "app/protocol/camera_keys.h"
#include "metrics/workload.h"
#include "resources/bundled_resources.h"

#include <catch2/catch.hpp>

extern "C" {
#include <libavutil/log.h>
}

#include <map>
#include <mutex>

namespace lbm::quality::test {

std::vector<qint64> QualitySessionRun::flagged(QualityFlag flag) const {
    std::vector<qint64> chunks_with_flag;
    for (const ChunkQuality& chunk : chunks) {
        if (chunk.flagged(flag)) {
            chunks_with_flag.push_back(chunk.generation_index);
        }
    }
    return chunks_with_flag;
}

qint64 QualitySessionRun::firstFlaggedChunk() const {
    for (const ChunkQuality& chunk : chunks) {
        if (chunk.flags) {
            return chunk.generation_index;
        }
    }
    return -1;
}

QString QualitySessionRun::describeFlags() const {
    QStringList lines;
    for (const ChunkQuality& chunk : chunks) {
        if (chunk.flags) {
            lines.append(QStringLiteral("chunk %1: %2 (%3)")
                             .arg(chunk.generation_index)
                             .arg(chunk.flagsText(), chunk.notes.join(QLatin1Char(' '))));
        }
    }
    return lines.isEmpty() ? QStringLiteral("no flags") : lines.join(QLatin1Char('\n'));
}

QString QualitySessionRun::describeChunks() const {
    QStringList lines;
    for (const ChunkQuality& chunk : chunks) {
        lines.append(
            QStringLiteral("chunk %1: frames %2 change %3 boundary %4 seam %5 frozen %6 "
                           "sharpness %7 (x%8) drift %9 ref %10 transition %11 flags [%12]")
                .arg(chunk.generation_index)
                .arg(chunk.frame_count)
                .arg(chunk.change_median, 0, 'f', 2)
                .arg(chunk.boundary_change.value_or(-1), 0, 'f', 2)
                .arg(chunk.seam_score.value_or(-1), 0, 'f', 2)
                .arg(chunk.frozen_frames)
                .arg(chunk.sharpness, 0, 'f', 3)
                .arg(chunk.sharpness_ratio, 0, 'f', 2)
                .arg(chunk.chroma_drift, 0, 'f', 2)
                .arg(chunk.reference_chunk)
                .arg(chunk.in_transition ? QStringLiteral("yes") : QStringLiteral("no"))
                .arg(chunk.flagsText()));
        lines.append(
            QStringLiteral("  steering '%1' motion x %2 y %3 zoom %4% following %5%6")
                .arg(chunk.steering_keys)
                .arg(chunk.motion_x.value_or(-99), 0, 'f', 2)
                .arg(chunk.motion_y.value_or(-99), 0, 'f', 2)
                .arg(chunk.motion_zoom_percent.value_or(-99), 0, 'f', 2)
                .arg(chunk.following.value_or(-1), 0, 'f', 2)
                .arg(chunk.motion_expected ? QStringLiteral(" motion expected") : QString()));
        // LBM_QUALITY_FRAMES=1: every frame's motion too (calibration).
        if (qEnvironmentVariableIsSet("LBM_QUALITY_FRAMES")) {
            for (const FrameQuality& frame : chunk.frames) {
                lines.append(QStringLiteral("    frame %1 change %2 detail %3/%4 motion %5")
                                 .arg(frame.global_frame_number)
                                 .arg(frame.change.value_or(-1), 0, 'f', 2)
                                 .arg(frame.sharpness, 0, 'f', 2)
                                 .arg(frame.coarse_detail, 0, 'f', 2)
                                 .arg(frame.motion
                                          ? QStringLiteral("x %1 y %2 zoom %3% "
                                                           "residual %4 rest %5")
                                                .arg(frame.motion->dx, 0, 'f', 2)
                                                .arg(frame.motion->dy, 0, 'f', 2)
                                                .arg(100 * frame.motion->zoom, 0, 'f', 2)
                                                .arg(frame.motion->residual, 0, 'f', 2)
                                                .arg(frame.motion->compensated_change, 0, 'f', 2)
                                          : QStringLiteral("none")));
            }
        }
        for (const SteeringResponse& response : chunk.responses) {
            lines.append(QStringLiteral("  response %1 '%2' from chunk %3: frame %4, %5 ms")
                             .arg(response.event_id, response.keys)
                             .arg(response.command_chunk)
                             .arg(response.response_frame)
                             .arg(response.response_ms.value_or(-1), 0, 'f', 0));
        }
        for (const TransitionCheck& check : chunk.transitions) {
            lines.append(QStringLiteral("  transition %1 K=%2 from %3: expected %4 landed %5 (%6)")
                             .arg(check.event_id)
                             .arg(check.transition_chunks)
                             .arg(check.start_chunk)
                             .arg(check.expected_chunk)
                             .arg(check.landed_chunk.value_or(-1))
                             .arg(transitionVerdictName(check.verdict)));
        }
    }
    return lines.join(QLatin1Char('\n'));
}

lbm::PromptUpdate promptUpdate(int after_chunk, const std::string& prompt, int transition_chunks) {
    lbm::PromptUpdate update;
    update.after_chunk = after_chunk;
    update.prompt = prompt;
    update.transition_chunks = transition_chunks;
    return update;
}

QualitySessionRun runQualitySession(const QualitySessionSpec& spec, int timeout_ms) {
    av_log_set_level(AV_LOG_ERROR);
    // The window's and bench's path: the engine with its built-in simulator, decoder and
    // quality worker; the test only says what to run and which keys to press when.
    engine::EngineSettings settings;
    settings.use_simulator = true;
    settings.simulator_profile = spec.profile;
    settings.simulator_faults = spec.faults;
    settings.simulator_realism = sim::realismName(spec.realism);
    Workload& workload = settings.session.workload;
    workload = lbm::defaultWorkload(lbm::bundledFirstFrameDataUrl().toStdString(), spec.num_chunks,
                                    spec.camera_pattern);
    workload.prompt_updates = spec.prompt_updates;
    if (!spec.scripted_keys.empty()) {
        QString held;
        for (qint64 chunk = 0; chunk < spec.num_chunks; ++chunk) {
            held = spec.scripted_keys.count(chunk) ? spec.scripted_keys.at(chunk) : held;
            FrameActions keys;
            for (const QChar key : held) {
                keys.push_back(QString(key).toStdString());
            }
            workload.camera_script[static_cast<size_t>(chunk)] =
                ChunkActions(static_cast<size_t>(kFramesPerBlock), keys);
        }
    }
    if (spec.steered) {
        // As the window steers: no script, the server holds still until the first key.
        workload.extra_params_json = "{\"camera_action_script\":null}";
    }
    workload.validate();
    settings.analyze_quality = true;
    settings.quality = spec.settings;

    QualitySessionRun run;
    // The second opinion measures each frame on the decoder thread, as a frame consumer; its
    // results are read once decoding is done (waitForFinished).
    FilterGraphProbe probe;
    std::mutex probe_mutex;
    QString probe_error;
    std::map<qint64, int> reports;
    // Declared after what its consumers and handlers use, so it is gone (its threads joined)
    // before they are, also when a REQUIRE ends the run early.
    engine::SessionEngine engine;
    if (spec.second_opinion) {
        engine.addFrameConsumer([&](const media::DecodedFrame& frame) {
            if (!frame.tag().generationIndex()) {
                return;
            }
            QString error;
            const auto measures = probe.measure(*frame.avFrame(), &error);
            const std::lock_guard<std::mutex> lock(probe_mutex);
            if (!measures) {
                probe_error = error;
                return;
            }
            run.probe_frames[*frame.tag().generationIndex()].push_back(*measures);
        });
    }
    QObject::connect(&engine, &engine::SessionEngine::chunkQualityReady,
                     [&](const ChunkQuality& chunk) {
                         if (++reports[chunk.generation_index] > 1) {
                             ++run.duplicate_reports;
                         }
                     });
    // Keys are pressed right after their chunk lands, through the engine's typed steering
    // call (as the window's steering does), which also tells the quality context.
    QObject::connect(
        &engine, &engine::SessionEngine::chunkLanded, [&](const ChunkRecord& record, double) {
            run.arrival_s[record.index] = record.arrival_s;
            for (const auto& [after_chunk, keys] : spec.key_presses) {
                if (after_chunk != record.index) {
                    continue;
                }
                const QString id = engine.sendCameraVelocity(
                    protocol::velocityForKeys(protocol::CameraKeys::fromLetters(keys)));
                REQUIRE_FALSE(id.isEmpty());
                run.key_presses.push_back({id, keys, after_chunk, std::nullopt, record.arrival_s});
            }
        });

    QString error;
    const bool started = engine.start(settings, &error);
    INFO(error.toStdString());
    REQUIRE(started);
    engine.waitForFinished(timeout_ms);
    REQUIRE(engine.result().has_value());
    run.session_succeeded = engine.result()->ok;
    run.session_error = engine.result()->error;
    REQUIRE(engine.decodingFinished());
    REQUIRE(engine.qualityFinished());
    {
        const std::lock_guard<std::mutex> lock(probe_mutex);
        INFO(probe_error.toStdString());
        REQUIRE(probe_error.isEmpty());
    }
    run.frames_decoded = engine.framesDecoded();
    run.chunks = engine.qualityChunks(); // final, in generation order
    run.warnings = engine.qualityWarnings();
    // Where the server applied each key press (the chunk whose metadata lists it as
    // started) and when the timeline stamped its send.
    for (auto& press : run.key_presses) {
        for (const engine::ChunkInteractionIds& ids : engine.chunkIds()) {
            if (ids.started.contains(press.event_id)) {
                press.started_chunk = ids.index;
                break;
            }
        }
        const auto* record = engine.timeline().find(press.event_id);
        if (record != nullptr && record->sent_s) {
            press.sent_s = *record->sent_s;
        }
    }
    return run;
}

} // namespace lbm::quality::test
