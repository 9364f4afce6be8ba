#include "metrics/latency_summary.h"

#include "metrics/metric_error.h"

#include <algorithm>
#include <cmath>

namespace lbm {
namespace {

// Python's sum(): left to right from 0, so results match CPython bit for bit.
double sumInOrder(const std::vector<double>& values) {
    double total = 0.0;
    for (const double value : values) {
        total += value;
    }
    return total;
}

} // namespace

double percentile(std::vector<double> values, double fraction) {
    if (values.empty()) {
        throw MetricError("percentile() needs at least one value.");
    }
    // Written as the negation so NaN is rejected like the seed's chained comparison does.
    if (!(0.0 <= fraction && fraction <= 1.0)) {
        throw MetricError("percentile fraction must be within [0, 1].");
    }
    std::sort(values.begin(), values.end());
    if (values.size() == 1) {
        return values.front();
    }
    const double position = fraction * static_cast<double>(values.size() - 1);
    const auto lower = static_cast<std::size_t>(position);
    const std::size_t upper = std::min(lower + 1, values.size() - 1);
    const double weight = position - static_cast<double>(lower);
    return values[lower] * (1.0 - weight) + values[upper] * weight;
}

double sampleStddev(const std::vector<double>& values) {
    if (values.size() < 2) {
        return 0.0;
    }
    const double count = static_cast<double>(values.size());
    const double mean = sumInOrder(values) / count;
    double squares = 0.0;
    for (const double value : values) {
        const double deviation = value - mean;
        squares += deviation * deviation;
    }
    // CPython evaluates ** 0.5 through pow(), not sqrt().
    return std::pow(squares / static_cast<double>(values.size() - 1), 0.5);
}

std::optional<LatencySummary> latencySummary(const std::vector<double>& intervals_s) {
    if (intervals_s.empty()) {
        return std::nullopt;
    }
    std::vector<double> milliseconds;
    milliseconds.reserve(intervals_s.size());
    for (const double value : intervals_s) {
        milliseconds.push_back(value * 1000.0);
    }
    LatencySummary summary;
    summary.count = static_cast<double>(milliseconds.size());
    summary.mean_ms = sumInOrder(milliseconds) / summary.count;
    summary.median_ms = percentile(milliseconds, 0.5);
    summary.std_ms = sampleStddev(milliseconds);
    summary.min_ms = *std::min_element(milliseconds.begin(), milliseconds.end());
    summary.p90_ms = percentile(milliseconds, 0.90);
    summary.p95_ms = percentile(milliseconds, 0.95);
    summary.p99_ms = percentile(milliseconds, 0.99);
    summary.max_ms = *std::max_element(milliseconds.begin(), milliseconds.end());
    return summary;
}

} // namespace lbm
