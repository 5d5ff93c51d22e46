// Compound literals with static storage: `int *counts = (int[]){0, 0};` at file scope (or in
// the initializer of a function-local static) makes one unnamed object for the whole program,
// which every rank would share. Each becomes a named static variable, declared just before the
// declaration that holds it, which the privatizer then handles like any other:
//
//   static __typeof__(int[2]) mpisim_literal_1 = {0, 0};
//   int *counts = mpisim_literal_1;
//
// A literal whose value is only copied (`struct s x = (struct s){1, 2};`) has no object anyone
// can reach and stays as it is. C++ (GNU extension) has such objects only for array literals
// at namespace scope.
#pragma once

#include <clang/AST/ASTContext.h>

#include <map>
#include <string>

#include "diagnostics.hpp"

namespace privatizer {

/// The user files that hold such literals, with them named (by absolute path, for the next
/// attempt to read in place of the files); empty when there are none. Literals written by
/// macros, and all of them when not `may_name` (the last attempt), are refused through `diag`.
std::map<std::string, std::string> name_compound_literals(clang::ASTContext& ctx, bool may_name,
                                                          Diagnostics& diag);

} // namespace privatizer
