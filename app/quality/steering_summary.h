#pragma once
// The steering numbers of a whole session, kept as chunk results come: every command's
// response (the last one, p50 and p95 in milliseconds and in chunks) and the share of frames
// that followed the command in force. The report, `bench --quality` and the window's counters
// read the same numbers from it.

#include "app/quality/chunk_quality.h"

#include <QString>

#include <optional>
#include <vector>

namespace lbm::quality {

class SteeringSummary {
public:
    // A chunk's result (in any order; a chunk given twice counts twice, so give each once).
    void add(const ChunkQuality& chunk);
    void clear() { *this = SteeringSummary{}; }

    const std::vector<SteeringResponse>& responses() const { return m_responses; }
    // The newest response by its chunk and frame.
    std::optional<SteeringResponse> last() const;
    // Linear-interpolated percentile (0..100) of the responses' milliseconds / chunks.
    std::optional<double> percentileMs(double percentile) const;
    std::optional<double> percentileChunks(double percentile) const;
    // Frames that followed a moving command over all frames judged against one.
    std::optional<double> followingShare() const;
    int chunksOffCommand() const { return m_action_chunks; }

    // "last 312 ms (1 chunk) · p50 290 ms · p95 410 ms · 8 keys", or "none yet".
    QString summaryText() const;

private:
    std::vector<SteeringResponse> m_responses;
    double m_followed_frames = 0.0;
    double m_judged_frames = 0.0;
    int m_action_chunks = 0;
};

// The percentile of values by linear interpolation between closest ranks (numpy's default);
// nullopt when empty.
std::optional<double> interpolatedPercentile(std::vector<double> values, double percentile);

} // namespace lbm::quality
