#pragma once
// A real session kept the way the window keeps one, for the quality widgets' tests and
// screenshots: the built-in simulator on 127.0.0.1 with visual faults and prompt transitions,
// run by the session engine with the session keeper (a folder with stream.m4s and
// session.json under a root of the test's own), then the recording analysed frame by frame
// by the quality analysis, with each chunk's context built from the chunk's interaction ids
// as the engine saw them, and the result stored in the document under
// sessions[0].lingbot_monitor.quality, as a window session will have it.

#include "app/quality/chunk_quality.h"
#include "metrics/prompt_update.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace lbm::ui::test {

struct KeptSessionSpec {
    QString profile = QStringLiteral("fast");
    QStringList faults; // "seam@6", ...
    int num_chunks = 24;
    std::string camera_pattern = "orbit";
    std::vector<lbm::PromptUpdate> prompt_updates;
};

struct KeptSession {
    QString folder;
    QString document_path;
    QString recording_path;
    QString request_id;
    std::vector<int> chunk_frames; // frames per chunk, generation order
    std::vector<quality::ChunkQuality> quality;
    QJsonArray interactions; // the document's interaction timeline
    QJsonObject workload;    // the document's workload block
    QStringList warnings;    // the analysis's
};

// Runs spec under root (REQUIREs that it succeeds). Takes a few seconds on the fast profile.
KeptSession runKeptSession(const KeptSessionSpec& spec, const QString& root);

// The acceptance scenario: 24 chunks, orbit camera, a K=3 prompt after chunk 0 and a
// K=1 prompt after chunk 6, with seam@6 freeze@10 blur@14 tint@18 (tests/quality's).
KeptSessionSpec acceptanceSpec();
// 16 chunks under the orbit camera with one prompt after chunk 3 over transition_chunks, no
// faults: for comparing transition lengths side by side.
KeptSessionSpec transitionSpec(int transition_chunks);
// The acceptance session. Under ctest, the cases tagged [kept-acceptance] read the one the
// fixture case "[.keep-acceptance]" (keepAcceptanceSession) ran before them with this build,
// from kept-sessions/ beside the executable: one simulator session instead of one per case.
// Anywhere else (a case run by hand after the fixture's cleanup removed the folder, or a
// folder an older build left) it runs once per process and is kept until it exits.
const KeptSession& acceptanceSession();
// Runs the acceptance session into kept-sessions/acceptance (emptied first) and writes, last,
// the index acceptanceSession() looks for there.
void keepAcceptanceSession();

lbm::PromptUpdate promptUpdate(int after_chunk, const std::string& prompt, int transition_chunks);

} // namespace lbm::ui::test
