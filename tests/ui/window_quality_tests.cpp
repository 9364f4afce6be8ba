// The window's visual quality instruments on a real session: the built-in simulator on
// 127.0.0.1 with a seam injected at chunk 6 and a prompt scheduled after chunk 8, watched through
// MainWindow as a user would (the track under the chart, the quality counters, the HUD line
// for the chunk on screen, the flags on the recording's scrub bar, the transition filmstrip),
// then the kept session reopened from its document with the same results.

#include "app/engine/session_engine.h"
#include "app/quality/chunk_quality.h"
#include "app/report/quality_json.h"
#include "app/report/session_document.h"
#include "ui/main_window.h"
#include "ui/quality_counters_panel.h"
#include "ui/quality_track.h"
#include "ui/quality_views.h"
#include "ui/recording_player.h"
#include "ui/scrub_bar.h"
#include "ui/session_form.h"
#include "ui/transition_filmstrip.h"

#include <QAbstractScrollArea>
#include <QSettings>
#include <QTest>

#include <catch2/catch.hpp>

using lbm::quality::QualityFlag;
using lbm::ui::MainWindow;
using lbm::ui::QualityCountersPanel;

namespace {

// The first frame of each chunk as the scrub bar places them (its Chunk marks).
int firstFrameOfChunk(const lbm::ui::ScrubBar& bar, int chunk) {
    int seen = 0;
    for (const auto& mark : bar.marks()) {
        if (mark.kind == lbm::ui::ScrubMark::Kind::Chunk && seen++ == chunk) {
            return mark.frame;
        }
    }
    return -1;
}

} // namespace

TEST_CASE("a window session shows its visual quality and its kept document shows it again",
          "[ui][quality][window][paced]") {
    QSettings().clear();
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    auto* form = window.sessionForm();
    form->setUseSimulator(true);
    form->setSimulatorProfile(QStringLiteral("fast"));
    form->setSimulatorFaults({QStringLiteral("seam@6")});
    form->setChunks(16);
    auto* engine = window.sessionEngine();
    INFO(window.bannerText().toStdString());
    REQUIRE(window.startSession());
    // Sent by the engine's scheduler right after chunk 8 lands, whatever the GUI thread is
    // doing (a sanitizer slows it down): the transition comes after the seam, never over it.
    const QString prompt_id =
        engine->schedulePrompt(8, QStringLiteral("Snow falls over a quiet harbour at night."), 1);
    auto* views = window.qualityViews();
    auto* track = views->track();
    auto* counters = views->counters();

    // Live: the track and the counters fill as chunks are analysed, before the session ends.
    REQUIRE(QTest::qWaitFor([&] { return track->chunkCount() >= 3; }, 30000));
    CHECK_FALSE(engine->result().has_value());
    CHECK(counters->valueText(QualityCountersPanel::Row::Analysed)
              .startsWith(QString::number(track->chunkCount())));

    REQUIRE(QTest::qWaitFor([&] { return engine->result() && engine->qualityFinished(); }, 60000));
    REQUIRE(engine->result()->ok);
    REQUIRE(track->chunkCount() == 16);
    REQUIRE(track->chunk(6) != nullptr);
    CHECK(track->chunk(6)->flagged(QualityFlag::Seam));
    CHECK(counters->level(QualityCountersPanel::Row::Seam) == QualityCountersPanel::Level::Bad);
    CHECK(counters->valueText(QualityCountersPanel::Row::Seam).contains(QStringLiteral("6")));
    // The HUD speaks of the chunk on screen.
    CHECK(views->hudLine(6).contains(QStringLiteral("seam")));
    CHECK(views->hudLine(3).startsWith(QStringLiteral("quality ok")));
    CHECK(views->hudLine(99).isEmpty());

    // The recording opens once playback finished; its bar carries the seam's flag at chunk 6.
    auto* player = window.recordingPlayer();
    REQUIRE(QTest::qWaitFor([&] { return player->isOpen(); }, 60000));
    auto* bar = window.scrubBar();
    const int chunk6 = firstFrameOfChunk(*bar, 6);
    REQUIRE(chunk6 > 0);
    bool flag_at_6 = false;
    for (const auto& mark : bar->marks()) {
        flag_at_6 |= mark.kind == lbm::ui::ScrubMark::Kind::Flag && mark.frame == chunk6;
    }
    CHECK(flag_at_6);

    // Clicking chunk 6 on the track shows its first frame.
    views->track()->flush();
    auto* viewport = qobject_cast<QAbstractScrollArea*>(track->chartView())->viewport();
    QTest::mouseClick(viewport, Qt::LeftButton, Qt::NoModifier, track->viewPositionOf(6, 0.5));
    CHECK(player->position() == chunk6);

    // The filmstrip holds the prompt's transition, read from the recording.
    auto* filmstrip = views->filmstrip();
    REQUIRE(filmstrip->strips().size() == 1);
    CHECK(filmstrip->strips().front().interaction.event_id == prompt_id);
    REQUIRE(QTest::qWaitFor([&] { return filmstrip->isLoaded(); }, 30000));
    CHECK_FALSE(filmstrip->framesShown().empty());
    CHECK_FALSE(filmstrip->thumbnail(filmstrip->framesShown().front()).isNull());

    // The kept document reopens with the same analysis, its flag on its own recording's bar.
    const QString document = window.sessionKeeper()->current()->documentPath();
    // The keeper rewrites the document once the analysis has its last chunk.
    REQUIRE(QTest::qWaitFor(
        [&] {
            if (!window.sessionKeeper()->writer().flush(100)) {
                return false;
            }
            const auto stored = lbm::report::sessionQuality(
                lbm::report::readSessionDocument(document).sessions.front(),
                QStringLiteral("sessions[0]"));
            return stored && stored->chunks.size() == 16;
        },
        10000));
    REQUIRE(window.openDocument(document));
    REQUIRE(track->chunkCount() == 16);
    CHECK(track->chunk(6)->flagged(QualityFlag::Seam));
    CHECK(counters->level(QualityCountersPanel::Row::Seam) == QualityCountersPanel::Level::Bad);
    REQUIRE(QTest::qWaitFor([&] { return player->isOpen(); }, 30000));
    bool reopened_flag = false;
    for (const auto& mark : bar->marks()) {
        reopened_flag |= mark.kind == lbm::ui::ScrubMark::Kind::Flag;
    }
    CHECK(reopened_flag);
    REQUIRE(filmstrip->strips().size() == 1);
}
