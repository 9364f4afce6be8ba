#include "app/engine/session_csv.h"

#include "app/engine/session_engine.h"

#include <algorithm>
#include <map>

namespace lbm::engine {

report::ChunkCsvTable sessionCsvTable(const SessionEngine& engine) {
    const LiveSessionMetrics& live = engine.liveMetrics();
    std::vector<ChunkRecord> records = live.records();
    std::stable_sort(records.begin(), records.end(),
                     [](const ChunkRecord& a, const ChunkRecord& b) { return a.index < b.index; });
    report::ChunkCsvTable table(records, live.deadlineMs(), live.options().warmup_chunks);
    const auto decoded_per_chunk = engine.framesDecodedPerChunk();
    std::map<qint64, const ChunkInteractionIds*> ids_by_chunk; // a repeated chunk: the last
    for (const ChunkInteractionIds& ids : engine.chunkIds()) {
        ids_by_chunk[ids.index] = &ids;
    }
    QStringList decoded, started, active, completed;
    for (const ChunkRecord& record : records) {
        const auto found = decoded_per_chunk.find(record.index);
        decoded.append(QString::number(found == decoded_per_chunk.end() ? 0 : found->second));
        const auto ids = ids_by_chunk.find(record.index);
        const bool known = ids != ids_by_chunk.end();
        started.append(known ? ids->second->started.join(QLatin1Char(' ')) : QString());
        active.append(known ? ids->second->active.join(QLatin1Char(' ')) : QString());
        completed.append(known ? ids->second->completed.join(QLatin1Char(' ')) : QString());
    }
    table.addColumn(QStringLiteral("decoded_frames"), decoded);
    table.addColumn(QStringLiteral("started_event_ids"), started);
    table.addColumn(QStringLiteral("active_event_ids"), active);
    table.addColumn(QStringLiteral("completed_event_ids"), completed);
    std::vector<qint64> indices;
    for (const ChunkRecord& record : records) {
        indices.push_back(record.index);
    }
    table.addColumn(QStringLiteral("superseded_event_ids"),
                    engine.timeline().supersededPerChunk(indices));
    return table;
}

} // namespace lbm::engine
