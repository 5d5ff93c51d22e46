// Finding a name in source text as a whole word (not inside a longer identifier).
#pragma once

#include <cctype>
#include <string_view>

namespace privatizer {

/// Where `word` next stands in `text` at or after `from` as a whole word, not as part of a
/// longer identifier; npos when it does not.
inline std::size_t find_word(std::string_view text, std::string_view word, std::size_t from = 0) {
  const auto identifier = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  };
  for (std::size_t at = text.find(word, from); at != std::string_view::npos;
       at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    if ((at == 0 || !identifier(text[at - 1])) && (end == text.size() || !identifier(text[end])))
      return at;
  }
  return std::string_view::npos;
}

} // namespace privatizer
