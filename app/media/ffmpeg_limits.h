#pragma once
// The process-wide cap on FFmpeg's single allocations, set before any demuxer reads
// server-supplied bytes (the decoder, the remuxer).
//
// libavformat sizes some tables from counts in the stream before reading what they count: a
// fuzzed trun claiming 83,886,080 samples made the mov demuxer allocate 2.8 GB for its index.
// No single allocation for this stream needs more than a few MiB (an 832x480 frame is
// ~600 KiB, an hour's index ~1.4 MiB), so larger ones fail and the demuxer reports an error.
// Process-wide (FFmpeg has no per-context limit); it only lowers FFmpeg's INT_MAX default.

extern "C" {
#include <libavutil/mem.h>
}

#include <cstddef>
#include <mutex>

namespace lbm::media {

inline constexpr std::size_t kMaxFfmpegAllocationBytes = std::size_t(64) * 1024 * 1024;

inline void limitFfmpegAllocations() {
    static std::once_flag limit_set;
    std::call_once(limit_set, [] { av_max_alloc(kMaxFfmpegAllocationBytes); });
}

} // namespace lbm::media
