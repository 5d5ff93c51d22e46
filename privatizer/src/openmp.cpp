#include "openmp.hpp"

#include <clang/AST/DeclOpenMP.h>
#include <clang/Basic/OpenMPKinds.h>

#include <algorithm>

namespace privatizer {
namespace {

using clang::OMPExecutableDirective;

template <class C> std::vector<const clang::Expr*> items_of(const C* c) {
  std::vector<const clang::Expr*> items;
  if constexpr (requires(const C* x) { x->varlists(); })
    for (const clang::Expr* e : c->varlists())
      items.push_back(e);
  return items;
}

/// The directives whose data-sharing clauses get a local variable: each thread of the team
/// then privatizes (or shares, reduces into) that local, which the encountering rank's
/// code fills from its copy of the global and writes back. A worksharing or task directive
/// inside a region cannot: the local would have to be shared by the team around it.
bool parallel(const OMPExecutableDirective* d) {
  switch (d->getDirectiveKind()) {
  case llvm::omp::OMPD_parallel:
  case llvm::omp::OMPD_parallel_for:
  case llvm::omp::OMPD_parallel_for_simd:
  case llvm::omp::OMPD_parallel_sections:
  case llvm::omp::OMPD_parallel_master:
    return true;
  default:
    return false;
  }
}

class Planner {
public:
  Planner(const Facts& facts, const Plans& plans, Diagnostics& diag)
      : facts_(facts), plans_(plans), diag_(diag) {}

  OmpEdits run() {
    for (const Use& u : facts_.uses) {
      const Plan* p = privatized(plans_, u.var);
      if (const auto* tp =
              clang::dyn_cast_or_null<clang::OMPThreadPrivateDecl>(u.omp.declaration)) {
        if (p) threadprivate(u, *tp);
        continue;
      }
      // A C++ function-local static stays a local name (a reference), which clauses can hold.
      if (!p || p->form == Form::LocalStatic) continue;
      if (u.omp.declaration)
        diag_.cannot(u.name, "`omp allocate` naming the global " + p->name,
                     "mpisim gives each rank its own copy of it, which the directive cannot "
                     "name; remove the directive");
      else if (u.omp.clause)
        listed(u, *p);
      else if (const OmpLocal* l = local_around(u.omp.region, u.var))
        edits_.renamed[&u] = l->name;
      else
        reaches_globals(u.omp.region);
    }
    for (const OMPExecutableDirective* d : order_)
      edits_.constructs.emplace_back(d, std::move(constructs_[d]));
    return std::move(edits_);
  }

private:
  const OMPExecutableDirective* parent(const OMPExecutableDirective* d) const {
    auto it = facts_.omp_parent.find(d);
    return it == facts_.omp_parent.end() ? nullptr : it->second;
  }

  OmpConstruct& construct(const OMPExecutableDirective* d) {
    auto [it, fresh] = constructs_.try_emplace(d);
    if (fresh) order_.push_back(d);
    return it->second;
  }

  /// The local that stands for `v` in the region `d` (or a region around it), if any.
  const OmpLocal* local_around(const OMPExecutableDirective* d, const clang::VarDecl* v) const {
    for (; d; d = parent(d))
      if (auto it = constructs_.find(d); it != constructs_.end())
        for (const OmpLocal& l : it->second.locals)
          if (l.var == v) return &l;
    return nullptr;
  }

  /// The rewritten access in region `d` names the runtime's variables (mpisim_priv_base, the
  /// unit's group), which default(none) around it would reject. (default(firstprivate) needs
  /// nothing: Clang makes the program list every global, and a thread's copy of
  /// mpisim_priv_base points where the original does.)
  void reaches_globals(const OMPExecutableDirective* d) {
    for (; d; d = parent(d))
      for (const clang::OMPClause* c : d->clauses())
        if (const auto* dc = clang::dyn_cast<clang::OMPDefaultClause>(c);
            dc && dc->getDefaultKind() == llvm::omp::OMP_DEFAULT_none)
          construct(d).default_none = c;
  }

  /// The directive goes (the plan gives the variable a copy per rank and thread); one that
  /// also names a variable left as it is would have to be split.
  void threadprivate(const Use& u, const clang::OMPThreadPrivateDecl& d) {
    edits_.dropped.insert(&u);
    for (const clang::Expr* e : d.varlists())
      if (const auto* ref = clang::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts()))
        if (const auto* v = clang::dyn_cast<clang::VarDecl>(ref->getDecl());
            v && !privatized(plans_, v)) {
          diag_.cannot(u.name, "`omp threadprivate` naming " + u.var->getNameAsString(),
                       "the directive also names " + v->getNameAsString() +
                           ", which stays as it is; give that one a directive of its own");
          return;
        }
    edits_.threadprivate.insert(&d);
  }

  static std::string directive_name(const OMPExecutableDirective* d) {
    return llvm::omp::getOpenMPDirectiveName(d->getDirectiveKind()).str();
  }

