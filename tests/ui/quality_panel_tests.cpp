// The quality counters, the HUD line and the scrub-bar flag marks: colours follow the one
// counter rule (red once flagged, amber when a signal came near its threshold, green
// otherwise, and they hold after the session), the HUD names the newest chunk's flags, and
// each flagged chunk's tick lands on its first frame, spans its frames and says why.

#include "kept_session.h"
#include "ui/counter_grid.h"
#include "ui/counters_panel.h"
#include "ui/hud_overlay.h"
#include "ui/quality_counters_panel.h"
#include "ui/quality_signals.h"
#include "ui/quality_style.h"
#include "ui/scrub_bar.h"

#include <QLabel>
#include <QTest>
#include <QWidget>

#include <catch2/catch.hpp>

using lbm::quality::ChunkQuality;
using lbm::quality::QualityFlag;
using lbm::ui::QualityCountersPanel;
using Level = lbm::ui::CountersPanel::Level;
using Row = QualityCountersPanel::Row;

namespace {

ChunkQuality cleanChunk(qint64 index) {
    ChunkQuality chunk;
    chunk.generation_index = index;
    chunk.frame_count = index == 0 ? 9 : 12;
    if (index > 0) {
        chunk.seam_score = 1.0;
    }
    chunk.sharpness_ratio = 1.0;
    chunk.chroma_drift = 0.5;
    chunk.is_final = true;
    return chunk;
}

} // namespace

