#include "diagnostics.hpp"

#include <llvm/Support/raw_ostream.h>

namespace privatizer {

clang::SourceLocation Diagnostics::file_location(clang::SourceLocation at) const {
  const clang::SourceLocation spelled = sm_.getSpellingLoc(at);
  return sm_.isWrittenInScratchSpace(spelled) ? sm_.getExpansionLoc(at) : spelled;
}

std::string Diagnostics::position(clang::SourceLocation at) const {
  const clang::PresumedLoc p = sm_.getPresumedLoc(file_location(at));
  if (p.isInvalid()) return "<unknown>";
  return std::string(p.getFilename()) + ":" + std::to_string(p.getLine()) + ":" +
         std::to_string(p.getColumn());
}

std::string Diagnostics::where(clang::SourceLocation at) const {
  const clang::PresumedLoc p = sm_.getPresumedLoc(file_location(at));
  if (p.isInvalid()) return "<unknown>";
  return std::string(p.getFilename()) + ":" + std::to_string(p.getLine());
}

void Diagnostics::cannot(clang::SourceLocation at, const std::string& what,
                         const std::string& why) {
  ++errors_;
  messages_ += position(at) + ": mpisim-privatize: cannot privatize " + what + ": " + why + "\n";
}

void Diagnostics::declared_by_macro(clang::SourceLocation at, const std::string& what) {
  cannot(at, what, "it is declared by a macro expansion; declare it directly");
  macro_sites_.push_back(sm_.getExpansionLoc(at));
}

void Diagnostics::warn(clang::SourceLocation at, const std::string& message) {
  messages_ += position(at) + ": mpisim-privatize: warning: " + message + "\n";
}

void Diagnostics::flush() {
  llvm::errs() << messages_;
  messages_.clear();
}

} // namespace privatizer
