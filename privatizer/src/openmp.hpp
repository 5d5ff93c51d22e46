// OpenMP clauses that name privatized globals. A clause can hold only names, not the
// expressions that reach the rank's copy of a global, so each such clause is turned into one
// that names something else, or refused: `shared(g)` loses g (every thread reaches the rank's
// copy anyway); the data-sharing clauses of a parallel directive name a local variable that
// holds the global's value around the construct; `copyin(t)` of a threadprivate t becomes a
// call that has the runtime copy it to the team's threads; everything else is refused. The
// `threadprivate` directive itself goes: the variable's uses reach the thread's copy.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "diagnostics.hpp"
#include "facts.hpp"
#include "plan.hpp"

namespace privatizer {

/// The expressions of a clause's variable list (none for clauses without one).
std::vector<const clang::Expr*> omp_list_items(const clang::OMPClause* c);

/// A local variable that stands for a global in a parallel construct: declared in a block
/// opened in front of the directive, named in its clauses and region, and copied back to the
/// global after the associated statement.
struct OmpLocal {
  const clang::VarDecl* var = nullptr;
  const Use* item = nullptr; ///< the clause item that asked for it (its qualifier reaches var)
  std::string name;
  bool init = false;       ///< starts with the global's value (all but `private`)
  bool write_back = false; ///< lastprivate, reduction
};

struct OmpConstruct {
  std::vector<OmpLocal> locals;
  /// copyin items: the runtime copies each to the team's threads (mpisim_priv_copyin).
  std::vector<const Use*> copyins;

  bool opens_block() const { return !locals.empty() || !copyins.empty(); }
  /// default(none), which would reject the names the rewritten accesses use: it becomes
  /// default(shared), the same for a region Clang has checked (every variable is listed).
  const clang::OMPClause* default_none = nullptr;
};

/// What the rewriting does in OpenMP code, besides the ordinary rewriting of uses.
struct OmpEdits {
  std::map<const Use*, std::string> renamed; ///< uses that name a construct's local instead
  std::set<const Use*> dropped;              ///< items removed from `shared` and `copyin` clauses
  std::map<const clang::OMPClause*, std::set<const clang::Expr*>> dropped_items;
  /// `threadprivate` directives that name privatized variables: removed.
  std::set<const clang::OMPThreadPrivateDecl*> threadprivate;
  /// Directives in traversal order (enclosing ones first).
  std::vector<std::pair<const clang::OMPExecutableDirective*, OmpConstruct>> constructs;
};

/// Decides the edits for the unit's uses; clauses it cannot turn are reported.
OmpEdits plan_openmp(const Facts& facts, const Plans& plans, Diagnostics& diag);

} // namespace privatizer
