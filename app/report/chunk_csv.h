#pragma once
// Per-chunk CSV export: the record columns every run has, the deadline verdict the
// report's "Steady chunks within deadline" counts, and any columns a caller adds (decoded
// frames, started/completed interaction ids, ...). RFC 4180 quoting, "\n" line ends.

#include "metrics/chunk_record.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <vector>

namespace lbm::report {

class ChunkCsvTable {
public:
    // Columns: index, arrival_s, inter_arrival_ms, steady, within_deadline, byte_length,
    // num_frames. "steady" follows compute_metrics (index >= warmup_chunks, index > 0,
    // not the last chunk); within_deadline is inter_arrival_ms <= deadline_ms for every
    // chunk after the first and empty for chunk 0 (its interval is the TTFC). Rows are in
    // index order.
    ChunkCsvTable(std::vector<lbm::ChunkRecord> records, double deadline_ms, int warmup_chunks);

    // Appends a column; values[i] belongs to the i-th row in index order. Throws
    // ReportError when the count differs from the row count.
    void addColumn(const QString& header, const QStringList& values);

    int rowCount() const { return static_cast<int>(m_records.size()); }
    // The rows' records, in index order (what addColumn's values line up with).
    const std::vector<lbm::ChunkRecord>& records() const { return m_records; }
    QByteArray toCsv() const;
    // Atomic write (QSaveFile); throws ReportError with the path and the reason.
    void write(const QString& path) const;

private:
    std::vector<lbm::ChunkRecord> m_records;
    double m_deadline_ms;
    int m_warmup_chunks;
    QStringList m_extra_headers;
    std::vector<QStringList> m_extra_columns;
};

} // namespace lbm::report