TEST_CASE("the quality counters follow the counters' red and amber rule",
          "[ui][quality][counters]") {
    // The rule is the stall rule.
    CHECK(QualityCountersPanel::flagLevel(0, false) == Level::Good);
    CHECK(QualityCountersPanel::flagLevel(0, true) == Level::Warning);
    CHECK(QualityCountersPanel::flagLevel(1, false) == Level::Bad);
    CHECK(QualityCountersPanel::flagLevel(2, true) == Level::Bad);

    QualityCountersPanel panel;
    CHECK(panel.valueText(Row::Analysed) == QStringLiteral("none yet"));
    for (qint64 i = 0; i < 5; ++i) {
        panel.addChunk(cleanChunk(i));
    }
    for (const Row row : {Row::Analysed, Row::Seam, Row::Freeze, Row::Blur, Row::Tint,
                          Row::Transition, Row::Sharpness, Row::ColourDrift}) {
        INFO("row " << static_cast<int>(row));
        CHECK(panel.level(row) == Level::Good);
    }
    CHECK(panel.valueText(Row::Analysed) == QStringLiteral("5 · 0 flagged"));
    CHECK(panel.valueText(Row::Seam) == QStringLiteral("0"));

    // Chunk 5's sharpness is 0.75 of the reference: 83% of the allowed 0.30 loss, near.
    ChunkQuality soft = cleanChunk(5);
    soft.sharpness_ratio = 0.75;
    panel.addChunk(soft);
    CHECK(panel.level(Row::Blur) == Level::Warning);
    CHECK(panel.valueText(Row::Blur) == QStringLiteral("0 · 1 chunk came near"));
    CHECK(panel.level(Row::Sharpness) == Level::Warning);
    CHECK(panel.level(Row::Analysed) == Level::Warning);
    CHECK(panel.valueText(Row::Analysed) == QStringLiteral("6 · 0 flagged · 1 near a threshold"));
    // A newer chunk landed and waits for its verdict: the count says of how many.
    panel.setChunksReceived(7);
    CHECK(panel.valueText(Row::Analysed) ==
          QStringLiteral("6 of 7 · 0 flagged · 1 near a threshold"));
    panel.setChunksReceived(6);
    CHECK(panel.valueText(Row::Analysed) == QStringLiteral("6 · 0 flagged · 1 near a threshold"));
    // The next chunk is sharp again: the newest-chunk row goes green, the count stays amber.
    ChunkQuality sharp = cleanChunk(6);
    sharp.reference_chunk = 5;
    panel.addChunk(sharp);
    CHECK(panel.level(Row::Sharpness) == Level::Good);
    // The newest chunk leads its row; the chunk it is compared with follows.
    CHECK(panel.valueText(Row::Sharpness) ==
          QStringLiteral("chunk 6: 1.00× chunk 5 · flag < 0.70"));
    CHECK(panel.valueText(Row::ColourDrift) == QStringLiteral("0.5 levels · flag ≥ 4.0"));
    CHECK(panel.level(Row::Blur) == Level::Warning);
    // A blank wall fills the view: the chunk's sharpness is not judged, and the row says so
    // instead of a ratio of 1 that was never measured.
    ChunkQuality wall = cleanChunk(7);
    wall.sharpness_judged = false;
    panel.addChunk(wall);
    CHECK(panel.valueText(Row::Sharpness) == QStringLiteral("chunk 7: not judged (blank view)"));
    CHECK(panel.level(Row::Sharpness) == Level::Normal);
    panel.reset();
    for (qint64 i = 0; i < 7; ++i) {
        panel.addChunk(i == 5 ? soft : cleanChunk(i));
    }

    // A seam: red, and red it stays after clean chunks (the session ending changes nothing).
    ChunkQuality seam = cleanChunk(7);
    seam.seam_score = 9.0;
    seam.flags = QualityFlag::Seam;
    panel.addChunk(seam);
    for (qint64 i = 8; i < 12; ++i) {
        panel.addChunk(cleanChunk(i));
    }
    CHECK(panel.level(Row::Seam) == Level::Bad);
    CHECK(panel.valueText(Row::Seam) == QStringLiteral("1 · chunk 7"));
    CHECK(panel.level(Row::Analysed) == Level::Bad);
    CHECK(panel.level(Row::Freeze) == Level::Good);

    // Tint over the threshold in the newest chunk; inside a prompt transition the drift is
    // what is left once the transition's own course is taken out (here little).
    ChunkQuality transition = cleanChunk(12);
    transition.in_transition = true;
    transition.chroma_drift = 0.5;
    panel.addChunk(transition);
    CHECK(panel.level(Row::Tint) == Level::Good);
    CHECK(panel.level(Row::ColourDrift) == Level::Good);
    ChunkQuality tint = cleanChunk(13);
    tint.chroma_drift = 6.0;
    tint.flags = QualityFlag::Tint;
    panel.addChunk(tint);
    CHECK(panel.level(Row::Tint) == Level::Bad);
    CHECK(panel.level(Row::ColourDrift) == Level::Bad);
    CHECK(panel.valueText(Row::ColourDrift).startsWith(QStringLiteral("6.0 levels")));

    // A transition judged late, reported again for the same chunk: counted once, with why.
    ChunkQuality late = cleanChunk(13);
    late.flags = QualityFlag::Tint | QualityFlag::Transition;
    late.chroma_drift = 6.0;
    lbm::quality::TransitionCheck check;
    check.event_id = QStringLiteral("chunk-9");
    check.transition_chunks = 3;
    check.verdict = lbm::quality::TransitionVerdict::Late;
    late.transitions.push_back(check);
    panel.addChunk(late);
    CHECK(panel.valueText(Row::Analysed) == QStringLiteral("14 · 2 flagged"));
    CHECK(panel.valueText(Row::Transition) == QStringLiteral("1 · chunk 13 · chunk-9 K=3 late"));
    CHECK(panel.level(Row::Transition) == Level::Bad);

    panel.reset();
    CHECK(panel.valueText(Row::Analysed) == QStringLiteral("none yet"));
    CHECK(panel.level(Row::Seam) == Level::Normal);
}

TEST_CASE("the quality counters of the faulted session count each fault",
          "[ui][quality][counters][kept-acceptance]") {
    const auto& session = lbm::ui::test::acceptanceSession();
    QualityCountersPanel panel;
    panel.setChunks(session.quality);
    CHECK(panel.valueText(Row::Seam) == QStringLiteral("1 · chunk 6"));
    CHECK(panel.valueText(Row::Freeze) == QStringLiteral("1 · chunk 10"));
    CHECK(panel.level(Row::Blur) == Level::Bad);
    CHECK(panel.level(Row::Tint) == Level::Bad);
    CHECK(panel.level(Row::Transition) == Level::Good);
    CHECK(panel.valueText(Row::Transition) == QStringLiteral("0"));
    // The newest chunk (23) is still tinted (the cast keeps growing); its detail is what the
    // chunk before it had (the blur was flagged where detail was lost, at chunk 14).
    CHECK(panel.level(Row::Sharpness) != Level::Bad);
    CHECK(panel.level(Row::ColourDrift) == Level::Bad);
}

