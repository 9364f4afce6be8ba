// The soak: one long session in the real window (MainWindow, so the chart, counters, HUD and
// history run as a user has them) against the in-process simulator's `fast` profile, with a
// prompt transition and camera key presses every few chunks. Every SAMPLE chunks it reads
// resident memory, threads and open descriptors from /proc/self; at the end it checks that
// the recording holds every byte and frame received and that the saved document reads back
// complete. Growth is judged against the process's own reading after the warm-up (the
// baseline), not against a fixed number, because these machines are noisy.
//
// Usage: lbm_soak_benchmark [CHUNKS=4800] [TARGET_FPS=120] [SAMPLE=200]
// (run it on the offscreen platform or under Xvfb: QT_QPA_PLATFORM=offscreen ...)
// Exit 0 when resources stayed flat and the recording and document are complete, 1 if not.

#include "app/engine/session_engine.h"
#include "app/media/remux.h"
#include "app/media/stream_decoder.h"
#include "app/report/session_document.h"
#include "ui/main_window.h"
#include "ui/prompt_panel.h"
#include "ui/session_form.h"
#include "ui/video_view.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <malloc.h>
#include <optional>
#include <vector>

namespace {

struct ProcessReading {
    qint64 chunk = 0;
    double elapsed_s = 0.0;
    qint64 rss_kib = 0;
    qint64 heap_kib = 0; // malloc's bytes in use (mallinfo2), not what it keeps for reuse
    int threads = 0;
    int open_fds = 0;
    qint64 frames_decoded = 0;
    qint64 frames_presented = 0;
    qint64 decoder_backlog_kib = 0; // compressed bytes waiting for the decoder
    // The heap in use less the buffer above: what must not accumulate. (RSS cannot be split
    // this way: glibc keeps freed memory, e.g. a drained backlog, resident for reuse.)
    qint64 rest_kib() const { return heap_kib - decoder_backlog_kib; }
};

qint64 statusField(const QByteArray& status, const QByteArray& key) {
    for (const QByteArray& line : status.split('\n')) {
        if (line.startsWith(key)) {
            return line.mid(key.size()).trimmed().split(' ').first().toLongLong();
        }
    }
    return -1;
}

ProcessReading readProcess(qint64 chunk, double elapsed_s, const lbm::ui::MainWindow& window) {
    QFile status(QStringLiteral("/proc/self/status"));
    status.open(QIODevice::ReadOnly);
    const QByteArray text = status.readAll();
    ProcessReading reading;
    reading.chunk = chunk;
    reading.elapsed_s = elapsed_s;
    reading.rss_kib = statusField(text, "VmRSS:");
    const struct mallinfo2 heap = mallinfo2();
    reading.heap_kib = static_cast<qint64>((heap.uordblks + heap.hblkhd) / 1024);
    reading.threads = static_cast<int>(statusField(text, "Threads:"));
    reading.open_fds = static_cast<int>(
        QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::Files | QDir::System).size());
    reading.frames_decoded = window.sessionEngine()->framesDecoded();
    reading.frames_presented = window.playbackClock()->framesPresented();
    reading.decoder_backlog_kib = window.sessionEngine()->decoderStats().bytes_pending / 1024;
    return reading;
}

void printReading(const ProcessReading& reading) {
    std::printf("%7lld %9.1f %10lld %10lld %11lld %10lld %8d %5d %10lld\n",
                static_cast<long long>(reading.chunk), reading.elapsed_s,
                static_cast<long long>(reading.rss_kib), static_cast<long long>(reading.heap_kib),
                static_cast<long long>(reading.decoder_backlog_kib),
                static_cast<long long>(reading.rest_kib()), reading.threads, reading.open_fds,
                static_cast<long long>(reading.frames_presented));
    std::fflush(stdout);
}

