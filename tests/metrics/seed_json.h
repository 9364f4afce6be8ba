#pragma once
// Test-side bridge between the seed's JSON shapes (tests/data/golden/seed_cases.json) and
// lbm_metrics structs, plus a key-for-key comparator. Lives in the tests because lbm_metrics
// is standard C++ only; the production JSON forms belong to app/report.

#include "metrics/chunk_record.h"
#include "metrics/latency_summary.h"
#include "metrics/playback_result.h"
#include "metrics/session_metrics.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lbm::test {

// The whole golden file (parsed once); fails the test run if it cannot be read.
const QJsonObject& seedCases();
// seedCases()[group] as an array of case objects.
QJsonArray seedGroup(const char* group);

std::vector<ChunkRecord> recordsFromSeed(const QJsonArray& rows);
// compute_metrics kwargs; null means "not given" (the seed's default).
MetricsOptions optionsFromSeed(const QJsonObject& kwargs);
// A compute_metrics result dict (aggregate_metrics' input) as a SessionMetrics.
SessionMetrics sessionFromSeed(const QJsonObject& metrics);

// The seed's to_dict()/dict forms, with exactly the seed's keys.
QJsonObject toSeedJson(const PlaybackResult& result);
QJsonObject toSeedJson(const std::optional<LatencySummary>& summary);
QJsonObject toSeedJson(const SessionMetrics& metrics);
QJsonObject toSeedJson(const AggregateMetrics& aggregate);

// Differences between the seed's value and ours, one line each (empty = equal). Objects
// must have the same keys both ways; numbers equal within 1e-9 relative, integral values
// exactly (Qt's JSON model does not keep Python's int/float distinction); strings, bools
// and nulls exactly.
std::vector<std::string> seedDifferences(const QJsonValue& expected, const QJsonValue& actual,
                                         const std::string& path = "$");

// The MetricError message f throws, or nullopt when it returns normally. Any other
// exception escapes and fails the test.
std::optional<std::string> metricErrorOf(const std::function<void()>& f);

std::string toStd(const QString& text);

} // namespace lbm::test
