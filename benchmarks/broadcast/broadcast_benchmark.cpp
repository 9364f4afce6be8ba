// What broadcasting costs the window, and how far behind it a browser viewer is, on the same
// simulator session run three times in this process:
//   1. baseline: the window's player (PlaybackFeed + PlaybackClock, as MainWindow wires them)
//      with the broadcast on and nobody watching;
//   2. browser: the same, with headless Chromium playing the viewer page; every frame's
//      presentation in the browser (requestVideoFrameCallback) against the same frame's in the
//      window's player, in wall-clock milliseconds on this machine. The page is open when the
//      session starts, or (late=N) opened once N chunks have landed: a late viewer, whose
//      picture can only start at the newest keyframe (one per 250 frames);
//   3. load: the same, with 50 simulated LL-HLS viewers (scripts/broadcast_load.py), each from
//      its own loopback address.
// For each run: the window's bytes-to-glass (a frame's presentation minus the arrival of the
// payload that carried it) p50/p99, and the recording's SHA-256 (the simulator is
// deterministic, so an unchanged recording hashes the same).
//
//   QT_QPA_PLATFORM=offscreen build/bench/benchmarks/broadcast/lbm_broadcast_benchmark [CHUNKS]
//   [PROFILE] [browser | late=N]
// (browser and late=N run only the browser's part.)
#include "app/broadcast/broadcaster.h"
#include "app/engine/session_engine.h"
#include "app/playback/playback_clock.h"
#include "metrics/latency_summary.h"
#include "resources/bundled_resources.h"
#include "tests/broadcast/devtools_client.h"
#include "tests/broadcast/http_client.h"
#include "ui/playback_feed.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <functional>
#include <map>
#include <vector>

using namespace lbm;

