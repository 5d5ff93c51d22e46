// C string literals for generated code (file names in #line and in records).
#pragma once

#include <string>
#include <string_view>

namespace privatizer {

/// `s` as a C string literal: quoted, with quotes and backslashes escaped.
inline std::string c_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

} // namespace privatizer
