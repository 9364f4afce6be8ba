// `bench` against the real vLLM-Omni handler: ../shared/upstream-server/upstream_server.py
// serves the genuine handler (from $UPSTREAM_SRC) with a fake engine on 127.0.0.1, and the
// saved video is checked frame by frame (scripts/check_upstream_video.py). Hidden ([.upstream]):
// the ctest entry lbm_upstream_handler_tests runs it, and reports it skipped (not failed) when
// UPSTREAM_SRC is not set. $UPSTREAM_HARNESS names the harness directory when it is not
// beside the project.

#include "app/report/session_document.h"

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <catch2/catch.hpp>

using namespace lbm;

namespace {

QString harnessDir() {
    const QString configured = qEnvironmentVariable("UPSTREAM_HARNESS");
    return configured.isEmpty() ? QStringLiteral(LBM_SOURCE_DIR "/../shared/upstream-server")
                                : configured;
}

// The Debian packages of the Python modules the harness and check_upstream_video.py import
// that /usr/bin/python3 cannot find, space-separated; empty when all are there.
QString missingPythonPackages() {
    static const char* const kProbe =
        "import importlib.util\n"
        "packages = {'fastapi': 'python3-fastapi', 'uvicorn': 'python3-uvicorn',\n"
        "            'httpx': 'python3-httpx', 'torch': 'python3-torch', 'av': 'python3-av',\n"
        "            'numpy': 'python3-numpy', 'PIL': 'python3-pil', 'wsproto': "
        "'python3-wsproto'}\n"
        "print(' '.join(p for m, p in packages.items() if importlib.util.find_spec(m) is None))\n";
    QProcess probe;
    probe.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QLatin1String(kProbe)});
    if (!probe.waitForFinished(60000) || probe.exitCode() != 0) {
        return QStringLiteral("python3 (/usr/bin/python3 did not run)");
    }
    return QString::fromUtf8(probe.readAllStandardOutput()).trimmed();
}

