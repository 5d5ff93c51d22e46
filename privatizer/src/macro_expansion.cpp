#include "macro_expansion.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>
#include <utility>

#include <clang/Lex/MacroInfo.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>

#include "quote.hpp"
#include "words.hpp"

namespace privatizer {

namespace {

/// The source text from the start of `first` to the end of `last` (spelled tokens of a file).
std::string source_text(const clang::SourceManager& sm, const clang::syntax::Token& first,
                        const clang::syntax::Token& last) {
  const auto [file, begin] = sm.getDecomposedLoc(first.location());
  const unsigned end = sm.getFileOffset(last.endLocation());
  return sm.getBufferData(file).substr(begin, end - begin).str();
}

/// What `#` makes of an argument: a string of its text, white space runs as one space.
std::string stringized(const std::string& arg) {
  std::string text;
  bool space = false;
  for (const char c : arg) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !text.empty();
      continue;
    }
    if (space) text += ' ';
    space = false;
    text += c;
  }
  return c_string(text);
}

/// The invocation of a macro that starts at `site` (its expansion location), if one does.
std::optional<clang::syntax::TokenBuffer::Expansion>
invocation_at(const clang::syntax::TokenBuffer& tokens, clang::SourceLocation site) {
  const clang::syntax::Token* first = tokens.spelledTokenAt(site);
  if (!first) return std::nullopt;
  const auto expansion = tokens.expansionStartingAt(first);
  if (!expansion || expansion->Spelled.empty()) return std::nullopt;
  return *expansion;
}

/// The arguments of the invocation `spelled` (the macro's name, and its arguments in
/// parentheses) of a macro with `params` parameters, as written; false when they do not match.
/// Arguments are split at commas outside parentheses; a variadic macro's last parameter takes
/// the rest, commas included.
bool arguments(const clang::SourceManager& sm, llvm::ArrayRef<clang::syntax::Token> spelled,
               std::size_t params, std::vector<std::string>& args) {
  if (spelled.size() < 3 || spelled[1].kind() != clang::tok::l_paren) return false;
  const std::size_t last = spelled.size() - 1; // the closing parenthesis
  std::size_t from = 2;
  int depth = 0;
  const auto take = [&](std::size_t to) {
    args.push_back(from < to ? source_text(sm, spelled[from], spelled[to - 1]) : "");
  };
  for (std::size_t i = 2; i < last; ++i) {
    const clang::tok::TokenKind k = spelled[i].kind();
    depth += k == clang::tok::l_paren ? 1 : k == clang::tok::r_paren ? -1 : 0;
    if (k == clang::tok::comma && depth == 0 && args.size() + 1 < params) {
      take(i);
      from = i + 1;
    }
  }
  if (params > 0) take(last);
  return args.size() == params && (params > 0 || last == 2);
}

/// The invocation `spelled` written out one level deep: the macro's body with the arguments as
/// written put in for its parameters, made strings for `#` and joined for `##`. Empty when it
/// cannot be.
std::string written_out(clang::Preprocessor& pp, llvm::ArrayRef<clang::syntax::Token> spelled) {
  const clang::SourceManager& sm = pp.getSourceManager();
  clang::IdentifierInfo* name = pp.getIdentifierInfo(spelled.front().text(sm));
  const clang::MacroInfo* macro =
      pp.getMacroDefinitionAtLoc(name, spelled.front().location()).getMacroInfo();
  if (!macro) return "";
  std::vector<std::string> args;
  if (macro->isFunctionLike() && !arguments(sm, spelled, macro->getNumParams(), args)) return "";
  const auto param = [&](const clang::Token& t) -> int {
    if (!macro->isFunctionLike() || !t.getIdentifierInfo()) return -1;
    const auto ps = macro->params();
    const auto it = std::find(ps.begin(), ps.end(), t.getIdentifierInfo());
    return it == ps.end() ? -1 : static_cast<int>(it - ps.begin());
  };
  std::string out;
  bool paste = false;
  const auto body = macro->tokens();
  for (std::size_t i = 0; i < body.size(); ++i) {
    const clang::Token& t = body[i];
    if (t.getIdentifierInfo() && t.getIdentifierInfo()->getName() == "__VA_OPT__") return "";
    if (t.is(clang::tok::hashhash)) {
      paste = true;
      continue;
    }
    std::string piece;
    if (macro->isFunctionLike() && t.is(clang::tok::hash) && i + 1 < body.size() &&
        param(body[i + 1]) >= 0)
      piece = stringized(args[static_cast<std::size_t>(param(body[++i]))]);
    else if (const int p = param(t); p >= 0)
      piece = args[static_cast<std::size_t>(p)];
    else
      piece = pp.getSpelling(t);
    if (!out.empty() && !paste) out += ' ';
    out += piece;
    paste = false;
  }
  return out;
}

} // namespace

std::map<std::string, std::string>
write_out_invocations(clang::Preprocessor& pp, const clang::syntax::TokenBuffer& tokens,
                      const std::vector<clang::SourceLocation>& sites) {
  const clang::SourceManager& sm = pp.getSourceManager();
  // Per file: (begin, end) offsets of the invocation and its text written out.
  std::map<clang::FileID, std::map<unsigned, std::pair<unsigned, std::string>>> edits;
  for (const clang::SourceLocation site : sites) {
    const auto expansion = invocation_at(tokens, site);
    if (!expansion) return {};
    std::string text = written_out(pp, expansion->Spelled);
    if (text.empty()) return {};
    const auto [file, begin] = sm.getDecomposedLoc(expansion->Spelled.front().location());
    const unsigned end = sm.getFileOffset(expansion->Spelled.back().endLocation());
    edits[file][begin] = {end, std::move(text)};
  }
  std::map<std::string, std::string> files;
  for (const auto& [file, invocations] : edits) {
    const auto entry = sm.getFileEntryRefForID(file);
    if (!entry) return {};
    const llvm::StringRef original = sm.getBufferData(file);
    std::string out;
    unsigned at = 0;
    for (const auto& [begin, edit] : invocations) {
      if (begin < at) return {}; // nested in one already written out
      const auto& [end, text] = edit;
      out += original.substr(at, begin - at).str();
      out += text;
      // The arguments' line breaks stay, after the text written out.
      const llvm::StringRef call = original.substr(begin, end - begin);
      out +=
          std::string(static_cast<std::size_t>(std::count(call.begin(), call.end(), '\n')), '\n');
      at = end;
    }
    out += original.substr(at).str();
    // The next attempt reads this text in place of the file, which it finds by absolute path.
    llvm::SmallString<256> path(entry->getName());
    llvm::sys::fs::make_absolute(path);
    files[path.str().str()] = std::move(out);
  }
  return files;
}

std::vector<clang::SourceLocation>
stringizing_invocations(const clang::SourceManager& sm, const clang::syntax::TokenBuffer& tokens,
                        const std::vector<std::pair<clang::SourceLocation, std::string>>& uses) {
  std::vector<clang::SourceLocation> found;
  for (const auto& [site, name] : uses) {
    const auto expansion = invocation_at(tokens, site);
    if (!expansion) continue;
    for (const clang::syntax::Token& t : expansion->Expanded) {
      // A string `#` made lives in the preprocessor's scratch space.
      if (!clang::tok::isStringLiteral(t.kind()) ||
          !sm.isWrittenInScratchSpace(sm.getSpellingLoc(t.location())))
        continue;
      if (find_word(t.text(sm), name) != std::string_view::npos) {
        found.push_back(site);
        break;
      }
    }
  }
  return found;
}

} // namespace privatizer
