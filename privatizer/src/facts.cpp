#include "facts.hpp"

#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <set>

#include "openmp.hpp"

namespace privatizer {

namespace {

/// The user's system folders, absolute, each ending with '/'.
std::vector<std::string>& user_system_dirs() {
  static std::vector<std::string> dirs;
  return dirs;
}

std::string absolute(llvm::StringRef path) {
  llvm::SmallString<256> abs(path);
  llvm::sys::fs::make_absolute(abs);
  llvm::sys::path::remove_dots(abs, true);
  return std::string(abs.str());
}

/// A system header that one of the user's system folders holds.
bool in_user_system_dir(const clang::SourceManager& sm, clang::FileID fid) {
  if (user_system_dirs().empty()) return false;
  const clang::FileEntry* entry = sm.getFileEntryForID(fid);
  if (!entry) return false;
  const std::string path = absolute(entry->getName());
  for (const std::string& dir : user_system_dirs())
    if (llvm::StringRef(path).startswith(dir)) return true;
  return false;
}

} // namespace

void set_user_system_dirs(const std::vector<std::string>& dirs) {
  user_system_dirs().clear();
  for (const std::string& d : dirs) {
    std::string abs = absolute(d);
    if (abs.empty() || abs.back() != '/') abs += '/';
    user_system_dirs().push_back(abs);
  }
}

bool in_user_file(const clang::SourceManager& sm, clang::SourceLocation loc) {
  if (loc.isInvalid()) return false;
  const clang::SourceLocation file = sm.getExpansionLoc(loc);
  const clang::FileID fid = sm.getFileID(file);
  return (!sm.isInSystemHeader(file) || in_user_system_dir(sm, fid)) &&
         !sm.isWrittenInBuiltinFile(file) && !sm.isWrittenInCommandLineFile(file) &&
         sm.getFileEntryForID(fid);
}

const clang::VarDecl* canonical_var(const clang::VarDecl* v) {
  if (const clang::VarDecl* pattern = v->getInstantiatedFromStaticDataMember()) v = pattern;
  return v->getCanonicalDecl();
}

namespace {

class Collector : public clang::RecursiveASTVisitor<Collector> {
public:
  Collector(clang::ASTContext& ctx, Facts& facts) : ctx_(ctx), facts_(facts) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseFunctionDecl(clang::FunctionDecl* f) {
    return in_function(f, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(f); });
  }
  bool TraverseCXXMethodDecl(clang::CXXMethodDecl* f) {
    return in_function(f, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(f); });
  }
  bool TraverseCXXConstructorDecl(clang::CXXConstructorDecl* f) {
    return in_function(f, [&] { return RecursiveASTVisitor::TraverseCXXConstructorDecl(f); });
  }
  bool TraverseCXXDestructorDecl(clang::CXXDestructorDecl* f) {
    return in_function(f, [&] { return RecursiveASTVisitor::TraverseCXXDestructorDecl(f); });
  }
  bool TraverseCXXConversionDecl(clang::CXXConversionDecl* f) {
    return in_function(f, [&] { return RecursiveASTVisitor::TraverseCXXConversionDecl(f); });
  }
  bool TraverseLambdaExpr(clang::LambdaExpr* l) {
    functions_.push_back(l->getCallOperator());
    const bool ok = RecursiveASTVisitor::TraverseLambdaExpr(l);
    functions_.pop_back();
    return ok;
  }

  bool TraverseVarDecl(clang::VarDecl* v) {
    if (!v->hasGlobalStorage() || !v->hasInit()) return RecursiveASTVisitor::TraverseVarDecl(v);
    const clang::VarDecl* outer = in_init_;
    in_init_ = v;
    const bool ok = RecursiveASTVisitor::TraverseVarDecl(v);
    in_init_ = outer;
    return ok;
  }

