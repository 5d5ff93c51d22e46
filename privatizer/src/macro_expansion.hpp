// Declarations a macro writes (a suite's static members, a registration object per benchmark,
// a counter) cannot be renamed where the macro is defined: the definition serves every use. And
// a use of a privatized variable in a macro argument that the macro also makes a string of
// (`#`) cannot be renamed in the argument without changing the string. The privatizer instead
// writes such an invocation out, one level deep (the macro's body with its arguments put in, as
// the user could have written it), and rewrites the unit again; a body that calls another macro
// is written out in the next attempt if it needs to be.
#pragma once

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/Syntax/Tokens.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace privatizer {

/// The files of the unit with every macro invocation that starts at one of `sites` (expansion
/// locations) written out; each keeps its line count, so that every other line keeps its
/// number. Keyed by the file's absolute path; empty when a site is not the start of an
/// invocation it can write out (a `__VA_OPT__`, invocations nested in each other).
std::map<std::string, std::string>
write_out_invocations(clang::Preprocessor& pp, const clang::syntax::TokenBuffer& tokens,
                      const std::vector<clang::SourceLocation>& sites);

/// The invocations among `uses` (where they start, and the privatized name used in an
/// argument) whose expansion makes a string of that argument (`#`): rewriting the name in the
/// argument would change the string too.
std::vector<clang::SourceLocation>
stringizing_invocations(const clang::SourceManager& sm, const clang::syntax::TokenBuffer& tokens,
                        const std::vector<std::pair<clang::SourceLocation, std::string>>& uses);

} // namespace privatizer
