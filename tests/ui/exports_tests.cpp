// Report-ready exports: the chart PNG fills its picture under a title naming the run, the
// endpoint, the model, the profile and the date, with its legend and both axes; the CSV has
// every column `bench --csv --quality` writes.

#include "app/report/quality_json.h"
#include "ui/latency_chart.h"
#include "ui/main_window.h"
#include "ui/session_exports.h"
#include "window_test_support.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <catch2/catch.hpp>

using lbm::ui::MainWindow;

namespace {

QString headerOf(const QByteArray& csv) {
    return QString::fromUtf8(csv.left(csv.indexOf('\n'))).trimmed();
}

} // namespace

TEST_CASE("the chart PNG is titled and filled, the CSV has bench's columns", "[ui][exports]") {
    QSettings().clear();
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    lbm::ui::test::startOnSimulator(window, QStringLiteral("fast"), 6);
    auto* engine = window.sessionEngine();
    REQUIRE(QTest::qWaitFor([&] { return engine->result().has_value(); }, 60000));
    // The quality analysis of the recording finishes after the session.
    REQUIRE(QTest::qWaitFor(
        [&] {
            const auto document = window.currentDocument();
            return document && lbm::report::sessionQuality(document->sessions.front(),
                                                           QStringLiteral("sessions[0]"));
        },
        60000));

    // The PNG.
    const QString title = window.reportTitle();
    const auto document = window.currentDocument();
    CHECK(title.contains(document->endpoint));
    CHECK(title.contains(document->model));
    CHECK(title.contains(QStringLiteral("profile fast")));
    CHECK(title.endsWith(QStringLiteral(" UTC")));
    const QImage image = window.latencyChart()->reportImage(title, QSize(1600, 560));
    const QString path = QStringLiteral(LBM_BINARY_DIR "/screenshots/exported-chart.png");
    QDir().mkpath(QStringLiteral(LBM_BINARY_DIR "/screenshots"));
    REQUIRE(image.save(path));
    // Filled: the bars reach the picture's lower quarter (the plot is laid out at the
    // picture's size, not the window's shrunk into its top).
    const QRgb background = image.pixel(image.width() - 2, image.height() - 2);
    int drawn = 0;
    for (int y = image.height() * 3 / 4; y < image.height() - 40; y += 4) {
        for (int x = 80; x < image.width() - 40; x += 4) {
            drawn += image.pixel(x, y) != background ? 1 : 0;
        }
    }
    CHECK(drawn > 500);

    // The CSV: the columns `bench --csv --quality` writes, in its order.
    const auto table = window.sessionExports()->csvTable();
    REQUIRE(table);
    QTemporaryDir dir;
    const QString bench_csv = dir.filePath(QStringLiteral("bench.csv"));
    QProcess bench;
    bench.start(QStringLiteral(LBM_BINARY_DIR "/lingbot-monitor"),
                {QStringLiteral("bench"), QStringLiteral("--simulate=fast"),
                 QStringLiteral("--num-chunks"), QStringLiteral("3"), QStringLiteral("--quality"),
                 QStringLiteral("--csv"), bench_csv});
    REQUIRE(bench.waitForFinished(120000));
    INFO(QString::fromUtf8(bench.readAllStandardError()).toStdString());
    REQUIRE(bench.exitCode() == 0);
    QFile written(bench_csv);
    REQUIRE(written.open(QIODevice::ReadOnly));
    CHECK(headerOf(table->toCsv()) == headerOf(written.readAll()));
    CHECK(headerOf(table->toCsv()).contains(QStringLiteral("quality_flags")));
}
