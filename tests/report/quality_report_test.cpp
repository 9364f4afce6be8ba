// The visual quality analysis in the session document (round trip, errors that name the
// field), the "Visual quality" section and the CSV columns.

#include "app/report/quality_json.h"
#include "app/report/quality_text.h"
#include "app/report/report_error.h"
#include "app/report/session_document.h"
#include "app/report/workload_json.h"
#include "metrics/workload.h"

#include <QJsonArray>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

using namespace lbm::report;
using lbm::quality::ChunkQuality;
using lbm::quality::QualityFlag;
using lbm::quality::SteeringResponse;
using lbm::quality::TransitionCheck;
using lbm::quality::TransitionVerdict;

namespace {

ChunkQuality chunkAt(qint64 index) {
    ChunkQuality chunk;
    chunk.generation_index = index;
    chunk.frame_count = index == 0 ? 9 : 12;
    chunk.change_median = 1.25 + static_cast<double>(index);
    chunk.boundary_change =
        index == 0 ? std::nullopt : std::optional<double>(1.5 + static_cast<double>(index));
    chunk.seam_score =
        index == 0 ? std::nullopt : std::optional<double>(1.0 + static_cast<double>(index) / 10.0);
    chunk.sharpness = 1.5;
    chunk.sharpness_ratio = 1.0 - static_cast<double>(index) / 20.0;
    chunk.mean_y = 110.5;
    chunk.mean_u = 120.25;
    chunk.mean_v = 140.75;
    chunk.chroma_drift = 0.5 * static_cast<double>(index);
    chunk.camera_moving = true;
    chunk.is_final = true;
    return chunk;
}

// Six chunks: a transition landing late at 2, a seam at 3, a freeze at 4, blur and tint at 5.
SessionQuality sampleAnalysis() {
    SessionQuality analysis;
    analysis.settings.thresholds.seam_score = 3.5;
    for (qint64 i = 0; i < 6; ++i) {
        analysis.chunks.push_back(chunkAt(i));
    }
    analysis.chunks[1].in_transition = true;
    analysis.chunks[2].in_transition = true;
    analysis.chunks[2].transitions.push_back(
        TransitionCheck{QStringLiteral("chunk-0"), 2, 1, 2, 3, TransitionVerdict::Late});
    analysis.chunks[2].flags = QualityFlag::Transition;
    analysis.chunks[2].notes = {QStringLiteral("landed late")};
    analysis.chunks[3].seam_score = 12.5;
    analysis.chunks[3].flags = QualityFlag::Seam;
    analysis.chunks[4].frozen_frames = 11;
    analysis.chunks[4].flags = QualityFlag::Freeze;
    // A blank wall filled chunk 1's view: its sharpness was not judged.
    analysis.chunks[1].sharpness_judged = false;
    analysis.chunks[5].sharpness_ratio = 0.4;
    analysis.chunks[5].chroma_drift = 9.0;
    // Steering: 'w' held from chunk 4; the picture followed from chunk 5, 0.31 s after the key.
    analysis.chunks[4].steering_keys = QStringLiteral("w");
    analysis.chunks[4].steering_moves = true;
    analysis.chunks[4].following = 0.0;
    analysis.chunks[4].motion_zoom_percent = 0.0;
    analysis.chunks[5].steering_keys = QStringLiteral("w");
    analysis.chunks[5].steering_moves = true;
    analysis.chunks[5].following = 1.0;
    analysis.chunks[5].motion_x = 0.25;
    analysis.chunks[5].motion_y = -0.5;
    analysis.chunks[5].motion_zoom_percent = 1.125;
    analysis.chunks[5].responses = {
        SteeringResponse{QStringLiteral("ui-1"), QStringLiteral("w"), 4, 5, 0, 310.0}};
    analysis.chunks[5].flags = QualityFlag::Blur | QualityFlag::Tint;
    analysis.chunks[5].is_final = false;
    return analysis;
}

void requireSame(const SessionQuality& a, const SessionQuality& b) {
    CHECK(a.settings.thresholds.seam_score == b.settings.thresholds.seam_score);
    CHECK(a.settings.thresholds.freeze_min_frames == b.settings.thresholds.freeze_min_frames);
    CHECK(a.settings.edge_margin == b.settings.edge_margin);
    CHECK(a.settings.sample_step == b.settings.sample_step);
    REQUIRE(a.chunks.size() == b.chunks.size());
    for (size_t i = 0; i < a.chunks.size(); ++i) {
        const ChunkQuality& x = a.chunks[i];
        const ChunkQuality& y = b.chunks[i];
        INFO("chunk " << i);
        CHECK(x.generation_index == y.generation_index);
        CHECK(x.frame_count == y.frame_count);
        CHECK(x.change_median == y.change_median);
        CHECK(x.boundary_change == y.boundary_change);
        CHECK(x.seam_score == y.seam_score);
        CHECK(x.frozen_frames == y.frozen_frames);
        CHECK(x.sharpness_ratio == y.sharpness_ratio);
        CHECK(x.sharpness_judged == y.sharpness_judged);
        CHECK(x.mean_u == y.mean_u);
        CHECK(x.chroma_drift == y.chroma_drift);
        CHECK(x.reference_chunk == y.reference_chunk);
        CHECK(x.in_transition == y.in_transition);
        CHECK(x.transitions == y.transitions);
        CHECK(x.flags == y.flags);
        CHECK(x.notes == y.notes);
        CHECK(x.is_final == y.is_final);
        CHECK(x.motion_expected == y.motion_expected);
        CHECK(x.steering_keys == y.steering_keys);
        CHECK(x.steering_moves == y.steering_moves);
        CHECK(x.motion_x == y.motion_x);
        CHECK(x.motion_y == y.motion_y);
        CHECK(x.motion_zoom_percent == y.motion_zoom_percent);
        CHECK(x.following == y.following);
        CHECK(x.responses == y.responses);
    }
}

} // namespace