int intArgument(const QStringList& arguments, int index, int fallback) {
    return arguments.size() > index ? arguments[index].toInt() : fallback;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("lingbot-monitor-soak"));
    const QStringList arguments = QApplication::arguments();
    const int chunks = intArgument(arguments, 1, 4800);
    const double target_fps = arguments.size() > 2 ? arguments[2].toDouble() : 120.0;
    const int sample_every = intArgument(arguments, 3, 200);
    if (chunks < 2 * sample_every || target_fps <= 0.0 || sample_every < 1) {
        std::fprintf(stderr, "usage: lbm_soak_benchmark [CHUNKS>=2*SAMPLE] [TARGET_FPS>0] "
                             "[SAMPLE>=1]\n");
        return 2;
    }

    lbm::ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    auto* form = window.sessionForm();
    form->setUseSimulator(true);
    form->setSimulatorProfile(QStringLiteral("fast"));
    form->setChunks(chunks);
    // The fast profile delivers 12 frames every 100 ms plus the handler's 0.1-0.3 s muxing
    // delay (about every 225 ms); a viewer at 16 fps would fall far behind and hold the stream
    // in its decode queue. Playing at (or above) the delivery rate keeps the soak about the
    // pipeline's steady state, not its backlog.
    form->setTargetFps(target_fps);
    form->setCameraChoice(lbm::ui::SessionForm::steerCameraChoice());
    if (!window.startSession()) {
        std::fprintf(stderr, "could not start: %s\n", qPrintable(window.bannerText()));
        return 1;
    }
    lbm::engine::SessionEngine* session = window.sessionEngine();

    QElapsedTimer clock;
    clock.start();
    std::vector<ProcessReading> readings;
    int prompts_sent = 0;
    int key_presses = 0;
    const QStringList prompts = {QStringLiteral("A snowy street at dusk"),
                                 QStringLiteral("A quiet village road at sunset."),
                                 QStringLiteral("Rain on a neon-lit alley")};
    const std::vector<Qt::Key> keys = {Qt::Key_W, Qt::Key_A, Qt::Key_D, Qt::Key_L, Qt::Key_J};
    std::printf("%7s %9s %10s %10s %11s %10s %8s %5s %10s\n", "chunk", "elapsed_s", "rss_kib",
                "heap_kib", "backlog_kib", "rest_kib", "threads", "fds", "shown");
    QObject::connect(
        session, &lbm::engine::SessionEngine::chunkLanded, &window,
        [&](const lbm::ChunkRecord& record, double) {
            const qint64 index = record.index;
            if (index % 7 == 3) {
                window.promptPanel()->setPrompt(prompts[prompts_sent % prompts.size()]);
                window.promptPanel()->setTransitionChunks(2);
                window.promptPanel()->send();
                ++prompts_sent;
            }
            if (index % 3 == 1) {
                // A press and a release: two velocities, as a user's tap.
                const Qt::Key key = keys[key_presses % keys.size()];
                QTest::keyPress(window.videoView(), key);
                QTest::keyRelease(window.videoView(), key);
                ++key_presses;
            }
            if ((index + 1) % sample_every == 0) {
                readings.push_back(
                    readProcess(index + 1, static_cast<double>(clock.elapsed()) / 1000.0, window));
                printReading(readings.back());
            }
        });
    while (!session->result()) {
        QTest::qWait(50);
    }
    const double session_s = static_cast<double>(clock.elapsed()) / 1000.0;
    // Let the player show everything, as a viewer watching to the end would; give up only
    // when it stops making progress (a stuck player is a failure, reported below).
    QElapsedTimer no_progress;
    no_progress.start();
    qint64 last_presented = -1;
    while (window.playbackClock()->state() != lbm::playback::PlaybackClock::State::Finished &&
           no_progress.elapsed() < 10000) {
        QTest::qWait(200);
        if (window.playbackClock()->framesPresented() != last_presented) {
            last_presented = window.playbackClock()->framesPresented();
            no_progress.restart();
        }
    }
    const ProcessReading after_playback =
        readProcess(chunks, static_cast<double>(clock.elapsed()) / 1000.0, window);
    std::printf("after playback ended:\n");
    printReading(after_playback);
    // What the process holds once malloc gives its free memory back to the system.
    malloc_trim(0);
    std::printf("after malloc_trim:\n");
    printReading(readProcess(chunks, static_cast<double>(clock.elapsed()) / 1000.0, window));
    const lbm::session::SessionResult result = *session->result();

    bool ok = true;
    const auto check = [&ok](bool condition, const QString& what) {
        std::printf("%-4s %s\n", condition ? "ok" : "FAIL", qPrintable(what));
        ok = ok && condition;
    };
    std::printf("\nsession: %s in %.1f s (playback ended at %.1f s), %d prompts and %d key "
                "taps sent (%zu camera velocities), %d interactions on the timeline\n",
                result.ok ? "completed" : qPrintable(result.error), session_s,
                static_cast<double>(clock.elapsed()) / 1000.0, prompts_sent, key_presses,
                window.sentVelocities().size(),
                static_cast<int>(session->timeline().interactions().size()));
    check(window.playbackClock()->state() == lbm::playback::PlaybackClock::State::Finished &&
              window.playbackClock()->framesPresented() == session->framesAnnounced(),
          QStringLiteral("the player showed %1 of %2 frames and finished")
              .arg(window.playbackClock()->framesPresented())
              .arg(session->framesAnnounced()));
    check(result.ok, QStringLiteral("the session completed"));
    check(static_cast<int>(session->liveMetrics().records().size()) == chunks,
          QStringLiteral("%1 of %2 chunks recorded")
              .arg(session->liveMetrics().records().size())
              .arg(chunks));
    check(session->framesDecoded() == session->framesAnnounced(),
          QStringLiteral("%1 of %2 frames decoded")
              .arg(session->framesDecoded())
              .arg(session->framesAnnounced()));

    // Resources: the baseline is the reading half-way through the session (warm caches,
    // full queues, the allocator's arenas grown to their working size). One buffer may
    // legitimately still grow after it and is accounted separately: the compressed backlog of a
    // viewer slower than the server. Everything else must stay flat; the scrub history reads
    // the recording on disk, so it holds nothing in memory.
    if (readings.size() >= 5) {
        // Both readings are taken while streaming, so the bounded queues (decoded frames,
        // the clock's lead) are equally full in each and cancel out.
        const ProcessReading& baseline = readings[(readings.size() - 1) / 2];
        const ProcessReading& end = readings.back();
        std::printf("\nbaseline (chunk %lld, %.0f s) -> end of the session (%.0f s):\n"
                    "  RSS %lld -> %lld KiB (x%.3f), heap in use %lld -> %lld KiB\n"
                    "  decoder backlog %lld -> %lld KiB\n"
                    "  the rest %lld -> %lld KiB (x%.3f, %+lld KiB)\n"
                    "  threads %d -> %d, fds %d -> %d\n",
                    static_cast<long long>(baseline.chunk), baseline.elapsed_s, end.elapsed_s,
                    static_cast<long long>(baseline.rss_kib), static_cast<long long>(end.rss_kib),
                    static_cast<double>(end.rss_kib) / static_cast<double>(baseline.rss_kib),
                    static_cast<long long>(baseline.heap_kib), static_cast<long long>(end.heap_kib),
                    static_cast<long long>(baseline.decoder_backlog_kib),
                    static_cast<long long>(end.decoder_backlog_kib),
                    static_cast<long long>(baseline.rest_kib()),
                    static_cast<long long>(end.rest_kib()),
                    static_cast<double>(end.rest_kib()) / static_cast<double>(baseline.rest_kib()),
                    static_cast<long long>(end.rest_kib() - baseline.rest_kib()), baseline.threads,
                    end.threads, baseline.open_fds, end.open_fds);
        // 32 MiB or 10 %: per-chunk bookkeeping (rows, chart, timeline) and allocator noise.
        check(end.rest_kib() - baseline.rest_kib() <
                  std::max<qint64>(32 * 1024, baseline.rest_kib() / 10),
              QStringLiteral("memory in use flat after the warm-up (beyond the two buffers)"));
        check(end.threads <= baseline.threads && after_playback.threads <= baseline.threads,
              QStringLiteral("thread count flat, and back down once the session ended"));
        check(end.open_fds <= baseline.open_fds && after_playback.open_fds <= baseline.open_fds,
              QStringLiteral("open descriptors flat, and back down once the session ended"));
    }

    // The recording: every byte received is on disk, and it converts to a playable MP4
    // holding every frame.
    qint64 bytes_received = 0;
    for (const lbm::ChunkRecord& record : session->liveMetrics().records()) {
        bytes_received += record.byte_length;
    }
    const QFileInfo raw(session->recordingPath());
    check(raw.size() >= bytes_received,
          QStringLiteral("recording holds %1 bytes (media chunks %2 + trailer)")
              .arg(raw.size())
              .arg(bytes_received));
    QTemporaryDir out;
    const QString mp4 = out.filePath(QStringLiteral("soak.mp4"));
    const lbm::media::RemuxResult remux = lbm::media::remuxToMp4(raw.filePath(), mp4);
    check(remux.ok && remux.packets_written == session->framesAnnounced() && !remux.input_truncated,
          QStringLiteral("remuxed MP4 holds %1 of %2 frames%3")
              .arg(remux.packets_written)
              .arg(session->framesAnnounced())
              .arg(remux.ok ? QString() : QStringLiteral(": ") + remux.error));

    // The document as File > Save writes it, read back.
    const auto document = window.currentDocument();
    check(document.has_value(), QStringLiteral("the window has a session document"));
    if (document) {
        const QString path = out.filePath(QStringLiteral("soak.json"));
        lbm::report::writeSessionDocument(*document, path);
        const auto back = lbm::report::readSessionDocument(path);
        check(back.sessions.size() == 1 &&
                  static_cast<int>(back.sessions[0].chunks.size()) == chunks &&
                  back.sessions[0].metrics.has_value() && back.monitor && back.monitor->complete,
              QStringLiteral("document reads back complete with %1 chunk rows and metrics (%2 "
                             "bytes)")
                  .arg(back.sessions.empty() ? 0 : back.sessions[0].chunks.size())
                  .arg(QFileInfo(path).size()));
    }
    std::printf("\n%s\n", ok ? "SOAK PASSED" : "SOAK FAILED");
    return ok ? 0 : 1;
}
