// MainWindow's session lifecycle: starting a session on the form's settings (after the last
// one's tail), stopping it, sending prompts into it, and saying how it ended.
#include "app/report/workload_json.h"
#include "app/session/session_notes.h"
#include "ui/banner.h"
#include "ui/camera_steering.h"
#include "ui/counters_panel.h"
#include "ui/document_viewer.h"
#include "ui/eliding_label.h"
#include "ui/latency_chart_model.h"
#include "ui/live_readout.h"
#include "ui/main_window.h"
#include "ui/playback_feed.h"
#include "ui/prompt_panel.h"
#include "ui/quality_views.h"
#include "ui/recording_player.h"
#include "ui/session_form.h"
#include "ui/session_settings.h"
#include "ui/session_status.h"
#include "ui/steering_panel.h"
#include "ui/video_view.h"
#include "ui/window_layout.h"

#include <QDir>
#include <QDockWidget>

#include <exception>

namespace lbm::ui {

bool MainWindow::startSession() {
    if (m_engine->running() || m_finishing_last) {
        return false;
    }
    // The last session's tail first: its decoder and quality analysis finish, and the keeper
    // writes their results into its document, before the keeper and the engine move on (a
    // Start pressed the moment a session ended used to drop the analysis of its last chunks,
    // and its kept document read "clean" with a seam in them).
    QString tail_note;
    if (m_engine->result() && !m_engine->waitForFinished(0)) {
        m_finishing_last = true;
        m_status->setFullText(tr("Finishing the last session's analysis…"));
        updateActions();
        // Its frames not yet on screen are dropped (the next session replaces the picture;
        // the recording keeps them): a paused player would otherwise hold the decoder.
        const bool finished = m_engine->waitForFinished(kLastSessionTailMs, true);
        m_finishing_last = false;
        if (!finished) {
            // Said once the new session is under way (starting clears the banner).
            tail_note = tr("The last session's analysis did not finish within %1 s; its "
                           "document keeps the chunks analysed so far.")
                            .arg(kLastSessionTailMs / 1000);
        }
    }
    const QString problem = m_form->validate();
    if (!problem.isEmpty()) {
        showBanner(tr("Cannot start: %1").arg(problem));
        return false;
    }
    lbm::engine::EngineSettings settings;
    QString error;
    try {
        settings = engineSettingsFromForm(*m_form);
    } catch (const std::exception& failure) {
        showBanner(tr("Cannot start: %1").arg(QString::fromUtf8(failure.what())));
        return false;
    }
    // Every session is kept: its folder exists before a byte arrives.
    if (!m_keeper->prepare(settings, &error)) {
        showBanner(tr("Cannot start: %1").arg(error));
        return false;
    }
    settings.present_frames = true;

    hideBanner();
    m_viewer->close();
    m_player->close();
    m_chart_model->clearComparison();
    // Cleared here; attach() below takes the deadline and warmup from the engine's metrics.
    m_chart_model->reset(0.0, settings.metrics.warmup_chunks,
                         static_cast<int>(settings.session.workload.numChunks()));
    m_prompt_panel->clearHistory();
    m_quality->startSession(settings.quality);
    m_readout->setShowingDocument(false);
    m_steering->releaseAll();
    m_steering->clearLog();
    if (!m_engine->start(settings, &error)) {
        showBanner(tr("Cannot start: %1").arg(error));
        updateActions();
        return false;
    }
    m_chart_model->attach(&m_engine->liveMetrics(),
                          static_cast<int>(settings.session.workload.numChunks()));
    // The engine's deadline, the one its live metrics judge chunks by.
    m_counters->reset(static_cast<int>(settings.session.workload.numChunks()),
                      settings.session.workload.numFrames(), m_engine->liveMetrics().deadlineMs());
    m_feed->attach(m_engine);
    m_dock_set->counters->setWindowTitle(tr("Live counters"));
    m_steering->setSession(m_engine, m_form->steeringEnabled());
    m_live_timer.start();
    if (!tail_note.isEmpty()) {
        showBanner(tail_note, false);
    }
    m_status->setFullText(liveStatusFor(m_engine->endpointText(), m_keeper->current()->folder));
    m_video->setFocus();
    updateActions();
    return true;
}

void MainWindow::stopSession() {
    if (m_engine->running()) {
        m_steering->releaseAll();
        m_engine->stop();
    }
}

void MainWindow::sendPrompt(const QString& prompt, int transition_chunks,
                            std::optional<qint64> after) {
    if (!m_engine->running()) {
        return;
    }
    if (after) {
        // The engine's scheduler sends it right after that chunk (at once if it landed).
        m_engine->schedulePrompt(*after, prompt, transition_chunks);
        return;
    }
    m_engine->sendPrompt(prompt, transition_chunks);
}

void MainWindow::onSessionFinished(const lbm::session::SessionResult& result) {
    m_steering->releaseAll();
    m_quality->sessionOver();
    if (!m_engine->recordingPath().isEmpty()) {
        m_quality->showFinishedSession(
            m_engine->recordingPath(), m_engine->liveMetrics().records(),
            m_engine->timeline().toJson(),
            lbm::report::describeWorkload(m_engine->settings().session.workload));
    }
    refreshCounters();
    // The counters stop being live: the title says so, with the word the state row uses.
    m_dock_set->counters->setWindowTitle(tr("Counters · session %1").arg(endedWord(result)));
    if (!result.ok && !result.stop_requested) {
        // Server errors are quoted verbatim; "rejected" only for a refused session.start.
        showBanner(lbm::session::failureForPeople(result));
    } else if (result.stop_requested) {
        showBanner(finishedStatusFor(result), false);
    } else {
        m_banner->clearStall();
    }
    m_status->setFullText(finishedStatusFor(result) + QLatin1Char(' ') +
                          keptInFor(m_keeper->current() ? m_keeper->current()->folder : QString()));
    updateActions();
}

} // namespace lbm::ui
