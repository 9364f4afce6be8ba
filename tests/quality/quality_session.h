#pragma once
// One real simulator session analysed as the window and `bench --quality` analyse theirs: on
// the SessionEngine, with the built-in server on 127.0.0.1 (the given profile and faults) and
// the engine's own quality analysis (every chunk's context from its metadata before its
// bytes reach the decoder, each decoded frame to the analysis worker in stream order).

#include "app/quality/chunk_quality.h"
#include "app/quality/quality_settings.h"
#include "metrics/prompt_update.h"

#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace lbm::quality::test {

struct QualitySessionSpec {
    QString profile = QStringLiteral("fast");
    QStringList faults; // "seam@6", ...
    int num_chunks = 8;
    std::string camera_pattern = "orbit";
    std::vector<lbm::PromptUpdate> prompt_updates;
    QualitySettings settings;
};

struct QualitySessionRun {
    bool session_succeeded = false;
    QString session_error;
    qint64 frames_decoded = 0;
    // Final results in generation order, each reported exactly once.
    std::vector<ChunkQuality> chunks;
    int duplicate_reports = 0;
    QStringList warnings;

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
