#pragma once
// Python's str semantics that leak into the seed's user-facing messages: repr() quoting in
// "Unknown camera pattern 'x'" and str.strip() in the "non-whitespace text" checks. Strings
// are UTF-8.

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

} // namespace lbm