TEST_CASE("the HUD line names the newest chunk's flags", "[ui][quality][hud]") {
    ChunkQuality chunk = cleanChunk(5);
    CHECK(lbm::ui::qualityHudLine(chunk) == QStringLiteral("quality ok · chunk 5"));
    chunk.generation_index = 6;
    chunk.seam_score = 20.6;
    chunk.flags = QualityFlag::Seam;
    CHECK(lbm::ui::qualityHudLine(chunk) ==
          QStringLiteral("quality: seam at chunk 6 (score 20.6)"));
    chunk.flags = QualityFlag::Blur | QualityFlag::Tint;
    CHECK(lbm::ui::qualityHudLine(chunk) == QStringLiteral("quality: blur, tint at chunk 6"));
    // The window puts it in the HUD state; the HUD shows it under the buffer line.
    lbm::ui::HudState state;
    state.quality = lbm::ui::qualityHudLine(chunk);
    const QStringList lines = lbm::ui::composeHudLines(state);
    REQUIRE(lines.size() == 2);
    CHECK(lines.at(1) == state.quality);
}

TEST_CASE("flag ticks land on the flagged chunks' first frames",
          "[ui][quality][scrub][kept-acceptance]") {
    const auto& session = lbm::ui::test::acceptanceSession();
    std::vector<int> first_frames;
    int frames = 0;
    for (const int count : session.chunk_frames) {
        first_frames.push_back(frames);
        frames += count;
    }
    const QPalette palette;
    const QList<lbm::ui::ScrubMark> marks = lbm::ui::qualityScrubMarks(
        session.quality, first_frames, lbm::quality::QualityThresholds{}, palette);
    int flagged = 0;
    for (const ChunkQuality& chunk : session.quality) {
        flagged += chunk.flags ? 1 : 0;
    }
    REQUIRE(marks.size() == flagged);
    // Chunk 0 holds 9 frames and the others 12: chunk 6 starts at frame 9 + 5 * 12 = 69.
    const auto& seam = marks.front();
    CHECK(seam.kind == lbm::ui::ScrubMark::Kind::Flag);
    CHECK(seam.frame == 69);
    CHECK(seam.span_frames == 12);
    CHECK(seam.color == lbm::ui::qualityFlagColor(QualityFlag::Seam, palette));
    CHECK(seam.tooltip.startsWith(QStringLiteral("chunk 6: seam (score ")));
    CHECK(marks.at(1).frame == 9 + 9 * 12); // the freeze at chunk 10
    CHECK(marks.at(1).color == lbm::ui::qualityFlagColor(QualityFlag::Freeze, palette));
    CHECK(marks.at(1).tooltip.contains(QStringLiteral("repeated frames")));

    // On the bar: hovering anywhere over the seam's chunk finds it, and its colour is drawn
    // there, distinct from the chunk ticks.
    lbm::ui::ScrubBar bar;
    bar.resize(1200, 60);
    QList<lbm::ui::ScrubMark> all;
    for (int i = 0; i < static_cast<int>(first_frames.size()); ++i) {
        all.append({first_frames[static_cast<size_t>(i)], lbm::ui::ScrubMark::Kind::Chunk,
                    QStringLiteral("chunk %1").arg(i)});
    }
    all += marks;
    bar.setFrames(frames, all);
    bar.show();
    REQUIRE(QTest::qWaitForWindowExposed(&bar));
    const int middle = bar.xOfFrame(69 + 6);
    REQUIRE(bar.markAt(middle) >= 0);
    CHECK(bar.marks().at(bar.markAt(middle)).frame == 69);
    CHECK(bar.marks().at(bar.markAt(bar.xOfFrame(69))).kind == lbm::ui::ScrubMark::Kind::Flag);
    const QImage image = bar.grab().toImage();
    const QColor painted =
        image.pixelColor(middle * image.width() / bar.width(), 10 * image.height() / bar.height());
    CHECK(painted == seam.color);
    // A click on the band jumps to the flagged chunk's first frame.
    bar.setPosition(0);
    QTest::mouseClick(&bar, Qt::LeftButton, Qt::NoModifier, QPoint(middle, 10));
    CHECK(bar.position() == 69);
}