TEST_CASE("the quality analysis round-trips through the session document", "[report][quality]") {
    const SessionQuality analysis = sampleAnalysis();
    requireSame(qualityFromJson(qualityToJson(analysis), QStringLiteral("quality")), analysis);

    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    SessionDocument document;
    document.workload = describeWorkload(lbm::defaultWorkload("data:image/png;base64,AA==", 1));
    SessionEntry session;
    session.chunks = {lbm::ChunkRecord{0, 0.2, 0.2, 1000, 9}};
    setSessionQuality(session, analysis);
    document.sessions.push_back(session);
    const QString path = dir.filePath(QStringLiteral("doc.json"));
    writeSessionDocument(document, path);
    const SessionDocument read = readSessionDocument(path);
    const auto stored = sessionQuality(read.sessions.at(0), QStringLiteral("sessions[0]"));
    REQUIRE(stored);
    requireSame(*stored, analysis);
    // Under our own key, beside whatever else we keep per session.
    CHECK(read.sessions.at(0).monitor_extras.contains(kQualityKey));
    CHECK_FALSE(sessionQuality(SessionEntry{}, QStringLiteral("sessions[0]")));
}

TEST_CASE("a document written before the steering analysis still opens", "[report][quality]") {
    SessionQuality analysis = sampleAnalysis();
    analysis.chunks[3].camera_moving = false;
    analysis.chunks[4].camera_moving = false;
    QJsonObject stored = qualityToJson(analysis);
    QJsonObject settings = stored.value(QStringLiteral("settings")).toObject();
    QJsonObject thresholds = settings.value(QStringLiteral("thresholds")).toObject();
    for (const char* added : {"sharpness_zoom_exponent", "steering_min_pan_px", "steering_min_zoom",
                              "following_min_share", "seam_plain_ratio"}) {
        REQUIRE(thresholds.contains(QLatin1String(added)));
        thresholds.remove(QLatin1String(added));
    }
    settings.insert(QStringLiteral("thresholds"), thresholds);
    stored.insert(QStringLiteral("settings"), settings);
    QJsonArray chunks = stored.value(QStringLiteral("chunks")).toArray();
    for (qsizetype i = 0; i < chunks.size(); ++i) {
        QJsonObject chunk = chunks.at(i).toObject();
        for (const char* added :
             {"motion_expected", "steering_keys", "steering_moves", "motion_x", "motion_y",
              "motion_zoom_percent", "following", "responses", "sharpness_judged"}) {
            REQUIRE(chunk.contains(QLatin1String(added)));
            chunk.remove(QLatin1String(added));
        }
        chunks.replace(i, chunk);
    }
    stored.insert(QStringLiteral("chunks"), chunks);
    const SessionQuality read = qualityFromJson(stored, QStringLiteral("quality"));
    REQUIRE(read.chunks.size() == analysis.chunks.size());
    CHECK(read.settings.thresholds.following_min_share ==
          lbm::quality::QualityThresholds{}.following_min_share);
    // Repeated frames were drawn as a freeze where the camera moved or a freeze was flagged.
    CHECK(read.chunks[4].motion_expected);
    CHECK_FALSE(read.chunks[3].motion_expected);
    CHECK(read.chunks[5].motion_expected);
    CHECK(read.chunks[5].responses.empty());
    CHECK_FALSE(read.chunks[5].following);
    CHECK(read.chunks[5].flags == analysis.chunks[5].flags);
    // Every chunk was judged before the field.
    CHECK(read.chunks[1].sharpness_judged);
}

