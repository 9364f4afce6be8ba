#include "ui/side_by_side_window.h"

#include "app/engine/session_archive.h"
#include "ui/latency_chart.h"
#include "ui/quality_signals.h"
#include "ui/quality_track.h"
#include "ui/screen_fit.h"
#include "ui/side_by_side_pane.h"

#include <QChart>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace lbm::ui {

namespace {

QValueAxis* chunkAxisOf(LatencyChart* chart) {
    return qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Horizontal).value(0));
}

} // namespace

SideBySideWindow* SideBySideWindow::open(const QString& path_a, const QString& path_b,
                                         QWidget* parent) {
    auto* window = new SideBySideWindow(parent);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->load(0, path_a);
    window->load(1, path_b);
    window->show();
    window->raise();
    window->activateWindow();
    return window;
}

SideBySideWindow* SideBySideWindow::openWithDialog(QWidget* parent) {
    const QString filter = tr("Sessions (session.json *.json stream.m4s *.m4s)");
    const QString root = engine::SessionArchive::defaultRoot();
    const QString a = QFileDialog::getOpenFileName(
        parent, tr("Left side: a session (session.json in its folder, or a document)"), root,
        filter);
    if (a.isEmpty()) {
        return nullptr;
    }
    const QString b = QFileDialog::getOpenFileName(
        parent, tr("Right side: the session to compare with"), QFileInfo(a).dir().path(), filter);
    if (b.isEmpty()) {
        return nullptr;
    }
    return open(a, b, parent);
}

