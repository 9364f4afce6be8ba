#include "ui/side_by_side_pane.h"

#include "app/media/decoded_frame.h"
#include "ui/hud_overlay.h"
#include "ui/latency_chart.h"
#include "ui/latency_chart_model.h"
#include "ui/quality_track.h"
#include "ui/recording_frames.h"
#include "ui/status_colors.h"
#include "ui/video_view.h"

#include <QDir>
#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace lbm::ui {

SideBySidePane::SideBySidePane(const QString& side_name, QWidget* parent)
    : QWidget(parent)
    , m_side_name(side_name)
    , m_frames(new RecordingFrames(this)) {
    connect(m_frames, &RecordingFrames::opened, this, [this](int count) {
        m_frame_count = count;
        emit opened(count);
    });
    connect(m_frames, &RecordingFrames::failed, this, [this](const QString& reason) {
        if (isOpen()) {
            return; // one frame that does not decode: the view keeps the last one
        }
        showError(
            tr("The %1 recording %2 cannot be read: %3. It may be incomplete (a session "
               "that was cut off); pick another session.")
                .arg(m_side_name,
                     QDir::toNativeSeparators(m_session ? m_session->recording_path : QString()),
                     reason));
        emit failed(errorText());
    });
    connect(m_frames, &RecordingFrames::frameReady, this, &SideBySidePane::onFrame);

    m_title = new QLabel(this);
    m_title->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    // Half a 1280x720 screen is narrower than a run's title: it wraps rather than being cut.
    m_title->setWordWrap(true);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_prompts = new QLabel(this);
    m_prompts->setTextFormat(Qt::PlainText);
    m_prompts->setWordWrap(true);
    m_prompts->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    m_video = new VideoView(this);
    m_video->setMinimumSize(320, 185);
    m_video->setFocusPolicy(Qt::NoFocus); // the window's keys drive both sides
    m_chart = new LatencyChart(nullptr, this);
    m_chart->setFollow(false);
    m_chart->chartView()->setMinimumHeight(140);
    m_track = new QualityTrack(this);
    m_track->syncWith(m_chart);
    connect(m_chart, &LatencyChart::chunkClicked, this, &SideBySidePane::chunkClicked);
    connect(m_track, &QualityTrack::chunkClicked, this, &SideBySidePane::chunkClicked);

    auto* content = new QWidget(this);
    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    column->addWidget(m_video, 5);
    column->addWidget(m_chart, 3);
    column->addWidget(m_track, 3);

    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::RichText);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setAlignment(Qt::AlignCenter);
    m_error->setMargin(24);
    QPalette pal = m_error->palette();
    pal.setColor(QPalette::WindowText, lateColor(palette()));
    m_error->setPalette(pal);

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(content);
    m_stack->addWidget(m_error);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(2);
    layout->addWidget(m_title);
    layout->addWidget(m_prompts);
    layout->addWidget(m_stack, 1);
    m_title->setText(tr("%1: no session").arg(m_side_name));
}

SideBySidePane::~SideBySidePane() = default;

void SideBySidePane::showError(const QString& text) {
    m_error_text = text;
    m_error->setText(QStringLiteral("<p style=\"font-size:large\"><b>%1</b></p><p>%2</p>")
                         .arg(tr("The %1 side cannot be shown").arg(m_side_name).toHtmlEscaped(),
                              text.toHtmlEscaped()));
    m_stack->setCurrentWidget(m_error);
}

QString SideBySidePane::errorText() const {
    return m_stack->currentWidget() == m_error ? m_error_text : QString();
}

