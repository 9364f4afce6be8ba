#pragma once
// One transport payload (a media chunk or the trailer) exactly as the network thread saw it:
// its video.chunk_metadata, its bytes, and the steady-clock moment the binary frame was
// delivered. Immutable and implicitly shared, so the recorder, the decoder, the live metrics
// and the UI can all hold it on their own threads without copies or locks.

#include "app/protocol/server_message.h"
#include "metrics/chunk_record.h"

#include <QByteArray>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace lbm::session {

struct ChunkEventData {
    QString request_id;
    // Which payload this is and how many frames it holds: the record the decoder's queue and
    // each decoded frame's tag keep too.
    ChunkIdentity chunk;
    // The server sent generation_chunk_index null for this media chunk; chunk's generation
    // index is its position among the media chunks.
    bool generation_index_from_position = false;
    qint64 byte_length = 0; // as announced; equals bytes.size() (checked before emitting)
    QByteArray bytes;
    // Seconds on the session clock (zero = right after session.start was sent) when the
    // binary frame was delivered on the network thread.
    double arrival_s = 0.0;
    // arrival_s minus the previous media chunk's arrival (chunk 0: its arrival), as the
    // benchmark defines it. For the trailer: since the last media chunk.
    double inter_arrival_s = 0.0;
    QStringList started_event_ids;
    QStringList active_event_ids;
    QStringList completed_event_ids;
};

class ChunkEvent {
public:
    ChunkEvent(); // an empty media chunk; exists for QMetaType
    explicit ChunkEvent(ChunkEventData data);
    // One immutable event per payload. A trailer's metadata has no generation index and zero
    // frames, so the same fields describe media chunks and the trailer.
    static ChunkEvent fromMetadata(const protocol::ChunkMetadata& metadata, const QByteArray& bytes,
                                   double arrival_s, double inter_arrival_s,
                                   bool index_from_position = false);

    const QString& requestId() const { return m_data->request_id; }
    const ChunkIdentity& chunk() const { return m_data->chunk; }
    protocol::ChunkKind kind() const { return m_data->chunk.kind; }
    bool isMedia() const { return m_data->chunk.isMedia(); }
    bool isTrailer() const { return !m_data->chunk.isMedia(); }
    qint64 transportChunkIndex() const { return m_data->chunk.transport_index; }
    std::optional<qint64> generationChunkIndex() const { return m_data->chunk.generation_index; }
    bool generationIndexFromPosition() const { return m_data->generation_index_from_position; }
    int numFrames() const { return m_data->chunk.num_frames; }
    qint64 byteLength() const { return m_data->byte_length; }
    const QByteArray& bytes() const { return m_data->bytes; }
    double arrivalS() const { return m_data->arrival_s; }
    double interArrivalS() const { return m_data->inter_arrival_s; }
    const QStringList& startedEventIds() const { return m_data->started_event_ids; }
    const QStringList& activeEventIds() const { return m_data->active_event_ids; }
    const QStringList& completedEventIds() const { return m_data->completed_event_ids; }
    const ChunkEventData& data() const { return *m_data; }

    // The benchmark's ChunkRecord for a media chunk (index = generation_chunk_index,
    // byte_length = the bytes received). Meaningless for the trailer.
    ChunkRecord record() const;
    // "chunk 7" or "trailer (transport chunk 16)", for messages.
    QString describe() const;

private:
    std::shared_ptr<const ChunkEventData> m_data;
};

} // namespace lbm::session

Q_DECLARE_METATYPE(lbm::session::ChunkEvent)
