#include "app/session/chunk_event.h"

namespace lbm::session {

ChunkEvent::ChunkEvent()
    : m_data(std::make_shared<const ChunkEventData>()) {}

ChunkEvent::ChunkEvent(ChunkEventData data)
    : m_data(std::make_shared<const ChunkEventData>(std::move(data))) {}

ChunkRecord ChunkEvent::record() const {
    ChunkRecord record;
    record.index = m_data->generation_chunk_index.value_or(-1);
    record.arrival_s = m_data->arrival_s;
    record.inter_arrival_s = m_data->inter_arrival_s;
    record.byte_length = m_data->bytes.size();
    record.num_frames = m_data->num_frames;
    return record;
}

QString ChunkEvent::describe() const {
    if (isTrailer()) {
        return QStringLiteral("trailer (transport chunk %1)").arg(m_data->transport_chunk_index);
    }
    return QStringLiteral("chunk %1")
        .arg(m_data->generation_chunk_index.value_or(m_data->transport_chunk_index));
}

} // namespace lbm::session
