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

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <optional>

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

namespace {

// Where the fixture keeps the acceptance session: beside the test executables (both ui
// suites build into one folder), so every build tree has its own.
QString sharedAcceptanceFolder() {
    return QCoreApplication::applicationDirPath() + QStringLiteral("/kept-sessions/acceptance");
}
// The fixture's index: written after everything else, so a folder without it is an
// interrupted fixture and is not read.
const QString kIndexName = QStringLiteral("kept.json");

// The build of lbm_ui_tests (whose hidden case keeps the session): a session kept by an older
// build (a run interrupted before its cleanup, then a rebuild) is not read.
qint64 keeperBuild() {
    return QFileInfo(QCoreApplication::applicationDirPath() + QStringLiteral("/lbm_ui_tests"))
        .lastModified()
        .toMSecsSinceEpoch();
}

QJsonObject indexOf(const KeptSession& kept) {
    QJsonArray chunk_frames;
    for (const int frames : kept.chunk_frames) {
        chunk_frames.append(frames);
    }
    return QJsonObject{{QStringLiteral("folder"), kept.folder},
                       {QStringLiteral("document_path"), kept.document_path},
                       {QStringLiteral("recording_path"), kept.recording_path},
                       {QStringLiteral("request_id"), kept.request_id},
                       {QStringLiteral("chunk_frames"), chunk_frames},
                       {QStringLiteral("warnings"), QJsonArray::fromStringList(kept.warnings)},
                       {QStringLiteral("keeper_build"), QString::number(keeperBuild())}};
}

// The session the fixture kept in folder, as runKeptSession returned it: the paths and
// frame counts from the index, the quality, interactions and workload from its document
// (as a window reads a kept session: per-chunk results, without the per-frame signals no
// widget draws). nullopt when the fixture did not run, or an older build ran it.
std::optional<KeptSession> readKeptSession(const QString& folder) {
    QFile index_file(QDir(folder).filePath(kIndexName));
    if (!index_file.open(QIODevice::ReadOnly)) {
        return std::nullopt;
    }
    const QJsonObject index = QJsonDocument::fromJson(index_file.readAll()).object();
    if (index.value(QStringLiteral("keeper_build")).toString() != QString::number(keeperBuild())) {
        return std::nullopt;
    }
    KeptSession kept;
    kept.folder = index.value(QStringLiteral("folder")).toString();
    kept.document_path = index.value(QStringLiteral("document_path")).toString();
    kept.recording_path = index.value(QStringLiteral("recording_path")).toString();
    kept.request_id = index.value(QStringLiteral("request_id")).toString();
    for (const QJsonValue& frames : index.value(QStringLiteral("chunk_frames")).toArray()) {
        kept.chunk_frames.push_back(frames.toInt());
    }
    for (const QJsonValue& warning : index.value(QStringLiteral("warnings")).toArray()) {
        kept.warnings.append(warning.toString());
    }
    const report::SessionDocument document = report::readSessionDocument(kept.document_path);
    REQUIRE_FALSE(document.sessions.empty());
    const auto quality =
        report::sessionQuality(document.sessions.front(), QStringLiteral("sessions[0]"));
    REQUIRE(quality.has_value());
    kept.quality = quality->chunks;
    kept.interactions =
        document.sessions.front().monitor_extras.value(QStringLiteral("interactions")).toArray();
    kept.workload = document.workload;
    return kept;
}

} // namespace

const KeptSession& acceptanceSession() {
    static QTemporaryDir root;
    static const KeptSession session = [] {
        if (auto shared = readKeptSession(sharedAcceptanceFolder())) {
            return *shared;
        }
        REQUIRE(root.isValid());
        return runKeptSession(acceptanceSpec(), root.path());
    }();
    return session;
}

void keepAcceptanceSession() {
    QDir folder(sharedAcceptanceFolder());
    REQUIRE((!folder.exists() || folder.removeRecursively()));
    REQUIRE(QDir().mkpath(sharedAcceptanceFolder()));
    const KeptSession kept = runKeptSession(acceptanceSpec(), sharedAcceptanceFolder());
    QSaveFile index(folder.filePath(kIndexName));
    REQUIRE(index.open(QIODevice::WriteOnly));
    index.write(QJsonDocument(indexOf(kept)).toJson());
    REQUIRE(index.commit());
    // What the cases will read is what was run.
    const auto read = readKeptSession(sharedAcceptanceFolder());
    REQUIRE(read.has_value());
    CHECK(read->chunk_frames == kept.chunk_frames);
    CHECK(read->quality.size() == kept.quality.size());
}

} // namespace lbm::ui::test
