// Per-chunk CSV: the record columns, the deadline verdict, and caller-added columns.

#include "app/report/chunk_csv.h"
#include "app/report/report_error.h"

#include <QFile>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

namespace {

std::vector<lbm::ChunkRecord> records() {
    // Out of order on purpose: rows come out in index order.
    return {{2, 2.0, 0.9, 300, 12},
            {0, 0.5, 0.5, 100, 9},
            {1, 1.1, 0.6, 200, 12},
            {3, 2.6, 0.6, 400, 12}};
}

} // namespace

TEST_CASE("chunk CSV rows follow index order with verdicts", "[report][csv]") {
    lbm::report::ChunkCsvTable table(records(), 750.0, 1);
    table.addColumn(QStringLiteral("decoded_frames"), {QStringLiteral("9"), QStringLiteral("12"),
                                                       QStringLiteral("12"), QStringLiteral("11")});
    table.addColumn(QStringLiteral("completed_ids"), {QString(), QStringLiteral("chunk-0,chunk-1"),
                                                      QString(), QStringLiteral("say \"hi\"")});
    const QStringList lines = QString::fromUtf8(table.toCsv()).split(QLatin1Char('\n'));
    REQUIRE(lines.size() == 6); // header, 4 rows, trailing newline
    CHECK(lines[0] == QStringLiteral("index,arrival_s,inter_arrival_ms,steady,within_deadline,"
                                     "byte_length,num_frames,decoded_frames,completed_ids"));
    CHECK(lines[1] == QStringLiteral("0,0.5,500.0,false,,100,9,9,"));
    CHECK(lines[2] == QStringLiteral("1,1.1,600.0,true,true,200,12,12,\"chunk-0,chunk-1\""));
    CHECK(lines[3] == QStringLiteral("2,2.0,900.0,true,false,300,12,12,"));
    // The terminal chunk is never steady (compute_metrics' rule).
    CHECK(lines[4] == QStringLiteral("3,2.6,600.0,false,true,400,12,11,\"say \"\"hi\"\"\""));
    CHECK(lines[5].isEmpty());

    CHECK_THROWS_AS(table.addColumn(QStringLiteral("short"), {QStringLiteral("1")}),
                    lbm::report::ReportError);

    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("chunks.csv"));
    table.write(path);
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    CHECK(file.readAll() == table.toCsv());
    CHECK_THROWS_AS(table.write(dir.filePath(QStringLiteral("no/such/dir.csv"))),
                    lbm::report::ReportError);
}
