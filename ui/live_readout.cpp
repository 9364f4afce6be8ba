#include "ui/live_readout.h"

#include "app/engine/session_engine.h"
#include "app/playback/playback_clock.h"
#include "ui/camera_steering.h"
#include "ui/counters_panel.h"
#include "ui/hud_overlay.h"
#include "ui/latency_chart_model.h"
#include "ui/video_view.h"

#include <algorithm>

namespace lbm::ui {

LiveReadout::LiveReadout(const Surfaces& surfaces, QObject* parent)
    : QObject(parent)
    , m_surfaces(surfaces) {}

void LiveReadout::refresh() {
    lbm::engine::SessionEngine& engine = *m_surfaces.engine;
    const auto& live = engine.liveMetrics();
    const auto& result = engine.result();

    m_picture = SessionPicture{};
    m_picture.state = engine.state();
    m_picture.chunks_received = live.chunkCount();
    m_picture.chunks_expected =
        engine.hasSession() ? engine.settings().session.workload.numChunks() : 0;
    m_picture.result = result;
    if (const auto waited = engine.secondsSinceLastChunk()) {
        StreamWait wait;
        wait.awaited_chunk = live.empty() ? 0 : live.records().back().index + 1;
        wait.waited_s = *waited;
        if (wait.awaited_chunk > 0) {
            wait.deadline_s = live.deadlineMs() / 1000.0;
            wait.timeout_s = engine.settings().session.chunk_timeout_s;
        }
        m_picture.wait = wait;
        // The chunk in flight grows on the chart once it is late enough to matter.
        m_surfaces.chart->setWaiting(
            LatencyChartModel::Waiting{wait.awaited_chunk, *waited * 1000.0});
    } else if (const auto ended = endedWaiting(); ended && !m_document) {
        // Stopped or failed while a chunk was late: the wait stays on the chart as it ended.
        m_surfaces.chart->setWaiting(ended);
    } else {
        m_surfaces.chart->setWaiting(std::nullopt);
    }
    const QString title = windowTitleFor(m_picture);
    if (title != m_title) {
        m_title = title;
        emit titleChanged(title);
    }
    const QString banner = stallBannerFor(m_picture).value_or(QString());
    if (banner != m_banner) {
        m_banner = banner;
        emit stallChanged(banner);
    }

    if (engine.hasSession() && !m_document) {
        CountersPanel& counters = *m_surfaces.counters;
        // Once ended, the word the title and the document use: finished, stopped or failed.
        const QString state =
            result ? endedWord(*result) : lbm::session::sessionStateName(engine.state());
        counters.showConnection(state, engine.requestId());
        counters.showFrames(engine.framesDecoded(), engine.framesAnnounced());
        counters.showObservedStalls(m_surfaces.clock->stalls());
        if (!live.empty()) {
            const std::optional<double> ttfc =
                result && result->ttfc_s ? result->ttfc_s : live.records().front().arrival_s;
            const double wall = result ? result->wall_s : live.records().back().arrival_s;
            // Before the start buffer fills the seed refuses the playback part; the simulated
            // playback row says so.
            if (const auto metrics = live.tryMetrics(ttfc, wall)) {
                counters.showMetrics(*metrics, result.has_value());
            }
        }
        const double now_s = engine.sessionNowS();
        const bool streaming = !result.has_value();
        // A session that ended during a stall keeps the stall on the counters, cut short, so
        // they say after Stop what they said during the session.
        std::optional<lbm::ProvisionalUnderrun> underway;
        std::optional<double> wait_s;
        if (streaming) {
            underway = live.provisionalUnderrun(now_s);
            wait_s = m_picture.wait ? std::optional(m_picture.wait->waited_s) : std::nullopt;
        } else if (const auto ended = endedStall(live, result->wall_s); ended && !result->ok) {
            underway = ended->underway;
            wait_s = ended->waited_s;
        }
        counters.showSimulatedPlayback(
            live.simulatedPlayback(), live.playback().bufferedAheadSeconds(now_s),
            streaming && live.playback().stalledAt(now_s), underway, wait_s, !streaming);
    }
    refreshHud();
}

std::optional<LatencyChartModel::Waiting> LiveReadout::endedWaiting() const {
    const lbm::engine::SessionEngine& engine = *m_surfaces.engine;
    const auto& live = engine.liveMetrics();
    const auto& result = engine.result();
    if (!result || result->ok || live.empty()) {
        return std::nullopt;
    }
    const double waited_ms = (result->wall_s - live.records().back().arrival_s) * 1000.0;
    if (waited_ms <= live.deadlineMs()) {
        return std::nullopt;
    }
    return LatencyChartModel::Waiting{live.records().back().index + 1, waited_ms, true};
}

void LiveReadout::refreshHud() {
    // An opened document is not the live session: its numbers are in the chart and counters.
    if (m_document) {
        if (!m_surfaces.video->hud().lines().isEmpty()) {
            m_surfaces.video->hud().setLines({});
            m_surfaces.video->refreshOverlay();
        }
        return;
    }
    lbm::engine::SessionEngine& engine = *m_surfaces.engine;
    HudState state;
    const auto& shown = m_surfaces.video->displayedFrame();
    if (shown) {
        state.chunk_index = shown->tag().chunkIndex();
        state.frame_number = shown->globalFrameNumber();
    }
    if (engine.hasSession()) {
        state.expected_frames = engine.settings().session.workload.numFrames();
        // The active transition: the newest prompt that has started.
        const auto& interactions = engine.timeline().interactions();
        for (auto it = interactions.crbegin(); it != interactions.crend(); ++it) {
            if ((it->kind == lbm::session::InteractionKind::Prompt ||
                 it->kind == lbm::session::InteractionKind::ScheduledPrompt) &&
                it->started_chunk) {
                // K as the interaction's record keeps it (the quality context reads it too).
                const int k = std::max(1, it->transition_chunks.value_or(1));
                const qint64 at = shown ? shown->tag().chunkIndex() : *it->started_chunk;
                state.prompt = it->summary;
                state.transition_chunks = k;
                state.transition_step =
                    static_cast<int>(std::clamp<qint64>(at - *it->started_chunk + 1, 0, k));
                state.transition_done = it->completed_chunk && shown &&
                                        shown->tag().chunkIndex() >= *it->completed_chunk;
                break;
            }
        }
    }
    // Keys only while steering is live: a scripted rollout ignores them.
    if (m_surfaces.steering->isLive() && !m_surfaces.steering->heldKeys().none()) {
        state.keys = m_surfaces.steering->heldKeys().letters().toUpper();
        state.speed = m_surfaces.steering->speedFactor();
    }
    // The buffer a viewer has: decoded frames waiting for the screen (the player's own).
    state.buffered_ahead_s = m_surfaces.clock->bufferedAheadSeconds();
    using lbm::playback::PlaybackClock;
    const auto clock_state = m_surfaces.clock->state();
    if (clock_state == PlaybackClock::State::Stalled) {
        state.stalled_ms = m_surfaces.clock->stalls().ongoing_s * 1000.0;
        // Stalled on a late chunk: the same wait the banner and the title show, from the same
        // refresh.
        if (m_picture.wait && m_picture.wait->late()) {
            state.awaited_chunk = m_picture.wait->awaited_chunk;
            state.late_wait_ms = m_picture.wait->waited_s * 1000.0;
        }
    }
    state.buffering = clock_state == PlaybackClock::State::Buffering;
    state.paused = clock_state == PlaybackClock::State::Paused;
    if (shown && m_quality_line) {
        state.quality = m_quality_line(shown->tag().chunkIndex());
    }
    const QStringList lines = composeHudLines(state);
    if (lines != m_surfaces.video->hud().lines()) {
        m_surfaces.video->hud().setLines(lines);
        m_surfaces.video->refreshOverlay();
    }
}

} // namespace lbm::ui
