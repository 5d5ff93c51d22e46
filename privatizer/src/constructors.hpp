// The program's constructor and destructor functions (__attribute__((constructor)),
// ((destructor))): in a real MPI run they run once in every process, before main and after it.
// Here they run once per rank, on the rank's own globals: the attribute is turned into
// `unused` and the function is registered as an init (fini) record of size zero, which the
// runtime calls in each rank before its main (after it ends).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include "diagnostics.hpp"
#include "facts.hpp"
#include "rewrite.hpp"

namespace privatizer {

void rewrite_constructors(clang::ASTContext& ctx, const Facts& facts, clang::Rewriter& rw,
                          Rewritten& out, Diagnostics& diag);

} // namespace privatizer