SideBySideWindow::SideBySideWindow(QWidget* parent)
    : QWidget(parent, Qt::Window) {
    setWindowTitle(tr("Side by side"));
    auto* sides = new QHBoxLayout();
    sides->setSpacing(8);
    const QString names[] = {tr("left"), tr("right")};
    for (int side = 0; side < 2; ++side) {
        auto* pane = new SideBySidePane(names[side], this);
        m_panes[static_cast<size_t>(side)] = pane;
        sides->addWidget(pane, 1);
        connect(pane, &SideBySidePane::opened, this, &SideBySideWindow::onPaneOpened);
        connect(pane, &SideBySidePane::failed, this, &SideBySideWindow::onPaneOpened);
        connect(pane, &SideBySidePane::chunkClicked, this, [this, pane](qint64 chunk) {
            m_transport->pause();
            const int first = pane->firstFrameOfChunk(chunk);
            if (first >= 0) {
                seekFrame(first);
            }
        });
        if (QValueAxis* axis = chunkAxisOf(pane->latencyChart())) {
            connect(axis, &QValueAxis::rangeChanged, this, [this, side] { syncZoom(side); });
        }
    }
    m_bar = new ScrubBar(this);
    m_transport = new FrameTransport(m_bar, this);
    m_transport->setFrames(0, {});
    connect(m_bar, &ScrubBar::positionChanged, this, &SideBySideWindow::onPosition);
    // The player's keys, for the whole window whichever child has the focus.
    m_transport->addShortcuts(this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addLayout(sides, 1);
    layout->addWidget(m_bar);
    // Two videos side by side want 1600x1000; a smaller screen gets what it has.
    fitOnScreen(this, QSize(1600, 1000));
    closeWithEscape(this);
}

SideBySideWindow::~SideBySideWindow() = default;

bool SideBySideWindow::load(int side, const QString& path) {
    m_transport->pause();
    const bool ok = pane(side)->load(path);
    // Both charts span the longer session, so chunk N is at the same place on both sides.
    const int span = std::max(pane(0)->chunkCount(), pane(1)->chunkCount());
    for (SideBySidePane* each : m_panes) {
        each->setChunkSpan(span);
    }
    QStringList names;
    for (SideBySidePane* each : m_panes) {
        names << (each->session() ? QFileInfo(each->session()->document_path).dir().dirName()
                                  : tr("(none)"));
    }
    setWindowTitle(tr("Side by side — %1 | %2").arg(names.at(0), names.at(1)));
    return ok;
}

QString SideBySideWindow::errorText(int side) const {
    return pane(side)->errorText();
}

void SideBySideWindow::onPaneOpened() {
    // Ready once no side is still indexing its recording.
    for (SideBySidePane* side : m_panes) {
        if (side->session() && !side->isOpen() && side->errorText().isEmpty()) {
            return;
        }
    }
    // One scale for both quality tracks, so equal heights mean equal severity.
    double cap = 1.0;
    for (SideBySidePane* side : m_panes) {
        side->qualityTrack()->setFixedLevelCap(std::nullopt);
        side->qualityTrack()->flush();
        cap = std::max(cap, side->qualityTrack()->levelCap());
    }
    for (SideBySidePane* side : m_panes) {
        side->qualityTrack()->setFixedLevelCap(cap);
    }
    const int at = std::clamp(position(), 0, std::max(0, frameCount() - 1));
    m_transport->setChunkLayout(layoutPane()->frames());
    if (layoutPane()->session()) {
        m_transport->setFps(layoutPane()->session()->document.config.target_fps);
    }
    rebuildMarks();
    m_bar->setPosition(at);
    onPosition(at);
    emit ready();
}

SideBySidePane* SideBySideWindow::layoutPane() const {
    return pane(0)->isOpen() ? pane(0) : pane(1);
}

void SideBySideWindow::rebuildMarks() {
    // Chunk ticks of the side whose layout the chunk keys follow; flags and prompt marks of
    // both, each saying which side it is from.
    QList<ScrubMark> marks;
    SideBySidePane* ticks = layoutPane();
    for (qint64 chunk = 0; chunk < ticks->chunkCount(); ++chunk) {
        const int first = ticks->firstFrameOfChunk(chunk);
        if (first >= 0 && first < ticks->frameCount()) {
            marks.append({first, ScrubMark::Kind::Chunk,
                          tr("chunk %1 starts (frame %2)").arg(chunk).arg(first)});
        }
    }
    for (SideBySidePane* side : m_panes) {
        if (!side->isOpen() || !side->session()) {
            continue;
        }
        const QString name = side == pane(0) ? tr("left") : tr("right");
        if (side->session()->quality) {
            std::vector<int> firsts;
            for (qint64 chunk = 0; chunk < side->chunkCount(); ++chunk) {
                firsts.push_back(side->firstFrameOfChunk(chunk));
            }
            for (ScrubMark mark :
                 qualityScrubMarks(side->session()->quality->chunks, firsts,
                                   side->session()->quality->settings.thresholds, palette())) {
                mark.tooltip = name + QStringLiteral(" · ") + mark.tooltip;
                marks.append(mark);
            }
        }
        for (const PromptInteraction& prompt : side->session()->prompts()) {
            if (prompt.started_chunk && side->firstFrameOfChunk(*prompt.started_chunk) >= 0) {
                marks.append({side->firstFrameOfChunk(*prompt.started_chunk),
                              ScrubMark::Kind::Event,
                              tr("%1 · prompt ‘%2’ %3 started at chunk %4")
                                  .arg(name, prompt.prompt.left(50), prompt.kText())
                                  .arg(*prompt.started_chunk)});
            }
        }
    }
    m_transport->setFrames(frameCount(), marks);
}

int SideBySideWindow::frameCount() const {
    return std::max(pane(0)->frameCount(), pane(1)->frameCount());
}

void SideBySideWindow::seekChunk(qint64 chunk) {
    const int first = layoutPane()->firstFrameOfChunk(chunk);
    if (first >= 0) {
        seekFrame(first);
    }
}

void SideBySideWindow::onPosition(int frame) {
    QStringList parts;
    parts << tr("frame %1 / %2").arg(frame).arg(frameCount()); // as the HUD and the player
    for (SideBySidePane* side : m_panes) {
        if (!side->isOpen()) {
            continue;
        }
        side->showFrame(frame);
        const QString name = side == pane(0) ? tr("left") : tr("right");
        const int shown = side->shownFrame();
        QString text = tr("%1 chunk %2").arg(name).arg(side->chunkOf(shown).first);
        if (shown < frame) {
            text += tr(" (holding its last frame %1)").arg(shown);
        }
        parts << text;
    }
    m_transport->setLabel(parts.join(QStringLiteral(" · ")));
}

void SideBySideWindow::syncZoom(int from_side) {
    // A rubber-band zoom (or its undo) on one chart shows the same chunks on the other.
    if (m_syncing_zoom) {
        return;
    }
    QValueAxis* from = chunkAxisOf(pane(from_side)->latencyChart());
    QValueAxis* to = chunkAxisOf(pane(1 - from_side)->latencyChart());
    if (!from || !to || (to->min() == from->min() && to->max() == from->max())) {
        return;
    }
    m_syncing_zoom = true;
    to->setRange(from->min(), from->max());
    m_syncing_zoom = false;
}

} // namespace lbm::ui
