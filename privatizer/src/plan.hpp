// Which variables get privatized, and how (the privatizer's policy).
#pragma once

#include <map>
#include <string>

#include "diagnostics.hpp"
#include "facts.hpp"

namespace privatizer {

/// How a variable is rewritten. Every form gives each rank its own copy; they differ in how
/// the copy is initialized and named.
enum class Form {
  Shared,      ///< left alone: constants, library globals
  Image,       ///< definition renamed to a prototype whose bytes initialize each rank's copy
  Dynamic,     ///< C++: constructed per rank before main by an init function, destroyed at exit
  CLocal,      ///< C function-local static: moved in front of its function as an Image
  LocalStatic, ///< C++ function-local static: a reference to the rank's lazily built copy
  Member,      ///< C++ static data member: an accessor function to the rank's lazily built copy
};

struct Plan {
  Form form = Form::Shared;
  std::string name;       ///< as written
  std::string link_name;  ///< external linkage: the symbol (mangled in C++); else empty
  std::string id;         ///< unique key for generated names
  std::string proto;      ///< Image/Dynamic/CLocal: the renamed declaration
  std::string off;        ///< Image/Dynamic/CLocal: the offset variable
  bool external = false;  ///< the offset variable is shared by all units (weak definitions)
  bool mergeable = false; ///< several units may define it (C tentative, C++ inline)
  /// Declared thread-local, or OpenMP threadprivate: a copy per rank and thread (the rank's
  /// own thread's in the segment, each other team thread's beside it), never in the group.
  bool thread_local_ = false;
  /// Thread-local by `#pragma omp threadprivate`, not by a specifier.
  bool threadprivate = false;
};

/// Eight hex digits that stand for `s` in generated names (stable across runs and hosts).
std::string short_hash(const std::string& s);

/// Plans per canonical declaration; constructs that cannot be privatized are reported.
using Plans = std::map<const clang::VarDecl*, Plan>;
Plans make_plans(clang::ASTContext& ctx, const Facts& facts, Diagnostics& diag);

/// The plan of a variable that gets a copy per rank, null for one left shared.
const Plan* privatized(const Plans& plans, const clang::VarDecl* v);

} // namespace privatizer
