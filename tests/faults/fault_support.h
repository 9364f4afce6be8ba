#pragma once
// What the fault matrix and the bad-input tests share: the real `lingbot-monitor bench` run
// as a process while this process's event loop keeps the test servers answering, the
// session engine run in-process the way the window runs it (presenting through the playback
// feed and clock), one real fMP4 stream
// for the hand-written servers, and a self-signed certificate made at test time.

#include "app/media/remux.h"
#include "app/session/session_result.h"
#include "metrics/chunk_record.h"

#include <QByteArray>
#include <QSslConfiguration>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>
#include <vector>

namespace faults {

inline constexpr int kChunks = 4;
inline constexpr int kFramesInStream = 45; // 9 + 3 x 12: num_frames for 4 chunks

// Frames a raw recording of the first `chunks` media chunks (no trailer) must play: each
// chunk's last frame travels with the next chunk (the muxer's one-frame lag).
inline qint64 playableFrames(int chunks) {
    return chunks <= 0 ? 0 : 9 + 12 * (chunks - 1) - 1;
}

struct BenchRun {
    bool crashed = false; // killed by a signal, or still running at the cap
    int exit_code = -1;
    QString out;
    QString err;
    double elapsed_s = 0.0;
};

// Runs `lingbot-monitor bench ARGS` (or `program ARGS` when program is given), pumping this
// process's events so in-process servers answer. Killed after cap_s.
BenchRun runBench(const QStringList& arguments, double cap_s = 60.0,
                  const QString& program = QString());
// The last non-empty line of a process's output.
QString lastLine(const QString& text);

struct GuiRun {
    bool started = false;
    QString start_error;
    bool finished = false; // finished() arrived before the cap
    lbm::session::SessionResult result;
    std::vector<lbm::ChunkRecord> records; // the engine's live metrics' records
    QStringList problems;                  // its warnings, decoder and recording problems
    qint64 recording_bytes = -1;           // the .m4s on disk when the session ended
    std::optional<lbm::media::RemuxResult> remux;
    double elapsed_s = 0.0;
};

struct GuiOptions {
    QUrl url;
    bool insecure = false;
    double first_chunk_timeout_s = 4.0;
    double chunk_timeout_s = 1.0;
    double ping_interval_s = 0.3;
    double cap_s = 60.0;
    int width = 832; // the picture the session asks for
    int height = 480;
};

// One session through the session engine against opts.url (never its own simulator).
GuiRun runGuiEngine(const GuiOptions& options);

// The same four media chunks and trailer every time (barcoded frames 0..44, 832x480).
struct TestStream {
    std::vector<QByteArray> chunks;
    QByteArray trailer;
};
const TestStream& testStream();

// A server configuration with a fresh self-signed certificate for 127.0.0.1 (openssl CLI).
// Empty optional with the reason when openssl is missing or failed.
std::optional<QSslConfiguration> selfSignedServerTls(QString* problem);

// A 127.0.0.1 port nothing listens on (bound once, then released).
quint16 unusedPort();

} // namespace faults
