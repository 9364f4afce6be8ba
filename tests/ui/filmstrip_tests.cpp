// The transition filmstrip: which frames a strip shows for K=1, K=3 and a transition that
// never completed, the prompt interactions read from a document's timeline, thumbnails that
// are the recording's own frames (decoded off the GUI thread), a click asking for the frame,
// and a contact sheet PNG that shows exactly those thumbnails where its layout says.

#include "app/media/recording_reader.h"
#include "kept_session.h"
#include "ui/filmstrip_layout.h"
#include "ui/prompt_interactions.h"
#include "ui/transition_filmstrip.h"

#include <QImageReader>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <catch2/catch.hpp>

using lbm::ui::FilmstripFrame;
using lbm::ui::PromptInteraction;
using Role = FilmstripFrame::Role;

namespace {

// 9 frames in chunk 0, 12 in every other, as the server sends them.
std::vector<int> chunkFrames(int chunks) {
    std::vector<int> frames(static_cast<size_t>(chunks), 12);
    frames.front() = 9;
    return frames;
}

int firstFrame(qint64 chunk) {
    return chunk == 0 ? 0 : 9 + static_cast<int>(chunk - 1) * 12;
}

PromptInteraction interaction(int k, std::optional<qint64> started,
                              std::optional<qint64> completed) {
    PromptInteraction p;
    p.event_id = QStringLiteral("ui-1");
    p.prompt = QStringLiteral("Snow");
    p.transition_chunks = k;
    p.started_chunk = started;
    p.completed_chunk = completed;
    return p;
}

// (chunk, role, step) of each chunk's first frame, with both of its frames checked.
std::vector<std::tuple<qint64, Role, int>> chunksOf(const std::vector<FilmstripFrame>& frames) {
    std::vector<std::tuple<qint64, Role, int>> chunks;
    for (size_t i = 0; i < frames.size(); i += 2) {
        REQUIRE(i + 1 < frames.size());
        const FilmstripFrame& first = frames[i];
        const FilmstripFrame& last = frames[i + 1];
        CHECK(first.first);
        CHECK_FALSE(last.first);
        CHECK(first.chunk == last.chunk);
        CHECK(first.frame == firstFrame(first.chunk));
        CHECK(last.frame == firstFrame(first.chunk) + (first.chunk == 0 ? 8 : 11));
        chunks.emplace_back(first.chunk, first.role, first.step);
    }
    return chunks;
}

} // namespace

TEST_CASE("a filmstrip shows the chunk before a transition to the chunk after it",
          "[ui][quality][filmstrip]") {
    const std::vector<int> frames = chunkFrames(20);
    using Chunks = std::vector<std::tuple<qint64, Role, int>>;

    // K=1: started and completed in chunk 8.
    CHECK(chunksOf(lbm::ui::filmstripFrames(interaction(1, 8, 8), frames)) ==
          Chunks{{7, Role::Before, 0}, {8, Role::Completed, 1}, {9, Role::After, 0}});
    // K=3: chunks 5, 6 and 7.
    CHECK(chunksOf(lbm::ui::filmstripFrames(interaction(3, 5, 7), frames)) ==
          Chunks{{4, Role::Before, 0},
                 {5, Role::Transition, 1},
                 {6, Role::Transition, 2},
                 {7, Role::Completed, 3},
                 {8, Role::After, 0}});
    // Completed later than its K said: every chunk to the completion is shown.
    CHECK(chunksOf(lbm::ui::filmstripFrames(interaction(1, 5, 6), frames)).size() == 4);
    // Never completed: to the chunk after the one it should have landed in (5 + 3 - 1 = 7).
    const auto never = lbm::ui::filmstripStrip(interaction(3, 5, std::nullopt), frames);
    CHECK(chunksOf(never.frames) == Chunks{{4, Role::Before, 0},
                                           {5, Role::Transition, 1},
                                           {6, Role::Transition, 2},
                                           {7, Role::Transition, 3},
                                           {8, Role::After, 0}});
    CHECK(never.note.startsWith(QStringLiteral("never completed")));
    // Superseded in chunk 7 by a newer prompt before it completed: its own chunks 5 and 6, then
    // chunk 7 labelled as the newer prompt's, and nothing after; never "never completed".
    PromptInteraction superseded = interaction(3, 5, std::nullopt);
    superseded.superseded_by = QStringLiteral("ui-2");
    superseded.superseded_by_prompt = QStringLiteral("A desert at noon");
    superseded.superseded_chunk = 7;
    const auto cut_off = lbm::ui::filmstripStrip(superseded, frames);
    CHECK(chunksOf(cut_off.frames) == Chunks{{4, Role::Before, 0},
                                             {5, Role::Transition, 1},
                                             {6, Role::Transition, 2},
                                             {7, Role::After, 0}});
    CHECK(cut_off.note ==
          QStringLiteral("superseded before it completed: shown to chunk 7, where ‘A desert at "
                         "noon’ starts"));
    // The strip's header names the newer prompt, and the last chunk's label says whose it is.
    const QString header = lbm::ui::filmstripHeaderText(cut_off);
    CHECK(header.contains(QStringLiteral("superseded by ‘A desert at noon’ at chunk 7")));
    CHECK_FALSE(header.contains(QStringLiteral("never completed")));
    CHECK(lbm::ui::filmstripChunkLabel(cut_off.frames.back(), superseded) ==
          QStringLiteral("chunk 7 · the newer prompt"));
    CHECK(lbm::ui::filmstripChunkLabel(cut_off.frames[2], superseded) ==
          QStringLiteral("chunk 5 · 1/3"));
    // Never started: nothing to show, and it says so.
    const auto unstarted =
        lbm::ui::filmstripStrip(interaction(2, std::nullopt, std::nullopt), frames);
    CHECK(unstarted.frames.empty());
    CHECK(unstarted.note.startsWith(QStringLiteral("never started")));
    // At the session's edges: no chunk before chunk 0, none after the last.
    CHECK(chunksOf(lbm::ui::filmstripFrames(interaction(1, 0, 0), frames)) ==
          Chunks{{0, Role::Completed, 1}, {1, Role::After, 0}});
    CHECK(chunksOf(lbm::ui::filmstripFrames(interaction(3, 18, std::nullopt), frames)) ==
          Chunks{{17, Role::Before, 0}, {18, Role::Transition, 1}, {19, Role::Transition, 2}});
}

