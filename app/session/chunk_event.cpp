#include "app/session/chunk_event.h"

namespace lbm::session {

ChunkEvent::ChunkEvent()
    : m_data(std::make_shared<const ChunkEventData>()) {}

ChunkEvent::ChunkEvent(ChunkEventData data)
    : m_data(std::make_shared<const ChunkEventData>(std::move(data))) {}

ChunkEvent ChunkEvent::fromMetadata(const protocol::ChunkMetadata& metadata,
                                    const QByteArray& bytes, double arrival_s,
                                    double inter_arrival_s, bool index_from_position) {
    ChunkEventData data;
    data.request_id = metadata.request_id;
    data.chunk = metadata.chunk();
    data.generation_index_from_position = index_from_position;
    data.byte_length = metadata.byte_length;
    data.bytes = bytes;
    data.arrival_s = arrival_s;
    data.inter_arrival_s = inter_arrival_s;
    data.started_event_ids = metadata.started_event_ids;
    data.active_event_ids = metadata.active_event_ids;
    data.completed_event_ids = metadata.completed_event_ids;
    return ChunkEvent(std::move(data));
}

ChunkRecord ChunkEvent::record() const {
    ChunkRecord record;
    record.index = m_data->chunk.generation_index.value_or(-1);
    record.arrival_s = m_data->arrival_s;
    record.inter_arrival_s = m_data->inter_arrival_s;
    record.byte_length = m_data->bytes.size();
    record.num_frames = m_data->chunk.num_frames;
    return record;
}

QString ChunkEvent::describe() const {
    return QString::fromStdString(m_data->chunk.name());
}

} // namespace lbm::session
