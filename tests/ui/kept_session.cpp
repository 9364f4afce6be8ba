#include "kept_session.h"

#include "app/engine/engine_settings.h"
#include "app/engine/session_engine.h"
#include "app/engine/session_keeper.h"
#include "app/media/recording_reader.h"
#include "app/quality/chunk_context_builder.h"
#include "app/quality/quality_analyzer.h"
#include "app/report/quality_json.h"
#include "app/report/session_document.h"
#include "metrics/workload.h"
#include "resources/bundled_resources.h"

#include <QTemporaryDir>

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

namespace lbm::ui::test {

lbm::PromptUpdate promptUpdate(int after_chunk, const std::string& prompt, int transition_chunks) {
    lbm::PromptUpdate update;
    update.after_chunk = after_chunk;
    update.prompt = prompt;
    update.transition_chunks = transition_chunks;
    return update;
}

KeptSessionSpec acceptanceSpec() {
    KeptSessionSpec spec;
    spec.num_chunks = 24;
    spec.camera_pattern = "orbit";
    spec.faults = {QStringLiteral("seam@6"), QStringLiteral("freeze@10"), QStringLiteral("blur@14"),
                   QStringLiteral("tint@18")};
    spec.prompt_updates = {promptUpdate(0, "The road opens onto a misty lake at dawn.", 3),
                           promptUpdate(6, "Snow falls over a quiet harbour at night.", 1)};
    return spec;
}

KeptSessionSpec transitionSpec(int transition_chunks) {
    KeptSessionSpec spec;
    spec.num_chunks = 16;
    spec.camera_pattern = "orbit";
    spec.prompt_updates = {
        promptUpdate(3, "The road opens onto a misty lake at dawn.", transition_chunks)};
    return spec;
}

namespace {

// The quality analysis over the recording, in stream order, each chunk's context first.
std::vector<quality::ChunkQuality>
analyseRecording(const QString& path, const std::vector<int>& chunk_frames,
                 const std::vector<quality::ChunkContext>& contexts, QStringList* warnings) {
    media::RecordingReader reader;
    INFO(reader.errorString().toStdString());
    REQUIRE(reader.open(path));
    quality::QualityAnalyzer analyzer;
    int frame = 0;
    for (size_t chunk = 0; chunk < chunk_frames.size(); ++chunk) {
        if (chunk < contexts.size()) {
            analyzer.setChunkContext(contexts[chunk]);
        }
        for (int i = 0; i < chunk_frames[chunk] && frame < reader.frameCount(); ++i, ++frame) {
            const auto decoded = reader.frame(frame);
            INFO(reader.errorString().toStdString());
            REQUIRE(decoded.has_value());
            media::FrameTag tag;
            tag.global_frame_number = frame;
            tag.chunk = lbm::ChunkIdentity{static_cast<qint64>(chunk), static_cast<qint64>(chunk),
                                           0, lbm::ChunkKind::Media};
            tag.index_in_chunk = i;
            analyzer.addFrame(media::DecodedFrame(decoded->avFrame(), tag));
        }
    }
    analyzer.finish();
    *warnings = analyzer.takeWarnings();
    return analyzer.chunks();
}

} // namespace

KeptSession runKeptSession(const KeptSessionSpec& spec, const QString& root) {
    engine::EngineSettings settings;
    settings.use_simulator = true;
    settings.simulator_profile = spec.profile;
    settings.simulator_faults = spec.faults;
    settings.session.workload = lbm::defaultWorkload(lbm::bundledFirstFrameDataUrl().toStdString(),
                                                     spec.num_chunks, spec.camera_pattern);
    settings.session.workload.prompt_updates = spec.prompt_updates;
    settings.session.workload.validate();
    settings.camera_pattern = QString::fromStdString(spec.camera_pattern);

    KeptSession kept;
    std::vector<quality::ChunkContext> contexts;
    {
        engine::SessionEngine engine;
        engine::SessionKeeper keeper(&engine, root);
        QString error;
        INFO(error.toStdString());
        REQUIRE(keeper.prepare(settings, &error));
        REQUIRE(engine.start(settings, &error));
        REQUIRE(engine.waitForFinished(120000));
        REQUIRE(engine.result().has_value());
        INFO(engine.result()->error.toStdString());
        REQUIRE(engine.result()->ok);
        REQUIRE(keeper.finalize(QString(), 10000));
        REQUIRE(keeper.current().has_value());
        kept.folder = keeper.current()->folder;
        kept.document_path = keeper.current()->documentPath();
        kept.recording_path = keeper.current()->recordingPath();
        kept.request_id = engine.requestId();

        auto records = engine.liveMetrics().records();
        std::sort(records.begin(), records.end(),
                  [](const auto& a, const auto& b) { return a.index < b.index; });
        for (const auto& record : records) {
            kept.chunk_frames.push_back(record.num_frames);
        }
        quality::ChunkContextBuilder builder(settings.session.workload);
        for (const engine::ChunkInteractionIds& ids : engine.chunkIds()) {
            contexts.push_back(builder.build(ids.index, ids.started, ids.active, ids.completed));
        }
        std::sort(contexts.begin(), contexts.end(), [](const auto& a, const auto& b) {
            return a.generation_index < b.generation_index;
        });
    }
    REQUIRE(static_cast<int>(kept.chunk_frames.size()) == spec.num_chunks);
    kept.quality =
        analyseRecording(kept.recording_path, kept.chunk_frames, contexts, &kept.warnings);

    report::SessionDocument document = report::readSessionDocument(kept.document_path);
    REQUIRE_FALSE(document.sessions.empty());
    report::setSessionQuality(document.sessions.front(),
                              report::SessionQuality{quality::QualitySettings{}, kept.quality});
    report::writeSessionDocument(document, kept.document_path);
    kept.interactions =
        document.sessions.front().monitor_extras.value(QStringLiteral("interactions")).toArray();
    kept.workload = document.workload;
    return kept;
}

const KeptSession& acceptanceSession() {
    static QTemporaryDir root;
    static const KeptSession session = [] {
        REQUIRE(root.isValid());
        return runKeptSession(acceptanceSpec(), root.path());
    }();
    return session;
}

} // namespace lbm::ui::test
