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
    , m_frames(new RecordingFrames(this))
    , m_transport(bar) {
    m_transport.setChunkLayout(m_frames);
    connect(m_bar, &ScrubBar::positionChanged, m_frames, &RecordingFrames::request);
    connect(m_frames, &RecordingFrames::frameReady, this, &RecordingPlayer::show);
    connect(m_frames, &RecordingFrames::opened, this, &RecordingPlayer::onOpened);
    connect(m_frames, &RecordingFrames::failed, this, &RecordingPlayer::failed);
}

void RecordingPlayer::open(const QString& path, const std::vector<lbm::ChunkRecord>& chunks,
                           const QList<ChunkMark>& marks, double fps) {
    m_transport.unload(); // nothing to play until the new recording is indexed
    m_chunks = chunks;
    std::stable_sort(m_chunks.begin(), m_chunks.end(),
                     [](const auto& a, const auto& b) { return a.index < b.index; });
    m_pending_marks = marks;
    m_transport.setFps(fps);
    std::vector<int> frames;
    for (const auto& chunk : m_chunks) {
        frames.push_back(chunk.num_frames);
    }
    m_frames->open(path, frames);
}

void RecordingPlayer::close() {
    m_transport.unload();
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
        m_transport.setFrames(frameCount(), placedMarks(frameCount()));
    }
}

void RecordingPlayer::onOpened(int count) {
    m_transport.setFrames(count, placedMarks(count));
    m_bar->show();
    m_bar->setPosition(count - 1);
    m_frames->request(count - 1);
    emit opened(count);
}

void RecordingPlayer::seekChunk(qint64 chunk) {
    for (std::size_t i = 0; i < m_chunks.size(); ++i) {
        if (m_chunks[i].index == chunk) {
            seekFrame(m_frames->firstFrameOfChunk(static_cast<qint64>(i)));
            return;
        }
    }
}

void RecordingPlayer::show(const lbm::media::DecodedFrame& frame) {
    m_view->showFrame(frame);
    m_transport.setLabel(tr("frame %1 / %2 · chunk %3 (frame %4 in chunk)")
                             .arg(frame.globalFrameNumber())
                             .arg(frameCount()) // as the HUD: frame numbers from 0, of N
                             .arg(frame.tag().chunkIndex())
                             .arg(frame.tag().index_in_chunk));
    emit frameShown(frame);
}

} // namespace lbm::ui
