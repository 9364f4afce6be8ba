#pragma once
// Test support shared by the report and cli tests: the golden seed cases as Qt JSON, and a
// key-for-key comparison of JSON values with the golden README's tolerance (floats 1e-9
// relative, everything else exact, absent keys absent).

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace lbm::test {

// tests/data/golden/seed_cases.json, parsed once.
const QJsonObject& goldenCases();
// goldenCases()[group] as an array of case objects.
QJsonArray goldenGroup(const QString& group);

// Empty when expected and actual agree; otherwise the path and the two values of the first
// difference, for a test failure message.
QString jsonDifference(const QJsonValue& expected, const QJsonValue& actual,
                       const QString& path = QStringLiteral("$"));

// A session document as the Python benchmark would write it for one golden `metrics` case
// (an "ok" case): the case's records as to_dict() rows, its result as the stored metrics,
// its kwargs as the config, a matching describe(). Built as raw JSON, not by our writer.
QJsonObject benchmarkDocumentForMetricsCase(const QJsonObject& metrics_case);

// Reads a JSON object file; fails the test (throws) when it cannot.
QJsonObject readJsonObject(const QString& path);

} // namespace lbm::test
