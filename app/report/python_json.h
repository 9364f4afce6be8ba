#pragma once
// JSON text byte-for-byte as Python's json.dumps(value, indent=2, sort_keys=True) writes
// it, so our documents diff cleanly against the benchmark's: floats in repr() form ("5.0",
// "1e-05"), integers without a fraction, keys sorted, non-ASCII escaped as \uXXXX.
// Integer-vs-float comes from the value itself: QJsonValue(qint64) is an integer,
// QJsonValue(double) a float, and QJsonDocument::fromJson keeps the distinction.

#include <QByteArray>
#include <QJsonValue>
#include <QString>

namespace lbm::report {

// json.dumps(value, indent=indent, sort_keys=True); indent < 0 means Python's compact
// default separators (", " and ": ") on one line.
QByteArray toPythonJson(const QJsonValue& value, int indent = 2);
// repr(float): shortest round-trip digits, ".0" on integral values, exponent form outside
// 1e-4 <= |x| < 1e16. NaN/inf as Python's json writes them (NaN, Infinity, -Infinity).
QString pythonFloatRepr(double value);

} // namespace lbm::report
