#include "app/report/chunk_csv.h"

#include "app/report/atomic_file.h"
#include "app/report/report_error.h"
#include "metrics/python_text.h"

#include <algorithm>
#include <utility>

namespace lbm::report {
namespace {

QString csvField(const QString& value) {
    const bool needs_quotes =
        value.contains(QLatin1Char(',')) || value.contains(QLatin1Char('"')) ||
        value.contains(QLatin1Char('\n')) || value.contains(QLatin1Char('\r'));
    if (!needs_quotes) {
        return value;
    }
    QString quoted = value;
    quoted.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString boolText(bool value) {
    return value ? QStringLiteral("true") : QStringLiteral("false");
}

} // namespace

ChunkCsvTable::ChunkCsvTable(std::vector<lbm::ChunkRecord> records, double deadline_ms,
                             int warmup_chunks)
    : m_records(std::move(records))
    , m_deadline_ms(deadline_ms)
    , m_warmup_chunks(warmup_chunks) {
    std::stable_sort(
        m_records.begin(), m_records.end(),
        [](const lbm::ChunkRecord& a, const lbm::ChunkRecord& b) { return a.index < b.index; });
}

void ChunkCsvTable::addColumn(const QString& header, const QStringList& values) {
    if (values.size() != rowCount()) {
        throw ReportError(QStringLiteral("The CSV column %1 has %2 values for %3 chunks.")
                              .arg(header)
                              .arg(values.size())
                              .arg(rowCount()));
    }
    m_extra_headers.append(header);
    m_extra_columns.push_back(values);
}

QByteArray ChunkCsvTable::toCsv() const {
    QStringList headers = {QStringLiteral("index"),
                           QStringLiteral("arrival_s"),
                           QStringLiteral("inter_arrival_ms"),
                           QStringLiteral("steady"),
                           QStringLiteral("within_deadline"),
                           QStringLiteral("byte_length"),
                           QStringLiteral("num_frames")};
    headers.append(m_extra_headers);
    QStringList lines;
    QStringList header_fields;
    for (const QString& header : headers) {
        header_fields.append(csvField(header));
    }
    lines.append(header_fields.join(QLatin1Char(',')));
    for (int row = 0; row < rowCount(); ++row) {
        const lbm::ChunkRecord& record = m_records[static_cast<std::size_t>(row)];
        const bool last = row == rowCount() - 1;
        // compute_metrics' steady rule: past the warmup, not chunk 0, not the terminal chunk.
        const bool steady = !last && record.index >= m_warmup_chunks && record.index > 0;
        QStringList fields = {
            QString::number(record.index),
            QString::fromStdString(lbm::pythonFloatRepr(record.arrival_s)),
            QString::fromStdString(lbm::pythonFloatRepr(record.interArrivalMs())),
            boolText(steady),
            record.index > 0 ? boolText(record.interArrivalMs() <= m_deadline_ms) : QString(),
            QString::number(record.byte_length),
            QString::number(record.num_frames),
        };
        for (const QStringList& column : m_extra_columns) {
            fields.append(csvField(column.at(row)));
        }
        lines.append(fields.join(QLatin1Char(',')));
    }
    return (lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8();
}

void ChunkCsvTable::write(const QString& path) const {
    writeFileAtomically(path, toCsv());
}

} // namespace lbm::report
