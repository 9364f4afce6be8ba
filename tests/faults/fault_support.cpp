#include "fault_support.h"

#include "app/engine/session_engine.h"
#include "app/playback/playback_clock.h"
#include "app/sim/fmp4_encoder.h"
#include "app/sim/frame_barcode.h"
#include "resources/bundled_resources.h"
#include "ui/playback_feed.h"

#include <QColor>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QSslCertificate>
#include <QSslKey>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTimer>

namespace faults {

BenchRun runBench(const QStringList& arguments, double cap_s, const QString& program) {
    QProcess process;
    QEventLoop loop;
    QObject::connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
    QObject::connect(&process, &QProcess::errorOccurred, &loop, &QEventLoop::quit);
    QTimer::singleShot(static_cast<int>(cap_s * 1000), &loop, &QEventLoop::quit);
    QElapsedTimer clock;
    clock.start();
    if (program.isEmpty()) {
        process.start(QStringLiteral(LBM_BINARY_DIR "/lingbot-monitor"),
                      QStringList{QStringLiteral("bench")} + arguments);
    } else {
        process.start(program, arguments);
    }
    loop.exec();
    BenchRun run;
    run.elapsed_s = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    if (process.state() != QProcess::NotRunning) {
        run.crashed = true;
        process.kill();
        process.waitForFinished();
    } else {
        run.crashed = process.exitStatus() != QProcess::NormalExit;
        run.exit_code = process.exitCode();
    }
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

QString lastLine(const QString& text) {
    return text.trimmed().split(QLatin1Char('\n')).last();
}

GuiRun runGuiEngine(const GuiOptions& options) {
    GuiRun run;
    // The window's path: the engine presenting frames through the playback feed and clock.
    lbm::engine::SessionEngine engine;
    lbm::playback::PlaybackClock clock;
    lbm::ui::PlaybackFeed feed(&clock);
    for (const auto signal :
         {&lbm::engine::SessionEngine::warning, &lbm::engine::SessionEngine::decoderProblem,
          &lbm::engine::SessionEngine::recordingFailed}) {
        QObject::connect(&engine, signal,
                         [&run](const QString& text) { run.problems.append(text); });
    }
    QTemporaryDir recording_dir;
    lbm::engine::EngineSettings settings;
    settings.use_simulator = false;
    settings.session.url = options.url;
    settings.session.workload =
        lbm::defaultWorkload(lbm::bundledFirstFrameDataUrl().toStdString(), kChunks, "forward",
                             std::string(lbm::kDefaultPrompt), options.width, options.height);
    settings.metrics.warmup_chunks = 1;
    settings.session.first_chunk_timeout_s = options.first_chunk_timeout_s;
    settings.session.chunk_timeout_s = options.chunk_timeout_s;
    settings.session.ping_interval_s = options.ping_interval_s;
    settings.session.insecure = options.insecure;
    settings.recording_path = recording_dir.filePath(QStringLiteral("session.m4s"));
    settings.present_frames = true;

    QEventLoop loop;
    QObject::connect(&engine, &lbm::engine::SessionEngine::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(static_cast<int>(options.cap_s * 1000), &loop, &QEventLoop::quit);
    QElapsedTimer elapsed;
    elapsed.start();
    run.started = engine.start(settings, &run.start_error);
    if (!run.started) {
        return run;
    }
    feed.attach(&engine);
    if (!engine.result()) {
        loop.exec();
    }
    run.elapsed_s = static_cast<double>(elapsed.nsecsElapsed()) / 1e9;
    run.finished = engine.result().has_value();
    if (!run.finished) {
        engine.stop();
        return run;
    }
    run.result = *engine.result();
    run.records = engine.liveMetrics().records();
    const QString path = engine.recordingPath();
    run.recording_bytes = QFileInfo(path).size();
    if (run.recording_bytes > 0) {
        QTemporaryDir dir;
        run.remux = lbm::media::remuxToMp4(path, dir.filePath(QStringLiteral("gui.mp4")));
    }
    return run;
}

const TestStream& testStream() {
    static const TestStream stream = [] {
        TestStream made;
        lbm::sim::Fmp4Encoder encoder(832, 480, 16);
        qint64 frame_number = 0;
        for (int chunk = 0; chunk < kChunks; ++chunk) {
            QByteArray bytes;
            for (int n = 0; n < (chunk == 0 ? 9 : 12); ++n) {
                QImage frame(832, 480, QImage::Format_RGB32);
                frame.fill(QColor::fromHsv(static_cast<int>((frame_number * 7) % 360), 160, 200));
                lbm::sim::drawFrameBarcode(frame, frame_number++);
                bytes += encoder.encode(frame);
            }
            made.chunks.push_back(bytes);
        }
        made.trailer = encoder.finish();
        return made;
    }();
    return stream;
}

std::optional<QSslConfiguration> selfSignedServerTls(QString* problem) {
    static QTemporaryDir dir;
    const QString key_path = dir.filePath(QStringLiteral("key.pem"));
    const QString cert_path = dir.filePath(QStringLiteral("cert.pem"));
    if (!QFileInfo::exists(cert_path)) {
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"),
                      {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                       QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                       QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                       QStringLiteral("-keyout"), key_path, QStringLiteral("-out"), cert_path,
                       QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                       QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-addext"),
                       QStringLiteral("subjectAltName=IP:127.0.0.1")});
        if (!openssl.waitForFinished(30000) || openssl.exitStatus() != QProcess::NormalExit ||
            openssl.exitCode() != 0) {
            *problem =
                QStringLiteral("openssl req failed (%1): %2")
                    .arg(openssl.errorString(), QString::fromUtf8(openssl.readAllStandardError()));
            return std::nullopt;
        }
    }
    QFile cert_file(cert_path);
    QFile key_file(key_path);
    if (!cert_file.open(QIODevice::ReadOnly) || !key_file.open(QIODevice::ReadOnly)) {
        *problem = QStringLiteral("cannot read the generated certificate");
        return std::nullopt;
    }
    const QSslCertificate certificate(&cert_file, QSsl::Pem);
    const QSslKey key(&key_file, QSsl::Ec, QSsl::Pem);
    if (certificate.isNull() || key.isNull()) {
        *problem = QStringLiteral("the generated certificate or key does not load");
        return std::nullopt;
    }
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificate(certificate);
    configuration.setPrivateKey(key);
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
    return configuration;
}

quint16 unusedPort() {
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace faults
