#pragma once
// JSON text laid out as Python's json.dumps(value, indent=2, sort_keys=True) writes it, so
// our documents diff cleanly against the benchmark's: two-space indent, keys sorted,
// ": " and "," separators, non-ASCII escaped as \uXXXX, floats in repr() digits.
// One difference cannot be avoided: Qt 6 stores an integral double as an integer
// (QJsonValue(5.0) is 5), so such floats are written "5" where Python writes "5.0". Every
// JSON reader, Python's included, reads the same number back.

#include <QByteArray>
#include <QJsonValue>
#include <QString>

namespace lbm::report {

// json.dumps(value, indent=indent, sort_keys=True); indent < 0 means Python's compact
// default separators (", " and ": ") on one line.
QByteArray toPythonJson(const QJsonValue& value, int indent = 2);
// Floats are written as lbm::pythonFloatRepr (metrics/python_text.h) writes them.

} // namespace lbm::report