TEST_CASE("prompt interactions come from the document's timeline with their K",
          "[ui][quality][filmstrip]") {
    const QJsonArray timeline = {
        QJsonObject{{QStringLiteral("event_id"), QStringLiteral("chunk-6")},
                    {QStringLiteral("kind"), QStringLiteral("scheduled-prompt")},
                    {QStringLiteral("summary"), QStringLiteral("Snow falls over a harbour.")},
                    {QStringLiteral("started_chunk"), 8},
                    {QStringLiteral("completed_chunk"), 8}},
        QJsonObject{{QStringLiteral("event_id"), QStringLiteral("ui-3-1a2b")},
                    {QStringLiteral("kind"), QStringLiteral("camera-velocity")},
                    {QStringLiteral("summary"), QStringLiteral("velocity t=(0,0,1)")}},
        QJsonObject{
            {QStringLiteral("event_id"), QStringLiteral("ui-4-1a2b")},
            {QStringLiteral("kind"), QStringLiteral("prompt")},
            {QStringLiteral("summary"), QStringLiteral("'A desert at noon' over 3 chunk(s)")},
            {QStringLiteral("started_chunk"), 12},
            {QStringLiteral("completed_chunk"), QJsonValue()}},
    };
    const QJsonObject workload{{QStringLiteral("prompt_updates"),
                                QJsonArray{QJsonObject{{QStringLiteral("after_chunk"), 6},
                                                       {QStringLiteral("transition_chunks"), 1}}}}};
    const auto prompts = lbm::ui::promptInteractionsFromJson(timeline, workload);
    REQUIRE(prompts.size() == 2);
    CHECK(prompts[0].prompt == QStringLiteral("Snow falls over a harbour."));
    CHECK(prompts[0].transition_chunks == 1);
    CHECK(prompts[0].started_chunk == 8);
    CHECK(prompts[0].completed_chunk == 8);
    CHECK(prompts[1].prompt == QStringLiteral("A desert at noon"));
    CHECK(prompts[1].transition_chunks == 3);
    CHECK(prompts[1].started_chunk == 12);
    CHECK_FALSE(prompts[1].completed_chunk.has_value());
    CHECK(prompts[1].expectedChunk() == 14);
    CHECK(prompts[0].superseded_by.isEmpty());
    // Without the workload a scheduled prompt's K is unknown, and says so.
    CHECK(lbm::ui::promptInteractionsFromJson(timeline).front().kText() == QStringLiteral("K=?"));
}