TEST_CASE("a chunk with two flags shows both on the scrub bar, tint under blur included",
          "[ui][quality][scrub]") {
    // Chunk 2 of three 12-frame chunks went soft and drifted in colour at once.
    std::vector<ChunkQuality> chunks(3);
    for (int i = 0; i < 3; ++i) {
        chunks[static_cast<size_t>(i)].generation_index = i;
        chunks[static_cast<size_t>(i)].frame_count = 12;
        chunks[static_cast<size_t>(i)].is_final = true;
    }
    chunks[2].flags = QualityFlag::Blur | QualityFlag::Tint;
    const QPalette palette;
    const QColor blur = lbm::ui::qualityFlagColor(QualityFlag::Blur, palette);
    const QColor tint = lbm::ui::qualityFlagColor(QualityFlag::Tint, palette);
    REQUIRE(blur != tint);
    const auto marks =
        lbm::ui::qualityScrubMarks(chunks, {0, 12, 24}, lbm::quality::QualityThresholds{}, palette);
    REQUIRE(marks.size() == 1);
    CHECK(marks.front().stripes == QList<QColor>{blur, tint});
    const auto chunk_marks =
        lbm::ui::qualityChunkMarks(chunks, lbm::quality::QualityThresholds{}, palette);
    REQUIRE(chunk_marks.size() == 1);
    CHECK(chunk_marks.front().stripes == QList<QColor>{blur, tint});

    // Painted: over the chunk's frames, both colours one above the other.
    lbm::ui::ScrubBar bar;
    bar.resize(600, 60);
    bar.setFrames(36, marks);
    bar.show();
    REQUIRE(QTest::qWaitForWindowExposed(&bar));
    const QImage image = bar.grab().toImage();
    const int x = bar.xOfFrame(30) * image.width() / bar.width();
    QList<QColor> column;
    for (int y = 0; y < 14 * image.height() / bar.height(); ++y) {
        const QColor colour = image.pixelColor(x, y);
        if (column.isEmpty() || column.back() != colour) {
            column.append(colour);
        }
    }
    INFO("colours down the band: " << column.size());
    CHECK(column.contains(blur));
    CHECK(column.contains(tint));
    // Tint above blur: blur (first in report order) at the bottom.
    CHECK(column.indexOf(tint) < column.indexOf(blur));
}

TEST_CASE("after the session the key response row says no key was pressed, not none yet",
          "[ui][quality][counters]") {
    QualityCountersPanel panel;
    for (qint64 i = 0; i < 3; ++i) {
        panel.addChunk(cleanChunk(i));
    }
    CHECK(panel.valueText(Row::Response) == QStringLiteral("none yet"));
    panel.setSessionOver();
    CHECK(panel.valueText(Row::Response) == QStringLiteral("no key pressed"));
    // A new session waits again.
    panel.reset();
    panel.addChunk(cleanChunk(0));
    CHECK(panel.valueText(Row::Response) == QStringLiteral("none yet"));
}

TEST_CASE("a counter value wraps between its parts, never inside a short one", "[ui][counters]") {
    QWidget owner;
    lbm::ui::CounterGrid grid(&owner);
    grid.addRow(1, QStringLiteral("Player stalls"), QString(), false);
    grid.addRow(2, QStringLiteral("State"), QString(), false);
    const QString stalls = QStringLiteral("0 · total 0 ms · longest 0 ms");
    grid.set(1, stalls, Level::Good);
    // A long part (a server's error) keeps its spaces, so it can still wrap as words.
    const QString failed =
        QStringLiteral("failed · the server closed the connection before session.done");
    grid.set(2, failed, Level::Bad);
    // What the rows say is unchanged; what the labels show keeps "longest 0 ms" whole.
    CHECK(grid.valueText(1) == stalls);
    CHECK(grid.valueText(2) == failed);
    QStringList shown;
    for (const QLabel* label : owner.findChildren<QLabel*>()) {
        shown.append(label->text());
    }
    const QString nbsp(QChar(0x00A0));
    CHECK(shown.contains(QStringLiteral("0 · total") + nbsp + QStringLiteral("0") + nbsp +
                         QStringLiteral("ms · longest") + nbsp + QStringLiteral("0") + nbsp +
                         QStringLiteral("ms")));
    CHECK(shown.contains(failed));
}
