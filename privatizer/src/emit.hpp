// Pieces of generated C and C++ text that do not depend on where they go.
#pragma once

#include <string>

#include "plan.hpp"

namespace privatizer {

/// `TYPE INIT` of a placement new, from an initializer as written (" = 5", "(1, 2)",
/// "= {1, 2}", "{x}" or nothing).
std::string construct(const std::string& type, std::string init);

/// A struct with the variable as its only member, declared once per unit (guarded) after the
/// variable's first declaration: accesses through it tell the compiler which variable they
/// touch, so that it keeps telling variables apart (vectorizes, hoists loads) as with globals.
/// Starts and ends with a newline.
std::string wrapper(const Plan& p, bool cxx);

/// A class local to the function (one per template instantiation, so one slot each) that
/// names the declaration for diagnostics.
std::string tag_class(const std::string& tag, const std::string& where);

/// The rank's copy of a C++ lazily built static, constructed the first time the rank gets
/// here.
std::string lazy_copy(const std::string& tag, const std::string& type, const std::string& init);

} // namespace privatizer