  /// A use in the variable list of a clause.
  void listed(const Use& u, const Plan& p) {
    const OMPExecutableDirective* d = u.omp.directive;
    const clang::OMPClause* c = u.omp.clause;
    // A clause of a directive nested in a construct that has a local for the global.
    if (const OmpLocal* l = local_around(parent(d), u.var)) {
      edits_.renamed[&u] = l->name;
      return;
    }
    const clang::Expr* item = nullptr;
    for (const clang::Expr* e : omp_list_items(c))
      if (e->IgnoreParenImpCasts() == u.expr) item = e;
    const std::string kind = llvm::omp::getOpenMPClauseName(c->getClauseKind()).str();
    const std::string what =
        "a " + kind + " clause on `omp " + directive_name(d) + "` naming the global " + p.name;
    const std::string per_rank = "mpisim gives each rank its own copy of it, which ";
    if (!item) {
      diag_.cannot(u.name, what,
                   per_rank +
                       "a list item cannot name; name an array section of a local pointer "
                       "to it instead (p[0:n] with p = " +
                       p.name + ")");
      return;
    }
    switch (c->getClauseKind()) {
    case llvm::omp::OMPC_shared:
      // Globals are shared anyway, and every thread reaches the rank's copy through
      // mpisim_priv_base, itself a shared global.
      edits_.dropped.insert(&u);
      edits_.dropped_items[c].insert(item);
      return;
    case llvm::omp::OMPC_copyin:
      if (p.thread_local_ && parallel(d)) {
        edits_.dropped.insert(&u);
        edits_.dropped_items[c].insert(item);
        construct(d).copyins.push_back(&u);
        reaches_globals(parent(d)); // the call names the thread-local's copy
      } else {
        diag_.cannot(u.name, what,
                     per_rank + "only the copyin clause of a parallel directive naming a "
                                "threadprivate variable can name; put it on the `parallel` "
                                "directive");
      }
      return;
    case llvm::omp::OMPC_private:
    case llvm::omp::OMPC_firstprivate:
    case llvm::omp::OMPC_lastprivate:
    case llvm::omp::OMPC_reduction:
      if (!parallel(d)) {
        const bool reduction = c->getClauseKind() == llvm::omp::OMPC_reduction;
        diag_.cannot(u.name, what,
                     per_rank +
                         "only the clauses of a parallel directive can name; put the "
                         "clause on the enclosing `parallel` directive, or " +
                         (reduction ? "reduce into a local variable"
                                    : "copy the global into a local variable"));
      } else if (u.var->getType()->isArrayType()) {
        diag_.cannot(u.name, what,
                     per_rank +
                         "a clause cannot name, and only scalars are copied into a local "
                         "variable for the construct; use a local array, or name an "
                         "array section of a local pointer to it (p[0:n] with p = " +
                         p.name + ")");
      } else {
        edits_.renamed[&u] = local_for(d, u, p, c->getClauseKind()).name;
      }
      return;
    default:
      diag_.cannot(u.name, what,
                   per_rank + "this clause cannot name; copy the global into a local variable "
                              "around the construct");
    }
  }

  OmpLocal& local_for(const OMPExecutableDirective* d, const Use& u, const Plan& p,
                      llvm::omp::Clause kind) {
    std::vector<OmpLocal>& locals = construct(d).locals;
    auto it = std::find_if(locals.begin(), locals.end(),
                           [&](const OmpLocal& l) { return l.var == u.var; });
    if (it == locals.end()) {
      locals.push_back(OmpLocal{u.var, &u, "__mpisim_omp_" + p.name});
      it = std::prev(locals.end());
      // The local is filled and written back around the directive, in the enclosing region.
      reaches_globals(parent(d));
    }
    it->init |= kind != llvm::omp::OMPC_private;
    it->write_back |= kind == llvm::omp::OMPC_lastprivate || kind == llvm::omp::OMPC_reduction;
    return *it;
  }

  const Facts& facts_;
  const Plans& plans_;
  Diagnostics& diag_;
  OmpEdits edits_;
  std::map<const OMPExecutableDirective*, OmpConstruct> constructs_;
  std::vector<const OMPExecutableDirective*> order_; ///< of constructs_, as first met
};

} // namespace

std::vector<const clang::Expr*> omp_list_items(const clang::OMPClause* c) {
  switch (c->getClauseKind()) {
#define GEN_CLANG_CLAUSE_CLASS
#define CLAUSE_CLASS(Enum, Str, Class)                                                             \
  case llvm::omp::Clause::Enum:                                                                    \
    return items_of(static_cast<const clang::Class*>(c));
#define CLAUSE_NO_CLASS(Enum, Str)                                                                 \
  case llvm::omp::Clause::Enum:                                                                    \
    break;
#include "llvm/Frontend/OpenMP/OMP.inc"
  }
  return {};
}

OmpEdits plan_openmp(const Facts& facts, const Plans& plans, Diagnostics& diag) {
  return Planner(facts, plans, diag).run();
}

} // namespace privatizer
