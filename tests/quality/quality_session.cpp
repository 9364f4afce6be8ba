#include "tests/quality/quality_session.h"

#include "app/media/stream_decoder.h"
#include "app/protocol/camera_keys.h"
#include "app/quality/chunk_context_builder.h"
#include "app/quality/quality_analyzer.h"
#include "app/quality/quality_worker.h"
#include "app/session/session_client.h"
#include "app/sim/simulator_server.h"
#include "metrics/workload.h"
#include "resources/bundled_resources.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>

#include <catch2/catch.hpp>

extern "C" {
#include <libavutil/log.h>
}

#include <map>
#include <memory>

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
    sim::SimulatorConfig config;
    config.profile = spec.profile;
    config.realism = spec.realism;
    for (const QString& text : spec.faults) {
        QString error;
        const auto fault = sim::FaultSpec::parse(text, &error);
        REQUIRE(fault.has_value());
        config.faults.push_back(*fault);
    }
    sim::SimulatorServer server(config);
    const bool listening = server.listen(QHostAddress::LocalHost, 0);
    INFO(server.errorString().toStdString());
    REQUIRE(listening);

    session::SessionOptions options;
    options.url = server.url();
    options.workload = lbm::defaultWorkload(lbm::bundledFirstFrameDataUrl().toStdString(),
                                            spec.num_chunks, spec.camera_pattern);
    options.workload.prompt_updates = spec.prompt_updates;
    if (spec.steered) {
        // As the window steers: no script, the server holds still until the first key.
        options.workload.extra_params_json = "{\"camera_action_script\":null}";
    }
    options.workload.validate();
    ChunkContextBuilder builder(options.workload);

    QualitySessionRun run;
    std::map<qint64, int> reports;
    const auto collect = [&](const ChunkQuality& chunk) {
        if (++reports[chunk.generation_index] > 1) {
            ++run.duplicate_reports;
        }
        run.chunks.push_back(chunk);
    };
    QualityAnalyzer analyzer(spec.settings);
    std::unique_ptr<QualityWorker> worker;
    if (spec.use_worker) {
        worker = std::make_unique<QualityWorker>(spec.settings);
        QObject::connect(worker.get(), &QualityWorker::chunkAnalyzed, worker.get(), collect,
                         Qt::QueuedConnection);
        QObject::connect(worker.get(), &QualityWorker::warning, worker.get(),
                         [&run](const QString& message) { run.warnings.append(message); });
    }
    const auto collectFromAnalyzer = [&] {
        for (const ChunkQuality& chunk : analyzer.takeFinalChunks()) {
            collect(chunk);
        }
        run.warnings += analyzer.takeWarnings();
    };

    media::StreamDecoder decoder;
    FilterGraphProbe probe;
    const auto drain = [&] {
        while (const auto frame = decoder.popFrame(0)) {
            ++run.frames_decoded;
            if (spec.second_opinion && frame->tag().generation_index) {
                QString error;
                const auto measures = probe.measure(*frame->avFrame(), &error);
                INFO(error.toStdString());
                REQUIRE(measures);
                run.probe_frames[*frame->tag().generation_index].push_back(*measures);
            }
            if (worker) {
                worker->pushFrame(*frame);
            } else {
                analyzer.addFrame(*frame);
                collectFromAnalyzer();
            }
        }
    };
    QObject::connect(&decoder, &media::StreamDecoder::framesAvailable, &decoder, drain);

    session::SessionClient client;
    QEventLoop loop;
    QObject::connect(
        &client, &session::SessionClient::chunkReceived, [&](const session::ChunkEvent& received) {
            // The event crossed from the network thread through Qt's event queue, which
            // ThreadSanitizer cannot see; copying it takes the shared data's atomic reference
            // (an acquire it does see) before anything is read.
            const session::ChunkEvent chunk = received;
            if (chunk.isMedia() && chunk.generationChunkIndex()) {
                const qint64 index = *chunk.generationChunkIndex();
                run.arrival_s[index] = chunk.arrivalS();
                for (auto& press : run.key_presses) {
                    if (!press.started_chunk && chunk.startedEventIds().contains(press.event_id)) {
                        press.started_chunk = index;
                    }
                }
                const ChunkContext context =
                    builder.build(index, chunk.startedEventIds(), chunk.activeEventIds(),
                                  chunk.completedEventIds(), chunk.arrivalS());
                run.contexts.push_back(context);
                if (worker) {
                    worker->setChunkContext(context);
                } else {
                    analyzer.setChunkContext(context);
                }
            }
            media::ChunkInfo info;
            info.transport_index = chunk.transportChunkIndex();
            info.generation_index = chunk.generationChunkIndex();
            info.num_frames = chunk.numFrames();
            info.kind = chunk.isTrailer() ? media::ChunkKind::Trailer : media::ChunkKind::Media;
            decoder.pushChunk(info, chunk.bytes());
            if (!chunk.isMedia() || !chunk.generationChunkIndex()) {
                return;
            }
            for (const auto& [after_chunk, keys] : spec.key_presses) {
                if (after_chunk != *chunk.generationChunkIndex()) {
                    continue;
                }
                const protocol::CameraSe3 velocity =
                    protocol::velocityForKeys(protocol::CameraKeys::fromLetters(keys));
                const QString id = client.sendCameraVelocity(velocity);
                REQUIRE_FALSE(id.isEmpty());
                SteeringCommand command =
                    SteeringCommand::fromVelocity(velocity.translation, velocity.rotation);
                // Refined by the timeline's stamp of the send below.
                command.sent_s = chunk.arrivalS();
                builder.addCameraCommand(id, command);
                run.key_presses.push_back({id, keys, after_chunk, std::nullopt, chunk.arrivalS()});
            }
        });
    QObject::connect(&client, &session::SessionClient::timelineChanged,
                     [&](const session::TimelineEvent& event) {
                         const auto* record = client.timeline().find(event.event_id);
                         if (record != nullptr && record->sent_s) {
                             builder.setCommandSentTime(event.event_id, *record->sent_s);
                             for (auto& press : run.key_presses) {
                                 if (press.event_id == event.event_id) {
                                     press.sent_s = *record->sent_s;
                                 }
                             }
                         }
                     });
    QObject::connect(&client, &session::SessionClient::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeout_ms, &loop, &QEventLoop::quit);
    client.start(options);
    loop.exec();
    REQUIRE(client.result().has_value());
    run.session_succeeded = client.result()->ok;
    run.session_error = client.result()->error;
    decoder.finish();
    while (!decoder.waitForEnd(20)) {
        drain();
    }
    drain();
    if (worker) {
        worker->finish();
        REQUIRE(worker->waitForFinished(timeout_ms));
        // Deliver the queued chunkAnalyzed signals to this thread.
        QCoreApplication::processEvents();
        std::sort(run.chunks.begin(), run.chunks.end(),
                  [](const ChunkQuality& a, const ChunkQuality& b) {
                      return a.generation_index < b.generation_index;
                  });
    } else {
        analyzer.finish();
        collectFromAnalyzer();
        std::sort(run.chunks.begin(), run.chunks.end(),
                  [](const ChunkQuality& a, const ChunkQuality& b) {
                      return a.generation_index < b.generation_index;
                  });
    }
    return run;
}

} // namespace lbm::quality::test
