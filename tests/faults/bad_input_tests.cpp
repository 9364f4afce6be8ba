// Bad user input: what a person can get wrong on the command line or in the form, and what
// they are told. Each case checks the message names the problem and the fix, the exit code
// is the benchmark's (argument errors 2, run failures 1), and nothing already recorded is
// lost. bench runs as the real executable; the form is driven where the same input exists.

#include "app/media/remux.h"
#include "app/report/session_document.h"
#include "fault_support.h"
#include "tests/session/scripted_server.h"
#include "ui/session_form.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

using namespace faults;

namespace {

// The seed's own workload error cases (tests/data/golden), and what it says for each.
std::vector<std::pair<QJsonObject, QString>> seedWorkloadErrors() {
    QFile file(QStringLiteral(LBM_TEST_DATA_DIR "/golden/seed_cases.json"));
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QJsonArray cases = QJsonDocument::fromJson(file.readAll())
                                 .object()
                                 .value(QStringLiteral("workload"))
                                 .toArray();
    std::vector<std::pair<QJsonObject, QString>> out;
    for (const QJsonValue& value : cases) {
        const QJsonObject entry = value.toObject();
        if (entry.contains(QStringLiteral("error"))) {
            out.emplace_back(entry.value(QStringLiteral("document")).toObject(),
                             entry.value(QStringLiteral("error")).toString());
        }
    }
    return out;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    return path;
}

QStringList unreachable() {
    return {QStringLiteral("--port"),          QString::number(unusedPort()),
            QStringLiteral("--num-chunks"),    QStringLiteral("4"),
            QStringLiteral("--warmup-chunks"), QStringLiteral("1")};
}

// A run failure before anything connects: exit 1, one ERROR line, no "Connecting to".
void requireRefusedBeforeConnecting(const BenchRun& run, const QStringList& parts) {
    INFO("stderr: " << run.err.toStdString());
    REQUIRE_FALSE(run.crashed);
    REQUIRE(run.exit_code == 1);
    const QString line = lastLine(run.err);
    REQUIRE(line.startsWith(QStringLiteral("ERROR: ")));
    for (const QString& part : parts) {
        REQUIRE(line.contains(part));
    }
    REQUIRE_FALSE(run.out.contains(QStringLiteral("Connecting to")));
}

ScriptedServer::Script realStream() {
    ScriptedServer::Script script;
    script.chunks = kChunks;
    script.real_video = true;
    return script;
}

QStringList against(const ScriptedServer& server) {
    return {QStringLiteral("--port"),          QString::number(server.url().port()),
            QStringLiteral("--num-chunks"),    QString::number(kChunks),
            QStringLiteral("--warmup-chunks"), QStringLiteral("1"),
            QStringLiteral("--ping-interval"), QStringLiteral("0")};
}

} // namespace

TEST_CASE("bench refuses every workload-file error the seed raises, in the seed's words",
          "[faults][input][workload]") {
    QTemporaryDir dir;
    std::vector<std::pair<QString, QString>> cases; // path, message
    for (const auto& [document, message] : seedWorkloadErrors()) {
        const QString path = writeFile(dir, QStringLiteral("w%1.json").arg(cases.size()),
                                       QJsonDocument(document).toJson());
        cases.emplace_back(path, message);
    }
    REQUIRE(cases.size() >= 10);
    const QString missing = dir.filePath(QStringLiteral("missing.json"));
    cases.emplace_back(missing, QStringLiteral("Cannot read the workload file %1: No such file or "
                                               "directory. Check the --workload path.")
                                    .arg(missing));
    const QString broken =
        writeFile(dir, QStringLiteral("broken.json"), QByteArrayLiteral("{\"num_chunks\": 2,"));
    cases.emplace_back(broken,
                       QStringLiteral("The workload file %1 is not valid JSON: ").arg(broken));
    const QString array = writeFile(dir, QStringLiteral("array.json"), QByteArrayLiteral("[1, 2]"));
    cases.emplace_back(array, QStringLiteral("A workload file must contain a JSON object."));

    for (const auto& [path, message] : cases) {
        INFO(path.toStdString());
        const BenchRun run =
            runBench(unreachable() + QStringList{QStringLiteral("--workload"), path});
        requireRefusedBeforeConnecting(run, {message});
        REQUIRE(lastLine(run.err).startsWith(QStringLiteral("ERROR: ") + message));
    }
}