  bool TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr* e) {
    ++unevaluated_;
    const bool ok = RecursiveASTVisitor::TraverseUnaryExprOrTypeTraitExpr(e);
    --unevaluated_;
    return ok;
  }

  // OpenMP: which directive's region holds each use, and which clause lists name a variable.
  // Statements are traversed from a queue; these hooks bracket a directive's clauses and
  // region.
  bool dataTraverseStmtPre(clang::Stmt* s) {
    if (auto* d = clang::dyn_cast<clang::OMPExecutableDirective>(s)) {
      facts_.omp_parent[d] = directives_.empty() ? nullptr : directives_.back();
      directives_.push_back(d);
    }
    return true;
  }
  bool dataTraverseStmtPost(clang::Stmt* s) {
    if (clang::isa<clang::OMPExecutableDirective>(s)) directives_.pop_back();
    return true;
  }

  // Replaces the visitor's own (private) clause traversal: the clause's written expressions
  // (its variable list, num_threads, if, chunk sizes...), not the helper expressions Clang
  // builds for code generation. Implicit clauses repeat uses written in the region, which
  // are collected there.
  bool TraverseOMPClause(clang::OMPClause* c) {
    if (!c || c->isImplicit()) return true;
    const clang::OMPClause* outer = clause_;
    std::set<const clang::Expr*> outer_items;
    outer_items.swap(clause_items_);
    clause_ = c;
    for (const clang::Expr* item : omp_list_items(c))
      add_subtree(item, clause_items_);
    bool ok = true;
    for (clang::Stmt* child : c->children())
      ok = ok && TraverseStmt(child);
    clause_ = outer;
    clause_items_.swap(outer_items);
    return ok;
  }

  // The region only: the capture initializers repeat names of the region without their
  // qualifiers (ns::x as x), which would be rewritten twice.
  bool TraverseCapturedStmt(clang::CapturedStmt* s) { return TraverseDecl(s->getCapturedDecl()); }

  bool TraverseOMPThreadPrivateDecl(clang::OMPThreadPrivateDecl* d) {
    return in_omp_declaration(d,
                              [&] { return RecursiveASTVisitor::TraverseOMPThreadPrivateDecl(d); });
  }
  bool TraverseOMPAllocateDecl(clang::OMPAllocateDecl* d) {
    return in_omp_declaration(d, [&] { return RecursiveASTVisitor::TraverseOMPAllocateDecl(d); });
  }

  bool VisitVarDecl(clang::VarDecl* v) {
    if (clang::isa<clang::ParmVarDecl>(v) || !v->hasGlobalStorage()) return true;
    if (clang::isTemplateInstantiation(v->getTemplateSpecializationKind())) return true;
    if (!in_user_file(ctx_.getSourceManager(), v->getLocation())) return true;
    facts_.declarations.push_back(v);
    if (v->isStaticLocal() && !functions_.empty())
      if (auto* f = clang::dyn_cast<clang::FunctionDecl>(outermost_function()))
        facts_.enclosing_function[v] = f;
    return true;
  }

  bool VisitCXXCatchStmt(clang::CXXCatchStmt* s) {
    if (in_user_file(ctx_.getSourceManager(), s->getBeginLoc())) facts_.catches = true;
    return true;
  }

  bool VisitFunctionDecl(clang::FunctionDecl* f) {
    const bool named_main = f->getName() == "mpisim_user_main" || f->isMain();
    if (named_main && f->hasBody() && f->isThisDeclarationADefinition() &&
        in_user_file(ctx_.getSourceManager(), f->getLocation()))
      facts_.user_main = f;
    if ((f->hasAttr<clang::ConstructorAttr>() || f->hasAttr<clang::DestructorAttr>()) &&
        in_user_file(ctx_.getSourceManager(), f->getLocation()))
      facts_.constructors.push_back(f);
    return true;
  }

  bool VisitDeclStmt(clang::DeclStmt* s) {
    if (!in_user_file(ctx_.getSourceManager(), s->getBeginLoc())) return true;
    for (const clang::Decl* d : s->decls())
      if (auto* v = clang::dyn_cast<clang::VarDecl>(d); v && v->isStaticLocal()) {
        facts_.static_local_statements.push_back(s);
        break;
      }
    return true;
  }

  bool VisitUsingDecl(clang::UsingDecl* u) {
    for (const clang::UsingShadowDecl* s : u->shadows())
      if (clang::isa<clang::VarDecl>(s->getTargetDecl())) {
        facts_.usings.push_back(u);
        break;
      }
    return true;
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr* e) {
    if (auto* v = clang::dyn_cast<clang::VarDecl>(e->getDecl()); v && v->hasGlobalStorage())
      add_use(v, e, e->getLocation(), e->getBeginLoc());
    return true;
  }

  bool VisitMemberExpr(clang::MemberExpr* e) {
    if (auto* v = clang::dyn_cast<clang::VarDecl>(e->getMemberDecl())) // static data member
      add_use(v, e, e->getMemberLoc(), e->getMemberLoc());
    return true;
  }

private:
  template <class F> bool in_function(clang::FunctionDecl* f, F&& traverse) {
    functions_.push_back(f);
    const bool ok = traverse();
    functions_.pop_back();
    return ok;
  }

  template <class F> bool in_omp_declaration(const clang::Decl* d, F&& traverse) {
    omp_declaration_ = d;
    const bool ok = traverse();
    omp_declaration_ = nullptr;
    return ok;
  }

  static void add_subtree(const clang::Stmt* s, std::set<const clang::Expr*>& to) {
    if (!s) return;
    if (auto* e = clang::dyn_cast<clang::Expr>(s)) to.insert(e);
    for (const clang::Stmt* child : s->children())
      add_subtree(child, to);
  }

  OmpPlace omp_place(const clang::Expr* e) const {
    OmpPlace p;
    p.declaration = omp_declaration_;
    // While its clauses are traversed, a directive is already the innermost one.
    const std::size_t depth = directives_.size() - (clause_ && !directives_.empty() ? 1 : 0);
    if (depth > 0) p.region = directives_[depth - 1];
    if (clause_ && clause_items_.count(e)) {
      p.clause = clause_;
      p.directive = directives_.back();
    }
    return p;
  }

  const clang::DeclContext* outermost_function() const { return functions_.front(); }

  void add_use(const clang::VarDecl* v, const clang::Expr* e, clang::SourceLocation name,
               clang::SourceLocation begin) {
    if (!in_user_file(ctx_.getSourceManager(), name)) return;
    facts_.uses.push_back(Use{canonical_var(v), e, name, begin, in_init_,
                              functions_.empty() ? nullptr : functions_.back(), unevaluated_ == 0,
                              omp_place(e)});
  }

  clang::ASTContext& ctx_;
  Facts& facts_;
  std::vector<const clang::DeclContext*> functions_;
  const clang::VarDecl* in_init_ = nullptr;
  int unevaluated_ = 0;
  std::vector<const clang::OMPExecutableDirective*> directives_; ///< around the traversal
  const clang::OMPClause* clause_ = nullptr;                     ///< being traversed
  std::set<const clang::Expr*> clause_items_; ///< the expressions of its variable list
  const clang::Decl* omp_declaration_ = nullptr;
};

} // namespace

Facts collect_facts(clang::ASTContext& ctx) {
  Facts facts;
  Collector(ctx, facts).TraverseDecl(ctx.getTranslationUnitDecl());
  return facts;
}

} // namespace privatizer