bool SideBySidePane::load(const QString& path) {
    m_frame_count = 0;
    m_shown_frame = -1;
    m_frames->close();
    QString error;
    m_session = ComparedSession::load(path, &error);
    if (!m_session) {
        m_title->setText(tr("%1: %2").arg(m_side_name, QDir::toNativeSeparators(path)));
        m_prompts->clear();
        showError(error);
        emit failed(error);
        return false;
    }
    m_stack->setCurrentIndex(0);
    m_title->setText(m_session->title());
    m_title->setToolTip(QDir::toNativeSeparators(m_session->document_path));
    const QString prompts = m_session->promptLine();
    m_prompts->setText(prompts.isEmpty() ? tr("no prompt transition") : prompts);
    m_prompts->setToolTip(prompts);

    const auto& entry = m_session->document.sessions.front();
    const int chunks = chunkCount();
    try {
        m_chart->model()->showRecords(m_session->chunks,
                                      report::metricsOptionsFor(m_session->document.config, entry),
                                      chunks);
    } catch (const std::exception& failure) {
        // The rows are there but the metrics cannot be recomputed (too few chunks for the
        // start buffer): the chart stays empty, the video and quality still play.
        m_prompts->setText(m_prompts->text() + QStringLiteral(" · ") +
                           QString::fromUtf8(failure.what()));
    }
    m_chart->model()->setPrimaryLabel(tr("%1 side").arg(m_side_name));
    for (const ChartEventMark& mark :
         chartMarksFromInteractions(m_session->interactions(), m_session->chunks)) {
        m_chart->model()->addEventMark(mark);
    }
    if (m_session->quality) {
        m_track->setSettings(m_session->quality->settings);
        m_track->setChunks(m_session->quality->chunks);
    } else {
        m_track->clear();
    }
    if (!m_session->quality_problem.isEmpty()) {
        m_track->setToolTip(m_session->quality_problem);
    }
    m_frames->open(m_session->recording_path, m_session->chunkFrames());
    return true;
}

int SideBySidePane::chunkCount() const {
    return m_session ? static_cast<int>(m_session->chunks.size()) : 0;
}

void SideBySidePane::setChunkSpan(int chunks) {
    if (!m_session) {
        return;
    }
    // The model's expected chunks set the whole-session span (the recorded rows stay).
    const auto& entry = m_session->document.sessions.front();
    try {
        m_chart->model()->showRecords(m_session->chunks,
                                      report::metricsOptionsFor(m_session->document.config, entry),
                                      chunks);
    } catch (const std::exception&) {
        return; // reported by load()
    }
    for (const ChartEventMark& mark :
         chartMarksFromInteractions(m_session->interactions(), m_session->chunks)) {
        m_chart->model()->addEventMark(mark);
    }
}

std::pair<qint64, int> SideBySidePane::chunkOf(int frame) const {
    return m_frames->chunkOf(frame);
}

int SideBySidePane::firstFrameOfChunk(qint64 chunk) const {
    return m_frames->firstFrameOfChunk(chunk);
}

void SideBySidePane::showFrame(int frame) {
    if (!isOpen()) {
        return;
    }
    const int clamped = std::clamp(frame, 0, m_frame_count - 1);
    if (clamped == m_shown_frame) {
        return;
    }
    m_shown_frame = clamped;
    m_track->setPlayheadChunk(chunkOf(clamped).first);
    m_frames->request(clamped);
}

QStringList SideBySidePane::hudLines() const {
    return m_video->hud().lines();
}

void SideBySidePane::onFrame(const lbm::media::DecodedFrame& frame) {
    m_video->showFrame(frame);
    QStringList lines;
    lines << tr("%1 · chunk %2 · frame %3 / %4")
                 .arg(m_side_name)
                 .arg(frame.tag().chunkIndex())
                 .arg(frame.globalFrameNumber())
                 .arg(m_frame_count); // as the HUD, the player and the window: from 0, of N
    if (frame.globalFrameNumber() == m_frame_count - 1) {
        lines << tr("end of this recording");
    }
    if (m_session && m_session->quality) {
        for (const auto& chunk : m_session->quality->chunks) {
            if (chunk.generation_index == frame.tag().chunkIndex()) {
                lines << qualityHudLine(chunk);
                break;
            }
        }
    }
    m_video->hud().setLines(lines);
    m_video->refreshOverlay();
}

} // namespace lbm::ui
