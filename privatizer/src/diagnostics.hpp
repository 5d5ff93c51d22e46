// The privatizer's messages: "file:line:col: mpisim-privatize: ..." on stderr, written when the
// unit is done (a unit whose only refusals are declarations made by macros is rewritten again
// with the macros written out, and the first attempt's messages are dropped).
#pragma once

#include <clang/Basic/SourceManager.h>

#include <string>
#include <utility>
#include <vector>

namespace privatizer {

class Diagnostics {
public:
  explicit Diagnostics(const clang::SourceManager& sm) : sm_(sm) {}
  /// A construct the privatizer cannot rewrite; the run fails.
  void cannot(clang::SourceLocation at, const std::string& what, const std::string& why);
  /// A declaration written by a macro invocation, which cannot be rewritten in place: the run
  /// fails unless the invocation is written out (macro_sites()).
  void declared_by_macro(clang::SourceLocation at, const std::string& what);
  /// Where the invocations that wrote the declarations of declared_by_macro() start.
  const std::vector<clang::SourceLocation>& macro_sites() const { return macro_sites_; }
  /// A use of a privatized variable spelled in an argument of a macro invocation. Rewritten
  /// there, it changes the argument everywhere the macro body puts it, also where the body
  /// makes a string of it (`#`); such an invocation is written out.
  void used_in_macro_argument(clang::SourceLocation at, const std::string& name) {
    argument_uses_.emplace_back(sm_.getExpansionLoc(at), name);
  }
  const std::vector<std::pair<clang::SourceLocation, std::string>>& argument_uses() const {
    return argument_uses_;
  }
  /// Writes the messages to stderr.
  void flush();
  /// Something left as it is on purpose that the user should know about.
  void warn(clang::SourceLocation at, const std::string& message);
  int errors() const { return errors_; }
  /// "file:line" of a location, for the records' diagnostics at run time.
  std::string where(clang::SourceLocation at) const;

private:
  std::string position(clang::SourceLocation at) const;
  /// Where the user wrote it: the spelling, or the expansion for text made by ##.
  clang::SourceLocation file_location(clang::SourceLocation at) const;
  const clang::SourceManager& sm_;
  int errors_ = 0;
  std::string messages_;
  std::vector<clang::SourceLocation> macro_sites_;
  std::vector<std::pair<clang::SourceLocation, std::string>> argument_uses_;
};

} // namespace privatizer
