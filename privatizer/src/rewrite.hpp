// Applies the plans to the translation unit's files: renames declarations, turns uses into
// accesses to the current rank's copy, and emits the registration records.
#pragma once

#include <clang/Rewrite/Core/Rewriter.h>

#include <map>
#include <set>
#include <string>

#include "diagnostics.hpp"
#include "facts.hpp"
#include "plan.hpp"

namespace privatizer {

/// Rewritten files: the edited buffers plus, per file, the declarations its new text needs
/// in front of it (offset variables).
struct Rewritten {
  std::map<clang::FileID, std::set<std::string>> prologue;
};

/// How the program is compiled, where it changes the rewriting.
struct Options {
  /// -fcommon: tentative definitions of the same name in several units are one variable.
  bool common = false;
};

/// Edits `rw` (which must be set up on the unit's SourceManager).
Rewritten apply_plans(clang::ASTContext& ctx, const Facts& facts, const Plans& plans,
                      const Options& options, clang::Rewriter& rw, Diagnostics& diag);

} // namespace privatizer
