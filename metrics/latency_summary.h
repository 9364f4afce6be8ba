#pragma once
// Percentiles and the millisecond summary of inter-arrival intervals (seed: percentile,
// _stddev, _latency_summary).

#include <optional>
#include <vector>

namespace lbm {

// Linearly interpolated percentile; throws MetricError on empty input or fraction outside
// [0, 1], with the seed's text.
double percentile(std::vector<double> values, double fraction);
// Sample standard deviation (n - 1); 0 below two values.
double sampleStddev(const std::vector<double>& values);

struct LatencySummary {
    double count = 0; // a float in the seed ("count": 34.0)
    double mean_ms = 0;
    double median_ms = 0;
    double std_ms = 0;
    double min_ms = 0;
    double p90_ms = 0;
    double p95_ms = 0;
    double p99_ms = 0;
    double max_ms = 0;
};

// _latency_summary(values in seconds); nullopt where the seed returns {} (no values).
std::optional<LatencySummary> latencySummary(const std::vector<double>& intervals_s);

} // namespace lbm
