// The visual quality analysis as the engine runs it for the window and `bench`: fed the
// decoded frames on its own thread, told each chunk's context from the chunk's metadata and
// the prompts the engine sent, and written into the session document.

#include "app/engine/session_document_builder.h"
#include "app/engine/session_engine.h"
#include "app/report/quality_json.h"
#include "resources/bundled_resources.h"

#include <QSignalSpy>

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <utility>

using namespace lbm;
using namespace lbm::engine;
using lbm::quality::ChunkQuality;
using lbm::quality::QualityFlag;

namespace {

// The acceptance scenario: 24 chunks under the orbit camera, one prompt transition
// from the workload (K = 3 after chunk 0) and one sent live as chunk 6 lands (K = 1). The
// quality suite ran the same session through the same engine as well; it is checked here
// alone (lbm_quality_tests keeps the sessions that only it runs). Chunks 0.3 s apart, not the
// fast profile's 0.1 s: the workload's prompt goes out as chunk 0 lands and must start by
// chunk 3 to end before the seam at 6; on a loaded sanitizer build the client took that long
// to answer chunk 0 while the fast server ran four chunks ahead, the seam fell inside the
// transition and it was (rightly) not judged.
EngineSettings acceptanceSettings(const QStringList& faults) {
    EngineSettings settings;
    settings.use_simulator = true;
    settings.simulator_profile = QStringLiteral("fixed:0.3:0.3");
    settings.simulator_faults = faults;
    settings.session.workload =
        defaultWorkload(bundledFirstFrameDataUrl().toStdString(), 24, std::string("orbit"));
    settings.session.workload.prompt_updates = {
        PromptUpdate{0, "The road opens onto a misty lake at dawn.", 3}};
    settings.session.ping_interval_s = 0;
    settings.session.first_chunk_timeout_s = 30;
    settings.session.chunk_timeout_s = 30;
    settings.analyze_quality = true;
    return settings;
}

struct QualityRun {
    std::vector<ChunkQuality> chunks;
    report::SessionDocument document;
    QString live_prompt_id;
    int ready_signals = 0;
};

QualityRun runAcceptance(const QStringList& faults) {
    const EngineSettings settings = acceptanceSettings(faults);
    SessionEngine engine;
    QualityRun run;
    QObject::connect(&engine, &SessionEngine::chunkLanded, [&](const ChunkRecord& record, double) {
        if (record.index == 6) {
            run.live_prompt_id =
                engine.sendPrompt(QStringLiteral("Snow falls over a quiet harbour at night."), 1);
        }
    });
    QSignalSpy ready(&engine, &SessionEngine::chunkQualityReady);
    QString error;
    REQUIRE(engine.start(settings, &error));
    CHECK(engine.analyzingQuality());
    REQUIRE(engine.waitForFinished(120000));
    INFO(engine.result()->error.toStdString());
    REQUIRE(engine.result()->ok);
    REQUIRE(engine.qualityFinished());
    CHECK(engine.qualityWarnings().isEmpty());
    run.chunks = engine.qualityChunks();
    for (const ChunkQuality& kept : engine.qualityChunks()) {
        // Kept for the session without per-frame signals (their memory freed); the signal
        // carried them.
        CHECK(kept.frames.capacity() == 0);
    }
    run.ready_signals = static_cast<int>(ready.count());
    SessionDocumentBuilder builder(settings, engine.url().toString());
    builder.addSession(engine);
    run.document = builder.document();
    return run;
}

using FlagAt = std::pair<qint64, QString>; // chunk, flag name

// Every (chunk, flag) raised before chunk.
std::set<FlagAt> flagsBefore(const std::vector<ChunkQuality>& chunks, qint64 chunk) {
    std::set<FlagAt> before;
    for (const ChunkQuality& quality : chunks) {
        if (quality.generation_index < chunk) {
            for (const QString& name : quality::qualityFlagNames(quality.flags)) {
                before.insert({quality.generation_index, name});
            }
        }
    }
    return before;
}

std::vector<qint64> flagged(const std::vector<ChunkQuality>& chunks, QualityFlag flag) {
    std::vector<qint64> indices;
    for (const ChunkQuality& chunk : chunks) {
        if (chunk.flagged(flag)) {
            indices.push_back(chunk.generation_index);
        }
    }
    return indices;
}

QString describe(const std::vector<ChunkQuality>& chunks) {
    QStringList lines;
    for (const ChunkQuality& chunk : chunks) {
        lines << QStringLiteral("chunk %1 [%2] %3")
                     .arg(chunk.generation_index)
                     .arg(chunk.flagsText(), chunk.notes.join(QLatin1Char(' ')));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

TEST_CASE("the engine flags each visual fault at its chunk, a live prompt included",
          "[engine][quality]") {
    const QualityRun run = runAcceptance({QStringLiteral("seam@6"), QStringLiteral("freeze@10"),
                                          QStringLiteral("blur@14"), QStringLiteral("tint@18")});
    INFO(describe(run.chunks).toStdString());
    REQUIRE(run.chunks.size() == 24);
    CHECK(run.ready_signals == 24); // each chunk once
    for (std::size_t i = 0; i < run.chunks.size(); ++i) {
        CHECK(run.chunks[i].generation_index == static_cast<qint64>(i));
        CHECK(run.chunks[i].is_final);
        CHECK(run.chunks[i].frame_count == (i == 0 ? 9 : 12));
    }
    // Nothing but the earlier faults before each fault.
    CHECK(flagsBefore(run.chunks, 14) ==
          std::set<FlagAt>{{6, QStringLiteral("seam")}, {10, QStringLiteral("freeze")}});
    const std::set<FlagAt> before_tint = flagsBefore(run.chunks, 18);
    CHECK(std::none_of(before_tint.cbegin(), before_tint.cend(),
                       [](const FlagAt& flag) { return flag.second == QStringLiteral("tint"); }));
    const auto first_flag = std::find_if(run.chunks.begin(), run.chunks.end(),
                                         [](const ChunkQuality& chunk) { return chunk.flags; });
    REQUIRE(first_flag != run.chunks.end());
    CHECK(first_flag->generation_index == 6);
    CHECK(flagged(run.chunks, QualityFlag::Seam) == std::vector<qint64>{6});
    CHECK(flagged(run.chunks, QualityFlag::Freeze) == std::vector<qint64>{10});
    const auto blur = flagged(run.chunks, QualityFlag::Blur);
    REQUIRE_FALSE(blur.empty());
    CHECK(blur.front() >= 14);
    CHECK(blur.front() <= 15);
    const auto tint = flagged(run.chunks, QualityFlag::Tint);
    REQUIRE_FALSE(tint.empty());
    CHECK(tint.front() >= 18);
    CHECK(tint.front() <= 19);
    // Both transitions, the workload's and the one sent live, were known and landed on time.
    CHECK(flagged(run.chunks, QualityFlag::Transition).empty());
    int judged = 0;
    for (const ChunkQuality& chunk : run.chunks) {
        for (const auto& check : chunk.transitions) {
            ++judged;
            CHECK(check.verdict == quality::TransitionVerdict::OnTime);
            CHECK((check.event_id == QStringLiteral("chunk-0") ||
                   check.event_id == run.live_prompt_id));
        }
    }
    CHECK(judged == 2);

    // The document carries the analysis under our own key, flags and all.
    const auto stored =
        report::sessionQuality(run.document.sessions.front(), QStringLiteral("sessions[0]"));
    REQUIRE(stored);
    REQUIRE(stored->chunks.size() == 24);
    CHECK(stored->chunks[6].flagged(QualityFlag::Seam));
    CHECK(stored->chunks[10].flagged(QualityFlag::Freeze));
    CHECK(stored->chunks[6].frames.empty()); // per-frame signals stay out of documents
}

TEST_CASE("the engine's analysis of the clean session raises no flag", "[engine][quality]") {
    const QualityRun run = runAcceptance({});
    INFO(describe(run.chunks).toStdString());
    REQUIRE(run.chunks.size() == 24);
    CHECK(std::none_of(run.chunks.begin(), run.chunks.end(),
                       [](const ChunkQuality& chunk) { return bool(chunk.flags); }));
    int judged = 0;
    for (const ChunkQuality& chunk : run.chunks) {
        for (const auto& check : chunk.transitions) {
            ++judged;
            CHECK(check.verdict == quality::TransitionVerdict::OnTime);
        }
    }
    CHECK(judged == 2);
    // The transitions were judged, not excused: their chunks carry a seam score, below the
    // threshold (the simulator blends a K = 1 look frame by frame over its chunk).
    const double seam_threshold = quality::QualitySettings{}.thresholds.seam_score;
    CHECK(run.chunks[2].in_transition);
    CHECK(run.chunks[8].in_transition);
    CHECK(run.chunks[2].seam_score.value_or(99) < seam_threshold);
    CHECK(run.chunks[8].seam_score.value_or(99) < seam_threshold);
}

TEST_CASE("without analyze_quality the engine runs no analysis and writes none",
          "[engine][quality]") {
    EngineSettings settings = acceptanceSettings({});
    settings.session.workload =
        defaultWorkload(bundledFirstFrameDataUrl().toStdString(), 3, std::string("orbit"));
    settings.analyze_quality = false;
    SessionEngine engine;
    QString error;
    REQUIRE(engine.start(settings, &error));
    CHECK_FALSE(engine.analyzingQuality());
    REQUIRE(engine.waitForFinished(60000));
    CHECK(engine.qualityChunks().empty());
    SessionDocumentBuilder builder(settings, engine.url().toString());
    builder.addSession(engine);
    CHECK_FALSE(
        report::sessionQuality(builder.document().sessions.front(), QStringLiteral("sessions[0]")));
}