TEST_CASE("the form refuses the same workload files with the same words", "[faults][input][form]") {
    QTemporaryDir dir;
    int n = 0;
    for (const auto& [document, message] : seedWorkloadErrors()) {
        const QString path =
            writeFile(dir, QStringLiteral("w%1.json").arg(n++), QJsonDocument(document).toJson());
        lbm::ui::SessionForm form;
        const QString prompt_before = form.prompt();
        INFO(path.toStdString());
        REQUIRE_THROWS_WITH(form.loadWorkloadFile(path), message.toStdString());
        // A refused file changes nothing: the form still starts the previous rollout.
        REQUIRE(form.workloadFile().isEmpty());
        REQUIRE(form.prompt() == prompt_before);
        REQUIRE(form.validate().isEmpty());
    }
}

TEST_CASE("an unreadable or oversized first frame is refused before connecting",
          "[faults][input][image]") {
    QTemporaryDir dir;
    const QString garbage =
        writeFile(dir, QStringLiteral("garbage.png"), QByteArrayLiteral("this is not a PNG"));
    const QString huge = dir.filePath(QStringLiteral("huge.png"));
    {
        QImage image(4100, 16, QImage::Format_RGB32);
        image.fill(Qt::gray);
        REQUIRE(image.save(huge));
    }
    const QString missing = dir.filePath(QStringLiteral("missing.png"));
    const std::vector<std::pair<QString, QStringList>> cases = {
        {garbage,
         {QStringLiteral("The first frame %1 is not an image this program can read").arg(garbage),
          QStringLiteral("use a PNG or JPEG file.")}},
        {huge,
         {QStringLiteral("The first frame %1 is 4100x16; the server accepts at most 4096x4096. "
                         "Scale it down")
              .arg(huge)}},
        {missing, {QStringLiteral("--image is neither a URL nor a readable file: ") + missing}},
        {dir.path(),
         {QStringLiteral("--image is neither a URL nor a readable file: ") + dir.path()}},
    };
    for (const auto& [image, parts] : cases) {
        INFO(image.toStdString());
        requireRefusedBeforeConnecting(
            runBench(unreachable() + QStringList{QStringLiteral("--image"), image}), parts);

        // The form marks the same file before Start.
        lbm::ui::SessionForm form;
        form.setImagePath(image);
        const QString reason = form.validate();
        INFO("form: " << reason.toStdString());
        for (const QString& part : parts) {
            REQUIRE(reason.contains(part));
        }
    }
}

TEST_CASE("a width or height that is not a multiple of 16 is refused before connecting",
          "[faults][input]") {
    for (const QString& flag : {QStringLiteral("--width"), QStringLiteral("--height")}) {
        INFO(flag.toStdString());
        requireRefusedBeforeConnecting(
            runBench(unreachable() + QStringList{flag, QStringLiteral("830")}),
            {QStringLiteral("Workload width/height must be positive multiples of 16.")});
    }
}

TEST_CASE("a simulator fault past the session's last chunk is refused before connecting",
          "[faults][input]") {
    // The run would otherwise look clean although a fault was asked for.
    requireRefusedBeforeConnecting(
        runBench({QStringLiteral("--simulate"), QStringLiteral("fast"),
                  QStringLiteral("--num-chunks"), QStringLiteral("3"), QStringLiteral("--fault"),
                  QStringLiteral("stall@1"), QStringLiteral("--fault"), QStringLiteral("blur@3")}),
        {QStringLiteral("The fault blur@3 never fires in a 3-chunk session: give it a chunk "
                        "from 0 to 2, or run more chunks.")});
}

TEST_CASE("an unreachable URL fails with the reason and the fix", "[faults][input]") {
    const quint16 port = unusedPort();
    const BenchRun run =
        runBench({QStringLiteral("--base-url"), QStringLiteral("http://127.0.0.1:%1").arg(port),
                  QStringLiteral("--num-chunks"), QStringLiteral("4")});
    INFO(run.err.toStdString());
    REQUIRE(run.exit_code == 1);
    REQUIRE(lastLine(run.err) ==
            QStringLiteral("ERROR: Could not connect to ws://127.0.0.1:%1/v1/realtime/video: "
                           "Connection refused. Nothing is listening there: start the server, or "
                           "fix --host/--port (or --base-url).")
                .arg(port));
}

