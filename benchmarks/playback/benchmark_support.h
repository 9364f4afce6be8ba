#pragma once
// What both playback benchmarks measure with: the seed's interpolated percentile (the same
// definition every report in this project uses) and the process's CPU time.

#include "metrics/latency_summary.h"

#include <sys/resource.h>
#include <vector>

namespace lbm::bench {

// lbm::percentile, with 0 for an empty sample instead of the seed's error.
inline double percentileOf(std::vector<double> values, double fraction) {
    return values.empty() ? 0.0 : lbm::percentile(std::move(values), fraction);
}

// User + system CPU seconds of this process so far.
inline double cpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

} // namespace lbm::bench
