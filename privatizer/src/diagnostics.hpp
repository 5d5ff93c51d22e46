// The privatizer's messages: "file:line:col: mpisim-privatize: ..." on stderr.
#pragma once

#include <clang/Basic/SourceManager.h>

#include <string>

namespace privatizer {

class Diagnostics {
public:
  explicit Diagnostics(const clang::SourceManager& sm) : sm_(sm) {}
  /// A construct the privatizer cannot rewrite; the run fails.
  void cannot(clang::SourceLocation at, const std::string& what, const std::string& why);
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
};

} // namespace privatizer