TEST_CASE("a wss:// server with a self-signed certificate: refused with the fix, accepted with "
          "--insecure",
          "[faults][input][tls]") {
    QString problem;
    const auto tls = selfSignedServerTls(&problem);
    INFO(problem.toStdString());
    REQUIRE(tls.has_value());
    for (const bool insecure : {false, true}) {
        ScriptedServer::Script script = realStream();
        script.tls = tls;
        ScriptedServer server(script);
        QStringList arguments{QStringLiteral("--base-url"),      server.url().toString(),
                              QStringLiteral("--num-chunks"),    QString::number(kChunks),
                              QStringLiteral("--warmup-chunks"), QStringLiteral("1")};
        if (insecure) {
            arguments.append(QStringLiteral("--insecure"));
        }
        const BenchRun run = runBench(arguments);
        INFO(run.err.toStdString());
        REQUIRE_FALSE(run.crashed);
        if (!insecure) {
            REQUIRE(run.exit_code == 1);
            const QString line = lastLine(run.err);
            REQUIRE(line.startsWith(QStringLiteral("ERROR: TLS handshake with ")));
            REQUIRE(line.contains(QStringLiteral("self-signed")));
            REQUIRE(line.contains(QStringLiteral("install its CA or pass --insecure")));
        } else {
            REQUIRE(run.exit_code == 0);
            REQUIRE(run.err.contains(
                QStringLiteral("WARNING: --insecure: TLS certificate verification is OFF for %1")
                    .arg(server.url().toString())));
        }
    }
}

// Root (CI) writes through chmod, so "cannot write there" is made honestly: the output's
// parent is a regular file, which no user can create entries in.
TEST_CASE("an output under a path that is not a directory is refused before connecting",
          "[faults][input][output]") {
    QTemporaryDir dir;
    const QString not_a_dir = writeFile(dir, QStringLiteral("plain-file"), QByteArrayLiteral("x"));
    for (const QString& flag : {QStringLiteral("--output-json"), QStringLiteral("--csv"),
                                QStringLiteral("--save-raw"), QStringLiteral("--save-video")}) {
        INFO(flag.toStdString());
        const QString target = not_a_dir + QStringLiteral("/out.file");
        requireRefusedBeforeConnecting(
            runBench(unreachable() + QStringList{flag, target}),
            {flag + QLatin1Char(' ') + target, QStringLiteral("is not a directory"),
             QStringLiteral("choose a path in a directory you can write to")});
    }
    const BenchRun run =
        runBench(unreachable() + QStringList{QStringLiteral("--output-json"), dir.path()});
    requireRefusedBeforeConnecting(run, {QStringLiteral("is a directory; give a file path")});
    const QString missing_dir = dir.filePath(QStringLiteral("no/such/dir"));
    requireRefusedBeforeConnecting(
        runBench(unreachable() +
                 QStringList{QStringLiteral("--csv"), missing_dir + QStringLiteral("/run.csv")}),
        {QStringLiteral("the directory %1 does not exist; create it or choose another path.")
             .arg(missing_dir)});
}

namespace {

struct FullDiskRun {
    bool mounted = false;
    BenchRun run;
    QString small; // where the tmpfs was mounted (gone after the run)
    QString copy;  // what the tmpfs held when bench ended, copied out
};

// Runs bench with a small tmpfs mounted at OUT/small in a private mount namespace
// (`unshare -rm`, so nothing outside this run sees it). fill: the tmpfs is filled with a
// file before bench starts. The tmpfs's content is copied to OUT/copy before it vanishes.
FullDiskRun benchOnSmallDisk(const QTemporaryDir& out, qint64 size_bytes, bool fill,
                             const QStringList& arguments) {
    FullDiskRun result;
    result.small = out.filePath(QStringLiteral("small"));
    result.copy = out.filePath(QStringLiteral("copy"));
    QDir().mkpath(result.small);
    QDir().mkpath(result.copy);
    const QString script =
        QStringLiteral("mount -t tmpfs -o size=\"$1\" tmpfs \"$2\" || exit 90\n"
                       "if [ \"$3\" = fill ]; then cat /dev/zero > \"$2/filler\" 2>/dev/null; fi\n"
                       "small=$2; copy=$4; shift 4\n"
                       "\"$@\"; rc=$?\n"
                       "rm -f \"$small/filler\"; cp -a \"$small/.\" \"$copy/\"\n"
                       "exit $rc\n");
    const QStringList unshare_arguments =
        QStringList{QStringLiteral("-rm"),
                    QStringLiteral("sh"),
                    QStringLiteral("-c"),
                    script,
                    QStringLiteral("sh"),
                    QString::number(size_bytes),
                    result.small,
                    fill ? QStringLiteral("fill") : QStringLiteral("nofill"),
                    result.copy,
                    QStringLiteral(LBM_BINARY_DIR "/lingbot-monitor"),
                    QStringLiteral("bench")} +
        arguments;
    result.run = runBench(unshare_arguments, 60.0, QStringLiteral("unshare"));
    result.mounted = result.run.exit_code != 90 && !result.run.crashed;
    return result;
}

bool canMountTmpfs() {
    const BenchRun probe =
        runBench({QStringLiteral("-rm"), QStringLiteral("sh"), QStringLiteral("-c"),
                  QStringLiteral("d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs \"$d\"; r=$?; "
                                 "umount \"$d\" 2>/dev/null; rmdir \"$d\"; exit $r")},
                 20.0, QStringLiteral("unshare"));
    return !probe.crashed && probe.exit_code == 0;
}

} // namespace