TEST_CASE("the filmstrip of a real session shows the recording's frames and exports them",
          "[ui][quality][filmstrip][kept-acceptance]") {
    const auto& session = lbm::ui::test::acceptanceSession();
    const auto prompts =
        lbm::ui::promptInteractionsFromJson(session.interactions, session.workload);
    REQUIRE(prompts.size() == 2);
    CHECK(prompts[0].transition_chunks == 3);
    CHECK(prompts[1].transition_chunks == 1);

    lbm::ui::TransitionFilmstrip filmstrip;
    QSignalSpy loaded(&filmstrip, &lbm::ui::TransitionFilmstrip::loaded);
    filmstrip.setSession(session.recording_path, session.chunk_frames, prompts);
    filmstrip.setTransitionChecks(session.quality);
    REQUIRE(filmstrip.strips().size() == 2);
    // K=3 from chunk 2: chunks 1..5; K=1 in chunk 8: chunks 7..9.
    CHECK(filmstrip.strips()[0].frames.size() == 10);
    CHECK(filmstrip.strips()[1].frames.size() == 6);
    CHECK(filmstrip.strips()[1].verdict.contains(QStringLiteral("on-time")));
    REQUIRE((loaded.count() > 0 || loaded.wait(30000)));
    CHECK(filmstrip.statusText().startsWith(QStringLiteral("2 prompt transitions · 16 of 16")));

    // Each thumbnail is the recording's frame at the sheet's tile size.
    lbm::media::RecordingReader reader;
    REQUIRE(reader.open(session.recording_path));
    const QSize tile = lbm::ui::TransitionFilmstrip::sheetMetrics().tile;
    for (const int frame : filmstrip.framesShown()) {
        INFO("frame " << frame);
        const auto decoded = reader.frame(frame);
        REQUIRE(decoded.has_value());
        CHECK(filmstrip.thumbnail(frame) == decoded->toImage(tile));
    }

    // A click on the K=1 strip's completed chunk's first frame asks for that frame.
    filmstrip.resize(1900, 700); // every strip whole, no horizontal scrolling
    filmstrip.show();
    REQUIRE(QTest::qWaitForWindowExposed(&filmstrip));
    QTest::qWait(100); // not a proof: the strips' layout settles
    QSignalSpy requested(&filmstrip, &lbm::ui::TransitionFilmstrip::frameRequested);
    const QPoint at = filmstrip.tilePosition(1, 2);
    QWidget* target = filmstrip.childAt(at);
    REQUIRE(target != nullptr);
    QTest::mouseClick(target, Qt::LeftButton, Qt::NoModifier, target->mapFrom(&filmstrip, at));
    REQUIRE(requested.count() == 1);
    CHECK(requested.first().at(0).toInt() == firstFrame(8));

    // The contact sheet: a readable PNG of the layout's size, the thumbnails where it says.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("transitions.png"));
    QString error;
    REQUIRE(filmstrip.exportContactSheet(path, &error, QStringLiteral("Transitions")));
    QImageReader png(path);
    CHECK(png.format() == "png");
    const QImage sheet = png.read();
    REQUIRE_FALSE(sheet.isNull());
    const auto layout = lbm::ui::contactSheetLayout(filmstrip.strips(),
                                                    lbm::ui::TransitionFilmstrip::sheetMetrics());
    CHECK(sheet.size() == layout.size);
    CHECK(sheet.width() >= 10 * tile.width());
    for (size_t s = 0; s < filmstrip.strips().size(); ++s) {
        const auto& strip = filmstrip.strips()[s];
        for (int i = 0; i < static_cast<int>(strip.frames.size()); ++i) {
            const QRect rect =
                lbm::ui::filmstripTileRect(strip, i, lbm::ui::TransitionFilmstrip::sheetMetrics())
                    .translated(layout.strip_origins[s]);
            const QImage expected = filmstrip.thumbnail(strip.frames[static_cast<size_t>(i)].frame)
                                        .convertToFormat(QImage::Format_RGB32);
            // The tile's inside (its border is drawn over the edge).
            const QRect inside = QRect(QPoint(0, 0), rect.size()).adjusted(4, 4, -4, -4);
            const QImage shown =
                sheet.copy(rect).copy(inside).convertToFormat(QImage::Format_RGB32);
            INFO("strip " << s << " tile " << i);
            CHECK(shown == expected.copy(inside));
        }
    }
    // Nothing left behind but the sheet (QSaveFile writes a temporary and renames it).
    CHECK(QDir(dir.path()).entryList(QDir::Files) ==
          QStringList{QStringLiteral("transitions.png")});
    // An unwritable path says so.
    CHECK_FALSE(filmstrip.exportContactSheet(QStringLiteral("/proc/lbm-no/sheet.png"), &error));
    CHECK(error.contains(QStringLiteral("Cannot write")));
}
