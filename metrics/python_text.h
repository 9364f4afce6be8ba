#pragma once
// Python's text forms, in one bottom module for every layer: str semantics that leak into the
// seed's user-facing messages (repr() quoting in "Unknown camera pattern 'x'", str.strip() in
// the "non-whitespace text" checks) and repr(float) as the benchmark's JSON writes numbers.
// Strings are UTF-8.

#include <string>
#include <string_view>
#include <vector>

namespace lbm {

// repr(text): single quotes unless the text holds a single quote and no double quote;
// backslash, the chosen quote and non-printable characters escaped as CPython does
// (\t \n \r, \xNN, \uNNNN). Bytes that are not valid UTF-8 appear as CPython's
// surrogateescape form (\udcNN), which is what a str decoded from such bytes would show.
std::string pythonRepr(std::string_view text);
// repr(list_of_str): "['a', 'b']".
std::string pythonListRepr(const std::vector<std::string>& items);
// not text.strip(): empty or only characters Python's str.isspace() accepts.
bool isPythonBlank(std::string_view text);
// repr(float): shortest round-trip digits, ".0" on integral values, exponent form outside
// 1e-4 <= |x| < 1e16. NaN/inf as Python's json writes them (NaN, Infinity, -Infinity).
// What the documents' JSON, the CSV and the simulator's Python-shaped messages print.
std::string pythonFloatRepr(double value);

} // namespace lbm