// The harness process, listening once constructed (ready() says whether it came up).
class Harness {
public:
    Harness() {
        if (!QFileInfo::exists(harnessDir() + QStringLiteral("/upstream_server.py"))) {
            m_output = QStringLiteral("No upstream_server.py in %1: set UPSTREAM_HARNESS to the "
                                      "directory that holds it (../shared/upstream-server).")
                           .arg(harnessDir());
            return;
        }
        if (const QString missing = missingPythonPackages(); !missing.isEmpty()) {
            m_output = QStringLiteral("The harness needs Debian's %1; install them with "
                                      "`bash scripts/install_packages.sh %1` (pydantic 2, which "
                                      "Debian does not package, comes from a Python 3.11 "
                                      "site-packages: docs/upstream-conformance.md).")
                           .arg(missing);
            return;
        }
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start(QStringLiteral("/usr/bin/python3"),
                        {harnessDir() + QStringLiteral("/upstream_server.py"),
                         QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--profile"),
                         QStringLiteral("0.3:0.5")});
        QEventLoop loop;
        QObject::connect(&m_process, &QProcess::readyReadStandardOutput, &loop, [&] {
            m_output += QString::fromUtf8(m_process.readAllStandardOutput());
            if (m_output.contains(QLatin1Char('\n'))) {
                loop.quit();
            }
        });
        QObject::connect(&m_process, &QProcess::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(90000, &loop, &QEventLoop::quit);
        loop.exec();
        if (m_output.startsWith(QStringLiteral("READY port "))) {
            m_port = m_output.section(QLatin1Char(' '), 2, 2).trimmed().toInt();
        }
    }
    ~Harness() {
        m_process.terminate();
        if (!m_process.waitForFinished(10000)) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }
    bool ready() const { return m_port > 0; }
    QString why() { return m_output + QString::fromUtf8(m_process.readAllStandardError()); }
    QString baseUrl() const { return QStringLiteral("ws://127.0.0.1:%1").arg(m_port); }

private:
    QProcess m_process;
    QString m_output;
    int m_port = 0;
};

struct Run {
    int exit_code = -1;
    QString out;
    QString err;
};

Run runProgram(const QString& program, const QStringList& arguments) {
    QProcess process;
    process.start(program, arguments);
    Run run;
    if (process.waitForFinished(300000)) {
        run.exit_code = process.exitCode();
    } else {
        process.kill();
        process.waitForFinished();
    }
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

Run bench(const QStringList& arguments) {
    return runProgram(QStringLiteral(LBM_BINARY_DIR "/lingbot-monitor"),
                      QStringList{QStringLiteral("bench")} + arguments);
}

// scripts/check_upstream_video.py decodes the file with PyAV and reads the frame number the
// harness drew into every frame.
void requireEveryFrame(const QString& video, int frames) {
    const Run check = runProgram(QStringLiteral("/usr/bin/python3"),
                                 {QStringLiteral(LBM_SOURCE_DIR "/scripts/check_upstream_video.py"),
                                  video, QStringLiteral("--expect"), QString::number(frames)});
    INFO(check.out.toStdString() << check.err.toStdString());
    const QJsonObject result = QJsonDocument::fromJson(check.out.toUtf8()).object();
    CHECK(result.value(QStringLiteral("decoded_frames")).toInt() == frames);
    CHECK(result.value(QStringLiteral("barcodes_in_order")).toBool());
    CHECK(check.exit_code == 0);
}

bool skipWithoutUpstream() {
    if (qEnvironmentVariableIsEmpty("UPSTREAM_SRC")) {
        WARN("UPSTREAM_SRC is not set: the real-handler tests are skipped.");
        return true;
    }
    return false;
}

} // namespace

TEST_CASE("bench completes a one-chunk session against the real handler", "[.upstream]") {
    if (skipWithoutUpstream()) {
        return;
    }
    Harness harness;
    INFO(harness.why().toStdString());
    REQUIRE(harness.ready());
    QTemporaryDir dir;
    const QString video = dir.filePath(QStringLiteral("one.mp4"));
    const QString json = dir.filePath(QStringLiteral("one.json"));
    const Run run =
        bench({QStringLiteral("--base-url"), harness.baseUrl(), QStringLiteral("--num-chunks"),
               QStringLiteral("1"), QStringLiteral("--save-video"), video,
               QStringLiteral("--output-json"), json});
    INFO(run.out.toStdString() << run.err.toStdString());
    REQUIRE(run.exit_code == 0);
    const report::SessionDocument document = report::readSessionDocument(json);
    const QJsonObject extras = document.sessions.at(0).monitor_extras;
    CHECK(extras.value(QStringLiteral("chunks_numbered_by_position")).toArray() == QJsonArray{0});
    CHECK(extras.value(QStringLiteral("frames_decoded")).toInt() == 9);
    requireEveryFrame(video, 9);
}

TEST_CASE("bench completes a 16-chunk orbit session with a hard cut, a superseded transition "
          "and a third prompt against the real handler",
          "[.upstream]") {
    if (skipWithoutUpstream()) {
        return;
    }
    Harness harness;
    INFO(harness.why().toStdString());
    REQUIRE(harness.ready());
    QTemporaryDir dir;
    const QString video = dir.filePath(QStringLiteral("orbit.mp4"));
    const QString json = dir.filePath(QStringLiteral("orbit.json"));
    const Run run =
        bench({QStringLiteral("--base-url"), harness.baseUrl(), QStringLiteral("--num-chunks"),
               QStringLiteral("16"), QStringLiteral("--camera-pattern"), QStringLiteral("orbit"),
               QStringLiteral("--prompt-update"), QStringLiteral("2:0:A snowy street"),
               QStringLiteral("--prompt-update"), QStringLiteral("5:3:A desert road"),
               QStringLiteral("--prompt-update"), QStringLiteral("6:2:A forest at night"),
               QStringLiteral("--timeline"), QStringLiteral("--save-video"), video,
               QStringLiteral("--output-json"), json});
    INFO(run.out.toStdString() << run.err.toStdString());
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.contains(QStringLiteral("chunk-2  scheduled-prompt A snowy street")));
    CHECK(run.out.contains(QStringLiteral("superseded by chunk-6 at chunk ")));
    const report::SessionDocument document = report::readSessionDocument(json);
    const QJsonObject extras = document.sessions.at(0).monitor_extras;
    CHECK(extras.value(QStringLiteral("frames_decoded")).toInt() == 189);
    const QJsonArray interactions = extras.value(QStringLiteral("interactions")).toArray();
    REQUIRE(interactions.size() == 3);
    CHECK(interactions.at(0).toObject().value(QStringLiteral("state")) ==
          QStringLiteral("completed"));
    CHECK(interactions.at(1).toObject().value(QStringLiteral("state")) ==
          QStringLiteral("superseded"));
    CHECK(interactions.at(2).toObject().value(QStringLiteral("state")) ==
          QStringLiteral("completed"));
    requireEveryFrame(video, 189);
}
