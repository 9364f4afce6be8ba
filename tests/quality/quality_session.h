#pragma once
// One real simulator session analysed the way the window and `bench --quality` analyse one:
// on engine::SessionEngine, with its built-in simulator on 127.0.0.1 (the given profile,
// faults and realism), its decoder and its quality worker (every chunk's context built from
// its metadata and the workload before its bytes reach the decoder). Steered sessions press
// their keys through the engine's typed steering call right after a chunk lands.

#include "app/quality/chunk_quality.h"
#include "app/quality/quality_settings.h"
#include "app/sim/realism.h"
#include "metrics/prompt_update.h"
#include "tests/quality/filter_graph_probe.h"

#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lbm::quality::test {

struct QualitySessionSpec {
    QString profile = QStringLiteral("fast");
    QStringList faults; // "seam@6", ...
    sim::Realism realism = sim::Realism::Low;
    int num_chunks = 8;
    std::string camera_pattern = "orbit";
    std::vector<lbm::PromptUpdate> prompt_updates;
    // Steered like the window: no camera script (the server holds still until a camera
    // interaction), and after chunk N arrives the keys are held ("" releases them) by a
    // camera velocity interaction.
    bool steered = false;
    std::vector<std::pair<qint64, QString>> key_presses;
    // A camera script of held keys instead of camera_pattern: from chunk N on the keys are
    // held in every latent frame ("" holds still), until the next entry.
    std::map<qint64, QString> scripted_keys;
    QualitySettings settings;
    // Also run every decoded frame through libavfilter (FilterGraphProbe: signalstats and
    // blurdetect), the second opinion; costs about 10 ms a frame.
    bool second_opinion = false;
};

struct QualitySessionRun {
    bool session_succeeded = false;
    QString session_error;
    qint64 frames_decoded = 0;
    // Steered sessions: each key press's event id and keys, and the chunk whose metadata
    // lists it as started (where the server applied it).
    struct KeyPress {
        QString event_id;
        QString keys;
        qint64 after_chunk = 0;
        std::optional<qint64> started_chunk;
        double sent_s = 0.0;
    };
    std::vector<KeyPress> key_presses;
    std::map<qint64, double> arrival_s; // by generation index
    // Final results in generation order, each reported exactly once.
    std::vector<ChunkQuality> chunks;
    int duplicate_reports = 0;
    QStringList warnings;
    // With second_opinion: libavfilter's measures of every frame, by generation index.
    std::map<qint64, std::vector<FilterGraphProbe::Measures>> probe_frames;

    // The chunks with this flag, in order.
    std::vector<qint64> flagged(QualityFlag flag) const;
    // The first chunk with any flag, or -1.
    qint64 firstFlaggedChunk() const;
    // "chunk 6: seam (Seam score ...)" lines for every flagged chunk, for failure messages.
    QString describeFlags() const;
    // One line of signals per chunk, for failure messages and calibration.
    QString describeChunks() const;
};

QualitySessionRun runQualitySession(const QualitySessionSpec& spec, int timeout_ms = 60000);

lbm::PromptUpdate promptUpdate(int after_chunk, const std::string& prompt, int transition_chunks);

} // namespace lbm::quality::test