TEST_CASE("a malformed stored analysis names the field", "[report][quality]") {
    QJsonObject stored = qualityToJson(sampleAnalysis());
    QJsonArray chunks = stored.value(QStringLiteral("chunks")).toArray();
    QJsonObject third = chunks.at(3).toObject();
    SECTION("a wrong type") {
        third.insert(QStringLiteral("seam_score"), QStringLiteral("high"));
        chunks.replace(3, third);
        stored.insert(QStringLiteral("chunks"), chunks);
        try {
            qualityFromJson(stored, QStringLiteral("sessions[0].lingbot_monitor.quality"));
            FAIL("no error");
        } catch (const ReportError& error) {
            CHECK(error.message().contains(
                QStringLiteral("sessions[0].lingbot_monitor.quality.chunks[3].seam_score")));
        }
    }
    SECTION("an unknown flag") {
        third.insert(QStringLiteral("flags"), QJsonArray{QStringLiteral("wobble")});
        chunks.replace(3, third);
        stored.insert(QStringLiteral("chunks"), chunks);
        CHECK_THROWS_WITH(qualityFromJson(stored, QStringLiteral("q")),
                          Catch::Contains("wobble") && Catch::Contains("q.chunks[3].flags"));
    }
}

TEST_CASE("the Visual quality section", "[report][quality]") {
    const QString text = formatQualitySection({{1, sampleAnalysis()}});
    // f"{label:<44}{value:>16}" and the 60-wide rulers, built here independently.
    const auto row = [](const char* label, const char* value) -> QString {
        return QString::fromLatin1(label).leftJustified(44) +
               QString::fromLatin1(value).rightJustified(16) + QLatin1Char('\n');
    };
    const QString expected =
        QStringLiteral("====================== Visual quality ======================\n") +
        row("Chunks analysed:", "6") + row("Flagged chunks:", "4 of 6") +
        row("  seam (score >= 3.5):", "3") + row("  freeze (>= 4 repeated frames):", "4") +
        row("  blur (sharpness < 0.70 x chunk before):", "5") +
        row("  tint (chroma moves >= 4.0 levels):", "5") +
        row("  transition (lands off its K chunks):", "2") +
        row("  action (< 50 % of frames follow camera):", "none") +
        row("Worst seam score:", "12.50 (chunk 3)") +
        row("Longest run of repeated frames:", "11 (chunk 4)") +
        row("Lowest sharpness vs the chunk before:", "0.40x (chunk 5)") +
        row("Largest colour move vs the chunk before:", "9.00 (chunk 5)") +
        row("Prompt transitions on time:", "0 of 1") + row("Camera commands answered:", "1") +
        row("  Response p50 / p95:", "310 ms / 310 ms (1.0 / 1.0 chunks)") +
        row("Frames following the camera:", "50.0 %") + QString(60, QLatin1Char('=')) +
        QLatin1Char('\n');
    CHECK(text.toStdString() == expected.toStdString());
    CHECK(formatQualitySection(std::vector<std::pair<int, SessionQuality>>{}).isEmpty());
    CHECK(formatQualitySection(SessionDocument{}).isEmpty());
    const QString two = formatQualitySection({{1, sampleAnalysis()}, {2, SessionQuality{}}});
    CHECK(two.contains(QString(24, QLatin1Char('-')) + QStringLiteral(" Session 2 ") +
                       QString(25, QLatin1Char('-')) + QLatin1Char('\n')));
    CHECK(chunkRanges({0, 1, 2, 5, 7, 8}) == QStringLiteral("0-2, 5, 7-8"));
    CHECK(chunkRanges({}) == QStringLiteral("none"));
}

TEST_CASE("the CSV gains quality_flags and the numeric signals", "[report][quality]") {
    std::vector<lbm::ChunkRecord> records;
    for (std::int64_t i = 0; i < 7; ++i) {
        records.push_back(
            lbm::ChunkRecord{i, 0.1 * static_cast<double>(i + 1), 0.1, 1000, i == 0 ? 9 : 12});
    }
    ChunkCsvTable table(records, 750.0, 1);
    addQualityColumns(table, sampleAnalysis().chunks); // chunk 6 was not analysed
    const QStringList lines = QString::fromUtf8(table.toCsv()).split(QLatin1Char('\n'));
    CHECK(lines.at(0).endsWith(
        QStringLiteral(",quality_flags,change_median,boundary_change,seam_score,frozen_frames,"
                       "sharpness,sharpness_ratio,chroma_drift,steering_keys,motion_x_px,"
                       "motion_y_px,motion_zoom_pct,following,response_ms,response_chunks")));
    CHECK(lines.at(1).endsWith(QStringLiteral(",,1.250,,,0,1.500,1.000,0.000,,,,,,,")));
    // Chunk 1's sharpness was not judged: no ratio rather than a 0.950 nobody measured.
    CHECK(lines.at(2).endsWith(QStringLiteral(",,2.250,2.500,1.100,0,1.500,,0.500,,,,,,,")));
    CHECK(lines.at(4).endsWith(
        QStringLiteral(",seam,4.250,4.500,12.500,0,1.500,0.850,1.500,,,,,,,")));
    CHECK(lines.at(6).endsWith(QStringLiteral(",blur;tint,6.250,6.500,1.500,0,1.500,0.400,9.000,"
                                              "w,0.250,-0.500,1.125,1.000,310.0,1")));
    CHECK(lines.at(7).endsWith(QStringLiteral(",,,,,,,,,,,,,,,")));
}
