// MainWindow, the part that remembers and opens: QSettings for the form, presets, speed,
// retention and layout; workload files; session documents with their own recordings.

#include "ui/banner.h"
#include "ui/document_viewer.h"
#include "ui/eliding_label.h"
#include "ui/latency_chart.h"
#include "ui/live_readout.h"
#include "ui/main_window.h"
#include "ui/presenter_mode.h"
#include "ui/prompt_panel.h"
#include "ui/quality_views.h"
#include "ui/recording_player.h"
#include "ui/session_form.h"
#include "ui/video_view.h"
#include "ui/window_layout.h"

#include <QDir>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLabel>
#include <QScreen>
#include <QSettings>

#include <exception>

namespace lbm::ui {

void MainWindow::loadSettings() {
    QSettings settings;
    m_form->loadSettings(settings);
    const QStringList presets = settings.value(QStringLiteral("prompt/presets")).toStringList();
    if (!presets.isEmpty()) {
        m_prompt_panel->setPresets(presets);
    }
    setSpeedFactor(settings.value(QStringLiteral("camera/speed"), 1.0).toDouble());
    m_keeper->setKeep(
        settings.value(QStringLiteral("sessions/keep"), lbm::engine::SessionArchive::kDefaultKeep)
            .toInt());
    if (settings.contains(QStringLiteral("window/geometry"))) {
        restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    }
    // The docks as the user left them on a screen of this size: a layout made on a 1080p
    // monitor is taller than a 1280x720 projector and ran off its bottom, so each screen size
    // keeps its own, and a size seen for the first time gets the layout fitted to it.
    const QString state_key = dockStateKey();
    if (settings.contains(state_key)) {
        m_layout_restored = restoreState(settings.value(state_key).toByteArray());
    }
}

QString MainWindow::dockStateKey() const {
    const QScreen* shown_on = screen() ? screen() : QGuiApplication::primaryScreen();
    const QSize size = shown_on ? shown_on->availableGeometry().size() : QSize();
    return QStringLiteral("window/state-%1x%2").arg(size.width()).arg(size.height());
}

void MainWindow::saveSettings() const {
    QSettings settings;
    m_form->saveSettings(settings);
    settings.setValue(QStringLiteral("prompt/presets"), m_prompt_panel->presets());
    settings.setValue(QStringLiteral("camera/speed"), speedFactor());
    settings.setValue(QStringLiteral("sessions/keep"), m_keeper->keep());
    if (!m_presenter->isOn()) {
        settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
        settings.setValue(dockStateKey(), saveState());
        settings.remove(QStringLiteral("window/state")); // one for every screen size, before
    }
}

bool MainWindow::openWorkload(const QString& path) {
    try {
        m_form->loadWorkloadFile(path);
        hideBanner();
        m_status->setFullText(tr("Loaded the workload %1.").arg(QDir::toNativeSeparators(path)));
        return true;
    } catch (const std::exception& error) {
        showBanner(tr("Cannot open workload %1: %2").arg(path, QString::fromUtf8(error.what())));
        return false;
    }
}

bool MainWindow::openDocument(const QString& path) {
    if (m_engine->running()) {
        showBanner(tr("Stop the session before opening a document."));
        return false;
    }
    QString error;
    m_player->close();
    if (!m_viewer->open(path, &error)) {
        showBanner(error);
        return false;
    }
    m_live_timer.stop();
    m_clock->reset(); // the last session's frames still queued for the screen must not draw
    m_readout->setShowingDocument(true);
    m_dock_set->counters->setWindowTitle(tr("Counters · saved session"));
    m_chart->setFollow(false);
    // How it ended, in the banner unless it simply finished (the title says that too).
    using lbm::report::OutcomeKind;
    const OutcomeKind ended = m_viewer->outcome().kind;
    if (!m_viewer->warning().isEmpty()) {
        showBanner(m_viewer->warning(), false);
    } else if (ended != OutcomeKind::Finished) {
        showBanner(m_viewer->outcomeSentence(),
                   ended == OutcomeKind::Failed || ended == OutcomeKind::EndedUnexpectedly);
    } else {
        hideBanner();
    }
    setWindowTitle(m_viewer->windowTitle());
    // Its own recording when one lies beside it (every kept session has one), never the last
    // session's; the HUD speaks of the live session only.
    const QString recording = m_viewer->recordingPath();
    m_quality->showDocument(*m_viewer->document(), recording, m_viewer->interactions());
    if (!recording.isEmpty()) {
        m_player->open(recording, m_viewer->document()->sessions.front().chunks,
                       RecordingPlayer::marksFromInteractions(m_viewer->interactions()) +
                           m_quality->scrubMarks(),
                       m_viewer->document()->config.target_fps);
    } else {
        m_video->showIdlePicture();
    }
    m_video->hud().setLines({});
    m_video->refreshOverlay();
    m_status->setFullText(m_viewer->statusText());
    updateActions();
    return true;
}

void MainWindow::connectQuality() {
    // The HUD's quality line speaks of the chunk on screen.
    m_readout->setQualityLine([this](qint64 chunk) { return m_quality->hudLine(chunk); });
    connect(m_quality, &QualityViews::chunkRequested, m_player, &RecordingPlayer::seekChunk);
    connect(m_quality, &QualityViews::frameRequested, m_player, &RecordingPlayer::seekFrame);
    // The analysis may finish after the player opened the recording: its flags join the bar.
    connect(m_quality, &QualityViews::marksChanged, this, [this] {
        if (m_player->isOpen() && !m_viewer->document()) {
            m_player->setMarks(sessionScrubMarks());
        }
    });
}

QList<ChunkMark> MainWindow::sessionScrubMarks() const {
    return RecordingPlayer::marksFromInteractions(m_engine->timeline().toJson()) +
           m_quality->scrubMarks();
}

bool MainWindow::compareDocument(const QString& path) {
    QString error;
    if (!m_viewer->compare(path, &error)) {
        showBanner(error);
        return false;
    }
    return true;
}

} // namespace lbm::ui
