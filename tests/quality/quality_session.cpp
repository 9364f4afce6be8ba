#include "tests/quality/quality_session.h"

#include "app/engine/session_engine.h"
#include "metrics/workload.h"
#include "resources/bundled_resources.h"

#include <catch2/catch.hpp>

extern "C" {
#include <libavutil/log.h>
}

#include <algorithm>
#include <map>

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
    engine::EngineSettings settings;
    settings.use_simulator = true;
    settings.simulator_profile = spec.profile;
    settings.simulator_faults = spec.faults;
    settings.workload = lbm::defaultWorkload(lbm::bundledFirstFrameDataUrl().toStdString(),
                                             spec.num_chunks, spec.camera_pattern);
    settings.workload.prompt_updates = spec.prompt_updates;
    settings.workload.validate();
    settings.ping_interval_s = 0;
    settings.analyze_quality = true;
    settings.quality = spec.settings;

    QualitySessionRun run;
    std::map<qint64, int> reports;
    engine::SessionEngine engine;
    QObject::connect(&engine, &engine::SessionEngine::chunkQualityReady,
                     [&](const ChunkQuality& chunk) {
                         if (++reports[chunk.generation_index] > 1) {
                             ++run.duplicate_reports;
                         }
                         run.chunks.push_back(chunk);
                     });
    QString error;
    const bool started = engine.start(settings, &error);
    INFO(error.toStdString());
    REQUIRE(started);
    const bool finished = engine.waitForFinished(timeout_ms);
    REQUIRE(engine.result().has_value());
    run.session_succeeded = engine.result()->ok;
    run.session_error = engine.result()->error;
    REQUIRE(finished);
    run.frames_decoded = engine.framesDecoded();
    run.warnings = engine.qualityWarnings();
    std::sort(run.chunks.begin(), run.chunks.end(),
              [](const ChunkQuality& a, const ChunkQuality& b) {
                  return a.generation_index < b.generation_index;
              });
    return run;
}

} // namespace lbm::quality::test
