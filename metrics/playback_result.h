#pragma once
// What a viewer would have seen, given a start buffer and a playback rate (seed:
// PlaybackResult).

#include <cstdint>
#include <optional>

namespace lbm {

struct PlaybackResult {
    int underrun_count = 0;
    double total_stall_s = 0.0;
    double playback_span_s = 0.0;
    std::optional<std::int64_t> first_underrun_chunk;

    double totalStallMs() const { return total_stall_s * 1000.0; }
    // to_dict()'s stall_ratio: 0 when the span is not positive.
    double stallRatio() const {
        return playback_span_s > 0 ? total_stall_s / playback_span_s : 0.0;
    }
};

} // namespace lbm