TEST_CASE("a full disk: the failing output is named and nothing already recorded is lost",
          "[faults][input][disk]") {
    if (!canMountTmpfs()) {
        WARN("SKIPPED: 'unshare -rm' + a tmpfs mount is not permitted here, so no full disk");
        return;
    }
    SECTION("JSON and CSV on a full disk: both fail, the raw recording on another disk plays") {
        ScriptedServer server(realStream());
        QTemporaryDir out;
        const QString raw = out.filePath(QStringLiteral("run.m4s"));
        const FullDiskRun disk = benchOnSmallDisk(
            out, 64 * 1024, true,
            against(server) + QStringList{QStringLiteral("--output-json"),
                                          out.filePath(QStringLiteral("small/run.json")),
                                          QStringLiteral("--csv"),
                                          out.filePath(QStringLiteral("small/run.csv")),
                                          QStringLiteral("--save-raw"), raw});
        INFO("stderr: " << disk.run.err.toStdString());
        REQUIRE(disk.mounted);
        REQUIRE(disk.run.exit_code == 1);
        // The session itself succeeded: its report is printed before the outputs fail.
        REQUIRE(disk.run.out.contains(QStringLiteral("Cadence")));
        REQUIRE(disk.run.err.contains(QStringLiteral("ERROR: Cannot write %1: No space left on "
                                                     "device.")
                                          .arg(out.filePath(QStringLiteral("small/run.json")))));
        REQUIRE(disk.run.err.contains(QStringLiteral("ERROR: Cannot write %1: No space left on "
                                                     "device.")
                                          .arg(out.filePath(QStringLiteral("small/run.csv")))));
        // No half-written or temporary files are left on the full disk.
        REQUIRE(QDir(disk.copy).entryList(QDir::Files | QDir::Hidden).isEmpty());
        QTemporaryDir check;
        const lbm::media::RemuxResult remux =
            lbm::media::remuxToMp4(raw, check.filePath(QStringLiteral("r.mp4")));
        REQUIRE(remux.ok);
        REQUIRE(remux.packets_written == kFramesInStream);
    }
    SECTION("the raw recording fills the disk: named, the partial .m4s stays and plays, the "
            "document on another disk is written") {
        ScriptedServer server(realStream());
        QTemporaryDir out;
        const TestStream& stream = testStream();
        // Room for the first chunk and a part of the second (tmpfs counts whole pages).
        const qint64 room =
            ((stream.chunks[0].size() + stream.chunks[1].size() / 2) / 4096 + 1) * 4096;
        REQUIRE(room < stream.chunks[0].size() + stream.chunks[1].size());
        const QString json = out.filePath(QStringLiteral("run.json"));
        const QString raw = out.filePath(QStringLiteral("small/run.m4s"));
        const FullDiskRun disk =
            benchOnSmallDisk(out, room, false,
                             against(server) + QStringList{QStringLiteral("--output-json"), json,
                                                           QStringLiteral("--save-raw"), raw});
        INFO("stderr: " << disk.run.err.toStdString());
        REQUIRE(disk.mounted);
        REQUIRE(disk.run.exit_code == 1);
        const QString message =
            QStringLiteral("Cannot write to the recording %1 after %2 bytes: No space left on "
                           "device; free some disk space or record to another disk.")
                .arg(raw)
                .arg(stream.chunks[0].size());
        REQUIRE(disk.run.err.contains(QStringLiteral("WARNING: ") + message));
        REQUIRE(lastLine(disk.run.err) == QStringLiteral("ERROR: ") + message);
        const lbm::report::SessionDocument document = lbm::report::readSessionDocument(json);
        REQUIRE(document.sessions.at(0).chunks.size() == static_cast<std::size_t>(kChunks));
        const QString kept = disk.copy + QStringLiteral("/run.m4s");
        REQUIRE(QFileInfo(kept).size() >= stream.chunks[0].size());
        QTemporaryDir check;
        const lbm::media::RemuxResult remux =
            lbm::media::remuxToMp4(kept, check.filePath(QStringLiteral("r.mp4")));
        INFO(remux.error.toStdString());
        REQUIRE(remux.ok);
        REQUIRE(remux.packets_written >= playableFrames(1));
    }
}
