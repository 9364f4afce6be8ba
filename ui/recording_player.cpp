#include "ui/recording_player.h"

#include "ui/recording_frames.h"
#include "ui/video_view.h"

#include <QJsonObject>

#include <algorithm>

namespace lbm::ui {

QList<ChunkMark> RecordingPlayer::marksFromInteractions(const QJsonArray& interactions) {
    QList<ChunkMark> marks;
    for (const QJsonValue& value : interactions) {
        const QJsonObject interaction = value.toObject();
        const QString summary = interaction.value(QStringLiteral("summary")).toString().left(60);
        const QString kind = interaction.value(QStringLiteral("kind")).toString();
        for (const auto& [key, verb] :
             {std::pair{QStringLiteral("started_chunk"), tr("started")},
              std::pair{QStringLiteral("completed_chunk"), tr("completed")}}) {
            const QJsonValue chunk = interaction.value(key);
            if (chunk.isDouble()) {
                const auto at = static_cast<qint64>(chunk.toDouble());
                marks.append({at, ScrubMark::Kind::Event,
                              tr("%1 %2 at chunk %3: %4").arg(kind, verb).arg(at).arg(summary)});
            }
        }
    }
    return marks;
}

RecordingPlayer::RecordingPlayer(ScrubBar* bar, VideoView* view, QObject* parent)
    : QObject(parent)
    , m_bar(bar)
    , m_view(view)
    , m_frames(new RecordingFrames(this)) {
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (position() + 1 >= frameCount()) {
            pause(); // the end
            return;
        }
        m_bar->setPosition(position() + 1);
    });
    connect(m_bar, &ScrubBar::positionChanged, m_frames, &RecordingFrames::request);
    connect(m_bar, &ScrubBar::playToggled, this, &RecordingPlayer::togglePlay);
    connect(m_bar, &ScrubBar::stepRequested, this, &RecordingPlayer::step);
    connect(m_frames, &RecordingFrames::frameReady, this, &RecordingPlayer::show);
    connect(m_frames, &RecordingFrames::opened, this, &RecordingPlayer::onOpened);
    connect(m_frames, &RecordingFrames::failed, this, &RecordingPlayer::failed);
}

void RecordingPlayer::open(const QString& path, const std::vector<lbm::ChunkRecord>& chunks,
                           const QList<ChunkMark>& marks, double fps) {
    pause();
    m_chunks = chunks;
    std::stable_sort(m_chunks.begin(), m_chunks.end(),
                     [](const auto& a, const auto& b) { return a.index < b.index; });
    m_pending_marks = marks;
    m_timer.setInterval(static_cast<int>(1000.0 / std::max(1.0, fps)));
    std::vector<int> frames;
    for (const auto& chunk : m_chunks) {
        frames.push_back(chunk.num_frames);
    }
    m_frames->open(path, frames);
}

void RecordingPlayer::close() {
    pause();
    m_frames->close();
    m_bar->hide();
}

bool RecordingPlayer::isOpen() const {
    return m_frames->isOpen();
}

int RecordingPlayer::frameCount() const {
    return m_frames->frameCount();
}

QList<ScrubMark> RecordingPlayer::placedMarks(int count) const {
    QList<ScrubMark> marks;
    for (std::size_t i = 0; i < m_chunks.size(); ++i) {
        const int first = m_frames->firstFrameOfChunk(static_cast<qint64>(i));
        if (first >= 0 && first < count) {
            marks.append({first, ScrubMark::Kind::Chunk,
                          tr("chunk %1 starts (frame %2)").arg(m_chunks[i].index).arg(first)});
        }
    }
    for (const ChunkMark& mark : std::as_const(m_pending_marks)) {
        const int first = m_frames->firstFrameOfChunk(mark.chunk);
        if (first >= 0 && first < count) {
            ScrubMark placed{first, mark.kind, mark.tooltip, 0, mark.color, mark.stripes};
            if (mark.kind == ScrubMark::Kind::Flag) {
                const int next = m_frames->firstFrameOfChunk(mark.chunk + 1);
                placed.span_frames = (next > first ? next : count) - first;
            }
            marks.append(placed);
        }
    }
    return marks;
}

void RecordingPlayer::setMarks(const QList<ChunkMark>& marks) {
    m_pending_marks = marks;
    if (isOpen()) {
        m_bar->setFrames(frameCount(), placedMarks(frameCount()));
    }
}

void RecordingPlayer::onOpened(int count) {
    const QList<ScrubMark> marks = placedMarks(count);
    m_bar->setFrames(count, marks);
    m_bar->show();
    m_bar->setPosition(count - 1);
    m_frames->request(count - 1);
    emit opened(count);
}

void RecordingPlayer::togglePlay() {
    if (!isOpen()) {
        return;
    }
    if (m_timer.isActive()) {
        pause();
        return;
    }
    if (position() + 1 >= frameCount()) {
        m_bar->setPosition(0); // from the start again, as players do at the end
    }
    m_timer.start();
    m_bar->setPlaying(true);
}

void RecordingPlayer::pause() {
    m_timer.stop();
    m_bar->setPlaying(false);
    // The label says so at once, not when the next frame is shown.
    m_bar->setLabel(m_bar->label().remove(playingSuffix()));
}

QString RecordingPlayer::playingSuffix() {
    return tr(" · playing");
}

void RecordingPlayer::step(int frames) {
    pause();
    seekFrame(position() + frames);
}

void RecordingPlayer::stepChunk(int direction) {
    pause();
    seekFrame(m_frames->chunkStepTarget(position(), direction)
                  .value_or(direction > 0 ? frameCount() - 1 : 0));
}

void RecordingPlayer::seekFrame(int frame) {
    if (!isOpen()) {
        return;
    }
    m_bar->setPosition(std::clamp(frame, 0, frameCount() - 1));
}

void RecordingPlayer::seekChunk(qint64 chunk) {
    for (std::size_t i = 0; i < m_chunks.size(); ++i) {
        if (m_chunks[i].index == chunk) {
            seekFrame(m_frames->firstFrameOfChunk(static_cast<qint64>(i)));
            return;
        }
    }
}

bool RecordingPlayer::handleKey(const QKeyEvent* key) {
    if (!isOpen()) {
        return false;
    }
    const bool shift = key->modifiers() & Qt::ShiftModifier;
    switch (key->key()) {
    case Qt::Key_Left:
        shift ? stepChunk(-1) : step(-1);
        return true;
    case Qt::Key_Right:
        shift ? stepChunk(1) : step(1);
        return true;
    case Qt::Key_Home:
        seekFrame(0);
        return true;
    case Qt::Key_End:
        seekFrame(frameCount() - 1);
        return true;
    default:
        return false;
    }
}

int RecordingPlayer::position() const {
    return m_bar->position();
}

void RecordingPlayer::show(const lbm::playback::PlaybackFrame& frame) {
    m_view->showFrame(frame);
    m_bar->setLabel(tr("frame %1 / %2 · chunk %3 (frame %4 in chunk)%5")
                        .arg(frame.frame_number)
                        .arg(frameCount()) // as the HUD: frame numbers from 0, of N
                        .arg(frame.chunk_index)
                        .arg(frame.index_in_chunk)
                        .arg(m_timer.isActive() ? playingSuffix() : QString()));
    emit frameShown(frame);
}

} // namespace lbm::ui
