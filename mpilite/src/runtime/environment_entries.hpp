// The entries of an environment array (`environ`), as getenv() reads them and setenv() writes them.
#pragma once

#include <cstring>
#include <string_view>

namespace mpilite {

/// Whether `entry` ("NAME=value") is the variable `name`.
inline bool names_variable(const char* entry, std::string_view name) {
  return std::strncmp(entry, name.data(), name.size()) == 0 && entry[name.size()] == '=';
}

} // namespace mpilite