namespace {

QTextStream& out() {
    static QTextStream stream(stdout);
    return stream;
}

double nowMs() {
    return static_cast<double>(QDateTime::currentMSecsSinceEpoch());
}

// The seed's interpolated percentile (lbm_metrics); 0 for no values.
double percentileOrZero(const std::vector<double>& values, double fraction) {
    return values.empty() ? 0.0 : lbm::percentile(values, fraction);
}

struct RunResult {
    std::map<qint64, double> window_shown_ms; // frame -> wall ms
    std::vector<double> bytes_to_glass_ms;
    std::vector<double> intervals_ms;
    QByteArray recording_sha256;
    bool ok = false;
    QString note;
};

using During = std::function<void(broadcast::Broadcaster&, engine::SessionEngine&)>;

// before runs once the broadcast listens and before the session starts; during right after.
RunResult runSession(int chunks, const QString& profile, const During& during,
                     const std::function<bool()>& also_done = {}, const During& before = {}) {
    RunResult run;
    QTemporaryDir dir;
    engine::SessionEngine engine;
    broadcast::Broadcaster broadcaster;
    QString error;
    if (!broadcaster.start({}, &error)) {
        run.note = error;
        return run;
    }
    broadcaster.attach(&engine);
    std::map<qint64, double> arrival_ms; // transport index -> wall ms
    QObject::connect(&engine, &engine::SessionEngine::payloadLanded,
                     [&](const session::ChunkEvent& chunk) {
                         arrival_ms[chunk.transportChunkIndex()] = nowMs();
                     });
    QObject::connect(&engine, &engine::SessionEngine::chunkLanded,
                     [&](const ChunkRecord& record, double) {
                         if (record.index > 0) {
                             run.intervals_ms.push_back(record.interArrivalMs());
                         }
                     });
    playback::PlaybackClock clock;
    clock.setPresenter([&](const media::DecodedFrame& frame) {
        const double shown = nowMs();
        run.window_shown_ms[frame.globalFrameNumber()] = shown;
        const auto carried = arrival_ms.find(frame.tag().carried_by_transport_index);
        if (carried != arrival_ms.end()) {
            run.bytes_to_glass_ms.push_back(shown - carried->second);
        }
    });
    ui::PlaybackFeed feed(&clock);

    if (before) {
        before(broadcaster, engine);
    }
    engine::EngineSettings settings;
    settings.use_simulator = true;
    settings.simulator_profile = profile;
    settings.session.workload = defaultWorkload(bundledFirstFrameDataUrl().toStdString(), chunks);
    settings.session.ping_interval_s = 0;
    settings.present_frames = true; // as the window
    settings.recording_path = dir.filePath(QStringLiteral("stream.m4s"));
    if (!engine.start(settings, &error)) {
        run.note = error;
        return run;
    }
    feed.attach(&engine);
    if (during) {
        during(broadcaster, engine);
    }
    broadcast::test::waitUntil(
        [&] {
            return clock.state() == playback::PlaybackClock::State::Finished &&
                   (!also_done || also_done());
        },
        chunks * 5000 + 60'000);
    QFile recording(settings.recording_path);
    if (recording.open(QIODevice::ReadOnly)) {
        run.recording_sha256 =
            QCryptographicHash::hash(recording.readAll(), QCryptographicHash::Sha256)
                .toHex()
                .left(16);
    }
    run.ok = engine.result() && engine.result()->ok &&
             clock.state() == playback::PlaybackClock::State::Finished;
    return run;
}

void printWindow(const QString& name, const RunResult& run) {
    out() << QStringLiteral("%1: window bytes-to-glass p50 %2 ms, p99 %3 ms over %4 frames; "
                            "recording sha256 %5; chunk interval median %6 ms%7\n")
                 .arg(name)
                 .arg(percentileOrZero(run.bytes_to_glass_ms, 0.50), 0, 'f', 1)
                 .arg(percentileOrZero(run.bytes_to_glass_ms, 0.99), 0, 'f', 1)
                 .arg(run.bytes_to_glass_ms.size())
                 .arg(QString::fromLatin1(run.recording_sha256))
                 .arg(percentileOrZero(run.intervals_ms, 0.5), 0, 'f', 1)
                 .arg(run.ok ? QString() : QStringLiteral(" (FAILED: %1)").arg(run.note));
    out().flush();
}

// Records every frame the page's video presents: [frame number, wall ms, held]; held: the page
// still holds the picture black while it joins the live edge (a late viewer's keyframe).
const QString kWatchFrames = QStringLiteral(R"((() => {
  window.lbmShown = [];
  const v = document.getElementById("video");
  const fps = 16;
  const each = (now, meta) => {
    window.lbmShown.push([Math.round(meta.mediaTime * fps), performance.timeOrigin + meta.expectedDisplayTime,
                          v.classList.contains("joining")]);
    v.requestVideoFrameCallback(each);
  };
  v.requestVideoFrameCallback(each);
  return true;
})())");

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const int chunks = argc > 1 ? std::max(8, QString::fromLocal8Bit(argv[1]).toInt()) : 40;
    const QString profile = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("h200-sp4");
    // A third argument runs only the browser's part (for trying the page's settings):
    // "browser" with the page open before the session, "late=N" opened after chunk N.
    const QString mode = argc > 3 ? QString::fromLocal8Bit(argv[3]) : QString();
    const bool browser_only =
        mode == QStringLiteral("browser") || mode.startsWith(QStringLiteral("late="));
    const int late_after_chunks =
        mode.startsWith(QStringLiteral("late=")) ? mode.mid(5).toInt() : 0;
    if (late_after_chunks < 0 || late_after_chunks >= chunks) {
        out() << "late=N needs 0 <= N < CHUNKS (got " << mode << ")\n";
        return 2;
    }
    out() << "Session: " << chunks << " chunks, simulator profile " << profile << "\n";

    RunResult baseline;
    if (!browser_only) {
        baseline = runSession(chunks, profile, {});
        printWindow(QStringLiteral("1 baseline (broadcast on, no viewer)"), baseline);
    }

    // 2: a browser on the viewer page, measured frame by frame against the window's player.
    broadcast::test::HeadlessChromium browser;
    QString error;
    if (!browser.start(1280, 800, &error)) {
        out() << "2 browser: skipped, " << error << "\n";
    } else {
        bool watching = false;
        double opened_ms = 0;
        // The stakeholder has the page open when the session starts, or opens it once
        // late_after_chunks chunks have landed (docs/broadcast.md, "A late viewer").
        const auto open_page = [&](broadcast::Broadcaster& broadcaster,
                                   engine::SessionEngine& engine) {
            if (late_after_chunks > 0) {
                broadcast::test::waitUntil(
                    [&] { return engine.liveMetrics().chunkCount() >= late_after_chunks; },
                    late_after_chunks * 5000 + 60'000);
            }
            opened_ms = nowMs();
            browser.navigate(broadcaster.viewerUrl().toString());
            watching = broadcast::test::waitUntil(
                [&] { return browser.evaluate(QStringLiteral("!!window.lbmViewer")).toBool(); },
                15'000);
            watching = watching && browser.evaluate(kWatchFrames).toBool();
        };
        const RunResult with_browser = runSession(
            chunks, profile, late_after_chunks > 0 ? During(open_page) : During(),
            [&] {
                return !watching ||
                       browser.evaluate(QStringLiteral("document.getElementById('video').ended"))
                           .toBool();
            },
            late_after_chunks > 0 ? During() : During(open_page));
        printWindow(
            late_after_chunks > 0
                ? QStringLiteral("2 with a browser opened after chunk %1").arg(late_after_chunks)
                : QStringLiteral("2 with a browser"),
            with_browser);
        std::vector<double> behind_ms;
        double first_shown_ms = 0;
        int held_frames = 0;
        for (const QJsonValue& shown :
             browser.evaluate(QStringLiteral("window.lbmShown || []"), 30'000).toArray()) {
            const auto frame = static_cast<qint64>(shown[0].toDouble());
            if (shown[2].toBool()) {
                ++held_frames; // presented black: not part of what the viewer sees
                continue;
            }
            if (first_shown_ms == 0) {
                first_shown_ms = shown[1].toDouble();
                out() << QStringLiteral("2 browser's first frame shown: %1, %2 ms after the page "
                                        "was opened\n")
                             .arg(frame)
                             .arg(first_shown_ms - opened_ms, 0, 'f', 0);
            }
            const auto window = with_browser.window_shown_ms.find(frame);
            if (window != with_browser.window_shown_ms.end()) {
                behind_ms.push_back(shown[1].toDouble() - window->second);
            }
        }
        const double interval = percentileOrZero(with_browser.intervals_ms, 0.5);
        // Along the session: is the browser's lag from its start, or does it grow with stalls?
        out() << "2 browser frames presented while held black (joining the live edge): "
              << held_frames << "\n";
        out() << "2 browser behind the window every 48th matched frame (ms):";
        for (size_t i = 0; i < behind_ms.size(); i += 48) {
            out() << ' ' << qRound(behind_ms[i]);
        }
        out() << "\n";
        out() << QStringLiteral(
                     "2 browser behind the window, same frames (%1 matched): median %2 ms "
                     "(%3 chunk intervals), p95 %4 ms (%5), max %6 ms (%7)\n")
                     .arg(behind_ms.size())
                     .arg(percentileOrZero(behind_ms, 0.5), 0, 'f', 0)
                     .arg(percentileOrZero(behind_ms, 0.5) / interval, 0, 'f', 2)
                     .arg(percentileOrZero(behind_ms, 0.95), 0, 'f', 0)
                     .arg(percentileOrZero(behind_ms, 0.95) / interval, 0, 'f', 2)
                     .arg(percentileOrZero(behind_ms, 1.0), 0, 'f', 0)
                     .arg(percentileOrZero(behind_ms, 1.0) / interval, 0, 'f', 2);
        out().flush();
    }

    if (browser_only) {
        return 0;
    }
    // 3: 50 simulated viewers while the window plays.
    QProcess load;
    const RunResult loaded = runSession(
        chunks, profile,
        [&](broadcast::Broadcaster& broadcaster, engine::SessionEngine&) {
            load.start(QStringLiteral("python3"),
                       {QStringLiteral(LBM_SOURCE_DIR "/scripts/broadcast_load.py"),
                        broadcaster.viewerUrl().toString(), QStringLiteral("--viewers"),
                        QStringLiteral("50"), QStringLiteral("--seconds"),
                        QString::number(chunks * 3 + 30)});
        },
        [&] { return load.state() == QProcess::NotRunning; });
    printWindow(QStringLiteral("3 with 50 viewers"), loaded);
    out() << "3 viewers: " << QString::fromUtf8(load.readAllStandardOutput()).trimmed() << "\n";
    out() << QStringLiteral("3 against 1: bytes-to-glass p99 ratio %1, recording %2\n")
                 .arg(percentileOrZero(loaded.bytes_to_glass_ms, 0.99) /
                          std::max(1.0, percentileOrZero(baseline.bytes_to_glass_ms, 0.99)),
                      0, 'f', 2)
                 .arg(loaded.recording_sha256 == baseline.recording_sha256
                          ? QStringLiteral("identical")
                          : QStringLiteral("DIFFERENT"));
    return baseline.ok && loaded.ok ? 0 : 1;
}
