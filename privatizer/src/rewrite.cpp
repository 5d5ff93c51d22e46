#include "rewrite.hpp"

#include <clang/AST/DeclOpenMP.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <regex>

#include "emit.hpp"
#include "openmp.hpp"
#include "quote.hpp"
#include "words.hpp"

namespace privatizer {
namespace {

using clang::SourceLocation;

class Rewrite {
public:
  Rewrite(clang::ASTContext& ctx, const Facts& facts, const Plans& plans, const Options& options,
          clang::Rewriter& rw, Diagnostics& diag)
      : ctx_(ctx), sm_(ctx.getSourceManager()), lo_(ctx.getLangOpts()), facts_(facts),
        plans_(plans), options_(options), rw_(rw), diag_(diag), cxx_(lo_.CPlusPlus), policy_(lo_) {
    policy_.SuppressUnwrittenScope = true;
  }

  Rewritten run() {
    for (const Use& u : facts_.uses)
      if (u.in_init && plans_.count(canonical_var(u.in_init))) init_uses_[u.in_init].push_back(&u);
    omp_ = plan_openmp(facts_, plans_, diag_);
    place_in_group();
    for (const Use& u : facts_.uses)
      rewrite_use(u);
    rewrite_openmp();
    for (const clang::UsingDecl* d : facts_.usings)
      rewrite_using(d);
    rewrite_groups();
    for (const clang::DeclStmt* s : facts_.static_local_statements)
      rewrite_static_locals(s);
    if (facts_.user_main) return_from_main(facts_.user_main);
    define_group();
    register_runtime_uses();
    return std::move(out_);
  }

private:
  const Plan* plan_of(const clang::VarDecl* v) const { return privatized(plans_, v); }

  // --- the unit's group ------------------------------------------------------------------

  bool defines(const clang::VarDecl* d) const {
    return d->isThisDeclarationADefinition() != clang::VarDecl::DeclarationOnly;
  }

  /// Several units may define it: it needs a slot of its own, shared by name.
  bool mergeable(const Plan& p, const clang::VarDecl* def) const {
    const bool tentative =
        def->isThisDeclarationADefinition() == clang::VarDecl::TentativeDefinition;
    return p.mergeable || (!cxx_ && tentative && options_.common);
  }

  /// Picks the one definition per variable that registers it (C allows several tentative
  /// ones in a unit), and lays the unit's own variables out in its group.
  void place_in_group() {
    for (const clang::VarDecl* d : facts_.declarations) {
      const Plan* p = plan_of(d);
      // A block-scope extern declaration cannot carry the wrapper (it would be local to
      // the function): its uses read through the prototype's type instead.
      const bool local_extern =
          !d->isStaticLocal() && d->getLexicalDeclContext()->isFunctionOrMethod();
      if (p && d == canonical_var(d) && !local_extern && !d->getType()->isIncompleteType() &&
          !d->getType()->isDependentType() &&
          (p->form == Form::Image || p->form == Form::Dynamic || p->form == Form::CLocal))
        wrapped_.insert(d);
      if (!p || !defines(d)) continue;
      if (p->form != Form::Image && p->form != Form::Dynamic && p->form != Form::CLocal) continue;
      const clang::VarDecl*& chosen = registering_[canonical_var(d)];
      if (!chosen || (!chosen->hasInit() && d->hasInit())) chosen = d;
    }
    for (const clang::VarDecl* d : facts_.declarations) {
      auto it = registering_.find(canonical_var(d));
      // A thread-local has a slot of its own: team threads copy the thread-locals alone.
      if (it == registering_.end() || it->second != d || mergeable(*plan_of(d), d) ||
          plan_of(d)->thread_local_)
        continue;
      const clang::QualType t = d->getType();
      if (t->isIncompleteType() || t->isDependentType() || t->isVariableArrayType()) continue;
      const std::size_t size = ctx_.getTypeSizeInChars(t).getQuantity();
      // The variable's own alignment (_Alignas, alignas, aligned attributes), not its type's.
      const std::size_t align = var_align(d);
      group_size_ = (group_size_ + align - 1) / align * align;
      group_at_[canonical_var(d)] = group_size_;
      group_size_ += size;
      if (t->isConstantArrayType() && size >= kRestrictedSize && wrapped_.count(canonical_var(d)))
        restricted_.insert(canonical_var(d));
      group_align_ = std::max(group_align_, align);
    }
    const clang::PresumedLoc main =
        sm_.getPresumedLoc(sm_.getLocForStartOfFile(sm_.getMainFileID()));
    group_ = "__mpisim_group_" + short_hash(main.getFilename());
  }

  std::size_t var_align(const clang::VarDecl* d) const {
    return std::max(ctx_.getTypeAlignInChars(d->getType()).getQuantity(),
                    ctx_.getDeclAlign(d, /*ForAlignof=*/true).getQuantity());
  }

  /// Ends inserted lines: the rest of the original line keeps its number.
  std::string line_mark(SourceLocation at) const {
    const clang::PresumedLoc l = sm_.getPresumedLoc(sm_.getSpellingLoc(at));
    return "\n#line " + std::to_string(l.getLine()) + " " + c_string(l.getFilename()) + "\n";
  }

  /// What of the C++ runtime's per-thread state the unit uses, it says before main, so that the
  /// scheduler switches that state with the ranks: the standard streams' format where it names
  /// one (mpisim_priv_uses_streams), the exceptions being handled where it catches one
  /// (mpisim_priv_uses_exceptions).
  void register_runtime_uses() {
    if (!cxx_) return;
    const auto standard_stream = [](const clang::VarDecl* v) {
      const std::string name = v->getQualifiedNameAsString();
      return name == "std::cout" || name == "std::cerr" || name == "std::clog";
    };
    if (std::any_of(facts_.uses.begin(), facts_.uses.end(),
                    [&](const Use& u) { return standard_stream(u.var); }))
      register_use("streams");
    if (facts_.catches) register_use("exceptions");
  }

  void register_use(const std::string& what) {
    const SourceLocation end = sm_.getLocForEndOfFile(sm_.getMainFileID());
    rw_.InsertTextAfter(end, "\nnamespace { int __mpisim_" + what + " = ::mpisim_priv_uses_" +
                                 what + "(); }\n");
    touch(end);
  }

  /// The group's definition, at the end of the unit (its size is known only then).
  void define_group() {
    if (group_at_.empty()) return;
    const std::string init =
        " = {" + std::to_string(group_size_) + ", " + std::to_string(group_align_) + ", 0};";
    rw_.InsertTextAfter(sm_.getLocForEndOfFile(sm_.getMainFileID()),
                        cxx_ ? "\nnamespace { ::mpisim_priv_group " + group_ + init + " }\n"
                             : "\nstatic mpisim_priv_group " + group_ + init + "\n");
  }

  /// The variable's offset in the segment, as the code of this unit reads it.
  std::string offset_of(const Plan& p, const clang::VarDecl* v, SourceLocation at) {
    auto it = group_at_.find(canonical_var(v));
    if (it == group_at_.end()) {
      need(at, p);
      return off_ref(p);
    }
    const clang::FileID f = sm_.getFileID(sm_.getSpellingLoc(at));
    out_.prologue[f].insert("#ifndef MPISIM_DEFINED_" + group_ + "\n#define MPISIM_DEFINED_" +
                            group_ + "\n" +
                            (cxx_ ? "namespace { extern ::mpisim_priv_group " + group_ + "; }"
                                  : "static mpisim_priv_group " + group_ + ";") +
                            "\n#endif");
    return (cxx_ ? "::" : "") + group_ + ".offset + " + std::to_string(it->second);
  }

  /// The program's main becomes every rank's entry point, also in a unit that does not
  /// include mpi.h; and it returns 0 when control reaches its end, as main does (C99, C++).
  void return_from_main(const clang::FunctionDecl* f) {
    if (f->isMain() && !f->getLocation().isMacroID())
      rw_.ReplaceText(f->getLocation(), 4, "mpisim_user_main");
    const auto* body = clang::dyn_cast<clang::CompoundStmt>(f->getBody());
    if (!body || body->getRBracLoc().isMacroID()) return;
    if (!body->body_empty() && clang::isa<clang::ReturnStmt>(body->body_back())) return;
    rw_.InsertTextBefore(body->getRBracLoc(), "return 0; ");
  }

  // --- text of the source -------------------------------------------------------------

  std::string text(clang::CharSourceRange r) const {
    return clang::Lexer::getSourceText(r, sm_, lo_).str();
  }
  SourceLocation after_token(SourceLocation tok) const {
    return clang::Lexer::getLocForEndOfToken(tok, 0, sm_, lo_);
  }
  std::string where(SourceLocation at) const { return diag_.where(at); }

  /// Replaces [begin, end-of-token end] (spelling locations), once per place.
  bool replace(SourceLocation begin, SourceLocation end, const std::string& with,
               const std::string& what) {
    const SourceLocation b = sm_.getSpellingLoc(begin), e = sm_.getSpellingLoc(end);
    if (sm_.isWrittenInScratchSpace(b) || sm_.isWrittenInScratchSpace(e) ||
        sm_.getFileID(b) != sm_.getFileID(e) || e < b) {
      diag_.cannot(begin, what,
                   "its name is made by the preprocessor (## or a macro split "
                   "across the name); spell the name out");
      return false;
    }
    const auto [it, fresh] = done_.emplace(b.getRawEncoding(), with);
    if (!fresh) {
      if (it->second != with)
        diag_.cannot(begin, what,
                     "a macro body names it where other expansions mean another "
                     "variable; write the macro for one of them");
      return fresh;
    }
    if (rw_.ReplaceText(clang::CharSourceRange::getTokenRange(b, e), with)) {
      diag_.cannot(begin, what, "this place cannot be rewritten");
      return false;
    }
    return true;
  }

  void need(SourceLocation at, const Plan& p) {
    const clang::FileID f = sm_.getFileID(sm_.getSpellingLoc(at));
    if (p.external)
      out_.prologue[f].insert("MPISIM_PRIV_BEGIN_C extern size_t " + p.off + "; MPISIM_PRIV_END_C");
    else
      out_.prologue[f].insert("#ifndef MPISIM_DEFINED_" + p.off + "\n#define MPISIM_DEFINED_" +
                              p.off + "\nstatic size_t " + p.off +
                              " __attribute__((unused));\n#endif");
  }
  void touch(SourceLocation at) { out_.prologue[sm_.getFileID(sm_.getSpellingLoc(at))]; }

  // --- uses ---------------------------------------------------------------------------

  /// The qualifier as written before the name (`ns::`, `S::`), empty without one.
  std::string qualifier(const Use& u) const {
    if (u.begin == u.name) return "";
    const SourceLocation b = sm_.getSpellingLoc(u.begin), n = sm_.getSpellingLoc(u.name);
    return text(clang::CharSourceRange::getCharRange(b, n));
  }

  /// The offset variable by its global name (C++ definitions inside a namespace also declare
  /// it there, which would make unqualified names ambiguous under `using namespace`).
  std::string off_ref(const Plan& p) const { return (cxx_ ? "::" : "") + p.off; }

  /// The expression that reads the current rank's copy, for a use of the variable.
  std::string access(const Plan& p, const clang::VarDecl* v, const std::string& qual,
                     SourceLocation at) {
    if (p.form == Form::Member) return qual + "__mpisim_get_" + p.name + "()";
    if (restricted_.count(canonical_var(v))) return "(" + qual + "__mpisim_rp_" + p.id + "->v)";
    const std::string t = p.thread_local_ ? "T" : "";
    if (wrapped_.count(canonical_var(v)))
      return "MPISIM_PRIV_" + t + "W(struct " + qual + "__mpisim_w_" + p.id + ", " +
             offset_of(p, v, at) + ")";
    return "MPISIM_PRIV" + (t.empty() ? "" : "_" + t) + "(" + qual + p.proto + ", " +
           offset_of(p, v, at) + ")";
  }

  void rewrite_use(const Use& u) {
    const Plan* p = plan_of(u.var);
    if (!p) return;
    if (u.in_init && plans_.count(canonical_var(u.in_init))) return; // with its declaration
    if (omp_.dropped.count(&u)) return;                              // with its clause
    if (auto it = omp_.renamed.find(&u); it != omp_.renamed.end()) {
      replace(u.begin, u.name, it->second, "use of " + p->name);
      return;
    }
    if (p->form == Form::LocalStatic) {
      if (u.function != u.var->getDeclContext())
        diag_.cannot(u.name, "static local " + p->name,
                     "it is used inside a lambda or local class of its function; pass it by "
                     "reference or make it a global");
      return;
    }
    if (sm_.isMacroArgExpansion(u.name))
      diag_.used_in_macro_argument(u.name, u.var->getNameAsString());
    const std::string what = "use of " + p->name;
    if (p->form == Form::Member) {
      if (replace(u.name, u.name, access(*p, u.var, "", u.name), what)) touch(u.name);
      return;
    }
    replace(u.begin, u.name, access(*p, u.var, qualifier(u), u.name), what);
  }

  // --- OpenMP clauses (openmp.hpp) -------------------------------------------------------

  void rewrite_openmp() {
    for (const auto& [c, items] : omp_.dropped_items)
      drop_items(c, items);
    for (const clang::OMPThreadPrivateDecl* d : omp_.threadprivate)
      remove_threadprivate(d);
    for (const auto& [d, c] : omp_.constructs) {
      if (c.default_none)
        replace(clang::cast<clang::OMPDefaultClause>(c.default_none)->getDefaultKindKwLoc(),
                clang::cast<clang::OMPDefaultClause>(c.default_none)->getDefaultKindKwLoc(),
                "shared", "default(none)");
      if (c.opens_block()) open_construct(d, c);
    }
    // Closed innermost first: nested constructs may end at the same place.
    for (auto it = omp_.constructs.rbegin(); it != omp_.constructs.rend(); ++it)
      if (it->second.opens_block()) close_construct(it->first, it->second.locals);
  }

  /// `#pragma omp threadprivate(...)` becomes a comment on its line: the variables' uses
  /// reach the calling thread's copy (MPISIM_PRIV_T).
  void remove_threadprivate(const clang::OMPThreadPrivateDecl* d) {
    const SourceLocation at = d->getLocation();
    const std::string what = "`omp threadprivate` directive";
    if (at.isMacroID()) {
      diag_.cannot(at, what, "it is written by a macro (_Pragma); write the directive out");
      return;
    }
    const clang::FileID f = sm_.getFileID(at);
    const unsigned line = sm_.getSpellingLineNumber(at);
    const SourceLocation begin = sm_.translateLineCol(f, line, 1);
    const SourceLocation next = sm_.translateLineCol(f, line + 1, 1);
    std::string written = text(clang::CharSourceRange::getCharRange(begin, next));
    while (!written.empty() && (written.back() == '\n' || written.back() == '\r'))
      written.pop_back();
    if (written.find('#') == std::string::npos ||
        written.find("threadprivate") == std::string::npos ||
        (!written.empty() && written.back() == '\\')) {
      diag_.cannot(at, what, "it is not written on one line of its own; write it so");
      return;
    }
    rw_.ReplaceText(begin, static_cast<unsigned>(written.size()),
                    "/* omp threadprivate: a copy per rank and thread (mpisim) */");
    touch(at);
  }

  /// Where the associated statement of `d` ends, with its `;`.
  SourceLocation statement_end(const clang::OMPExecutableDirective* d) const {
    const clang::Stmt* s = d->getInnermostCapturedStmt()->getCapturedStmt();
    const SourceLocation e = s->getEndLoc();
    if (e.isMacroID()) return {};
    const SourceLocation semi =
        clang::Lexer::findLocationAfterToken(e, clang::tok::semi, sm_, lo_, false);
    return semi.isValid() ? semi : after_token(e);
  }

  /// The construct's locals, in a block opened on the pragma's line (in front of it: a
  /// pragma starts its line).
  void open_construct(const clang::OMPExecutableDirective* d, const OmpConstruct& c) {
    const SourceLocation at = d->getBeginLoc();
    if (at.isMacroID() || statement_end(d).isInvalid()) {
      diag_.cannot(at,
                   "`omp " + llvm::omp::getOpenMPDirectiveName(d->getDirectiveKind()).str() +
                       "` naming a global in its clauses",
                   "the directive or its statement is written by a macro; write them out");
      return;
    }
    std::string decls;
    for (const OmpLocal& l : c.locals) {
      const std::string a = access(*plan_of(l.var), l.var, qualifier(*l.item), at);
      // Unused when only the threads' private copies are (private, firstprivate).
      decls += "__typeof__(" + a + ") " + l.name + " __attribute__((unused))" +
               (l.init ? " = " + a : "") + "; ";
    }
    for (const Use* u : c.copyins) {
      const std::string a = access(*plan_of(u->var), u->var, qualifier(*u), at);
      decls += "mpisim_priv_copyin(&" + a + ", sizeof(" + a + ")); ";
    }
    const clang::FileID f = sm_.getFileID(at);
    rw_.InsertTextBefore(sm_.translateLineCol(f, sm_.getSpellingLineNumber(at), 1),
                         "{ " + decls + line_mark(at));
    touch(at);
  }

  /// Writes lastprivate and reduction results back to the rank's copy: control leaves an
  /// OpenMP structured block only at its end.
  void close_construct(const clang::OMPExecutableDirective* d,
                       const std::vector<OmpLocal>& locals) {
    const SourceLocation end = statement_end(d);
    if (d->getBeginLoc().isMacroID() || end.isInvalid()) return; // refused when opened
    std::string backs;
    for (const OmpLocal& l : locals)
      if (l.write_back)
        backs += access(*plan_of(l.var), l.var, qualifier(*l.item), d->getBeginLoc()) + " = " +
                 l.name + "; ";
    rw_.InsertTextAfter(end, " " + backs + "}");
  }

  /// Removes the items of a `shared` or `copyin` clause that name privatized globals (the whole
  /// clause when none is left).
  void drop_items(const clang::OMPClause* c, const std::set<const clang::Expr*>& dropped) {
    const std::vector<const clang::Expr*> items = omp_list_items(c);
    for (const clang::Expr* e : items)
      if (e->getBeginLoc().isMacroID() || e->getEndLoc().isMacroID()) {
        diag_.cannot(e->getBeginLoc(), "a clause naming a global",
                     "the clause is written by a macro; write it out");
        return;
      }
    if (dropped.size() == items.size()) {
      rw_.RemoveText(clang::CharSourceRange::getTokenRange(c->getBeginLoc(), c->getEndLoc()));
      return;
    }
    std::size_t last_kept = 0;
    for (std::size_t i = 0; i < items.size(); ++i)
      if (!dropped.count(items[i])) last_kept = i;
    // An item before the last kept one goes with the comma after it; the ones after it go
    // with the comma before them.
    for (std::size_t i = 0; i < last_kept; ++i)
      if (dropped.count(items[i]))
        rw_.RemoveText(clang::CharSourceRange::getCharRange(items[i]->getBeginLoc(),
                                                            items[i + 1]->getBeginLoc()));
    if (last_kept + 1 < items.size())
      rw_.RemoveText(clang::CharSourceRange::getCharRange(
          after_token(items[last_kept]->getEndLoc()), after_token(items.back()->getEndLoc())));
  }

  void rewrite_using(const clang::UsingDecl* d) {
    for (const clang::UsingShadowDecl* s : d->shadows())
      if (auto* v = clang::dyn_cast<clang::VarDecl>(s->getTargetDecl()))
        if (const Plan* p = plan_of(v)) {
          const std::string to = p->form == Form::Member ? "__mpisim_get_" + p->name : p->proto;
          replace(d->getLocation(), d->getLocation(), to, "using-declaration of " + p->name);
          return;
        }
  }

  /// The initializer of `d` as written, from just after its declarator to its end, with the
  /// uses of privatized variables turned into accesses (" = 5", "(1, 2)", "{x, &y}").
  std::string initializer(const clang::VarDecl* d, bool* ok) {
    *ok = true;
    if (!d->hasInit()) return "";
    const SourceLocation b = after_token(declarator_end(d));
    const SourceLocation e = after_token(last_token(d));
    std::string s;
    SourceLocation at = b;
    std::vector<const Use*> uses = init_uses_[d];
    std::sort(uses.begin(), uses.end(), [&](const Use* x, const Use* y) {
      return sm_.isBeforeInTranslationUnit(x->begin, y->begin);
    });
    for (const Use* u : uses) {
      const Plan* p = plan_of(u->var);
      // A C++ static local keeps its name (a reference to the rank's copy, declared before).
      if (!p || p->form == Form::LocalStatic) continue;
      // A use in the declared type (`double b[sizeof a / sizeof a[0]] = {1};`) is not
      // evaluated: the type names the prototype there.
      if (sm_.isBeforeInTranslationUnit(u->begin, b)) continue;
      if (u->name.isMacroID() || u->begin.isMacroID()) {
        diag_.cannot(u->name, "initializer of " + d->getNameAsString(),
                     "a macro in it names the privatized variable " + p->name +
                         "; write the name in the initializer");
        *ok = false;
        return "";
      }
      s += text(clang::CharSourceRange::getCharRange(at, u->begin));
      s += access(*p, u->var, qualifier(*u), d->getLocation());
      at = after_token(u->name);
    }
    s += text(clang::CharSourceRange::getCharRange(at, e));
    return s;
  }

  /// Uses inside the initializer now name the prototypes (Image forms keep constant
  /// initializers: the prototype's bytes are the initial image).
  void rename_init_uses_to_protos(const clang::VarDecl* d) {
    for (const Use* u : init_uses_[d])
      if (const Plan* p = plan_of(u->var))
        if (p->form == Form::Image || p->form == Form::CLocal)
          replace(u->begin, u->name, qualifier(*u) + p->proto, "use of " + p->name);
  }

  // --- declarations at namespace scope and in classes ---------------------------------

  void rewrite_groups() {
    std::vector<std::vector<const clang::VarDecl*>> groups;
    for (const clang::VarDecl* d : facts_.declarations) {
      if (d->isStaticLocal() || !plan_of(d)) continue;
      if (!groups.empty() && groups.back().back()->getBeginLoc() == d->getBeginLoc() &&
          groups.back().back()->getLexicalDeclContext() == d->getLexicalDeclContext())
        groups.back().push_back(d);
      else
        groups.push_back({d});
    }
    for (const auto& g : groups) {
      const clang::VarDecl* first = g.front();
      // Specifiers from macros (alignas of <stdalign.h>, EXTERN) are fine; the name is not.
      if (first->getLocation().isMacroID()) {
        diag_.declared_by_macro(first->getLocation(), plan_of(first)->name);
        continue;
      }
      const Form f = plan_of(first)->form;
      if (f == Form::Member)
        rewrite_members(g);
      else
        rewrite_namespace_group(g);
    }
  }

  SourceLocation group_end(const clang::VarDecl* last) const {
    return clang::Lexer::findLocationAfterToken(last_token(last), clang::tok::semi, sm_, lo_,
                                                false);
  }

  void rewrite_namespace_group(const std::vector<const clang::VarDecl*>& g) {
    const clang::VarDecl* first = g.front();
    const SourceLocation end = group_end(g.back());
    if (end.isInvalid()) {
      diag_.cannot(first->getLocation(), plan_of(first)->name,
                   "the end of its declaration "
                   "was not found");
      return;
    }
    bool dynamic = false;
    for (const clang::VarDecl* d : g)
      dynamic |= plan_of(d) && plan_of(d)->form == Form::Dynamic && defines(d);
    std::string after, wrappers;
    for (const clang::VarDecl* d : g) {
      const Plan* p = plan_of(d);
      if (!p) {
        if (dynamic)
          diag_.cannot(d->getLocation(), d->getNameAsString(),
                       "it shares a declaration with variables constructed per rank; declare "
                       "it separately");
        continue;
      }
      bool ok = true;
      const std::string init = defines(d) ? initializer(d, &ok) : "";
      if (!ok) continue;
      replace(d->getLocation(), d->getLocation(), p->proto, p->name);
      if (!dynamic) rename_init_uses_to_protos(d);
      if (registering_.count(canonical_var(d)) && registering_.at(canonical_var(d)) == d)
        after += record(d, *p, init, dynamic);
      if (d == canonical_var(d) && wrapped_.count(d)) wrappers += wrapper(*p, cxx_);
    }
    if (plan_of(first) && first->getTSCSpec() != clang::TSCS_unspecified &&
        !remove_specifiers(first, {"_Thread_local", "__thread", "thread_local"}))
      diag_.cannot(first->getLocation(), "thread-local " + plan_of(first)->name,
                   "its thread-local specifier comes from a macro; write _Thread_local, "
                   "__thread or thread_local in the declaration");
    if (dynamic) make_declarations_only(g);
    if (!cxx_ && g.front()->isExternallyVisible() &&
        g.front()->isThisDeclarationADefinition() == clang::VarDecl::TentativeDefinition)
      rw_.InsertTextBefore(sm_.getExpansionLoc(first->getBeginLoc()), "__attribute__((weak)) ");
    if (!after.empty() || !wrappers.empty()) {
      rw_.InsertTextAfter(end, wrappers.empty() ? " " + after : wrappers + after + line_mark(end));
      touch(end);
    }
  }

  /// C++ variables built per rank: the declaration left in place only names the type.
  void make_declarations_only(const std::vector<const clang::VarDecl*>& g) {
    const clang::VarDecl* first = g.front();
    // Drop `static` and `inline`: the prototype is an extern declaration, never defined.
    remove_specifiers(first, {"static", "inline"});
    const SourceLocation begin = sm_.getExpansionLoc(first->getBeginLoc());
    if (first->getStorageClass() != clang::SC_Extern) rw_.InsertTextBefore(begin, "extern ");
    for (const clang::VarDecl* d : g) {
      if (!d->hasInit() || !defines(d)) continue;
      rw_.RemoveText(clang::CharSourceRange::getCharRange(after_token(declarator_end(d)),
                                                          after_token(last_token(d))));
    }
  }

  /// Removes each of `words` written as a whole word among the specifiers of `first`'s
  /// declaration; whether any was there.
  bool remove_specifiers(const clang::VarDecl* first, std::initializer_list<const char*> words) {
    const SourceLocation begin = sm_.getExpansionLoc(first->getBeginLoc());
    const std::string specifiers = text(
        clang::CharSourceRange::getCharRange(begin, sm_.getExpansionLoc(first->getLocation())));
    bool found = false;
    for (const std::string_view word : words)
      for (std::size_t at = find_word(specifiers, word); at != std::string_view::npos;
           at = find_word(specifiers, word, at + 1)) {
        rw_.RemoveText(begin.getLocWithOffset(static_cast<int>(at)), word.size());
        found = true;
      }
    return found;
  }

  /// The last token of `d`'s declaration (expansion location). Clang ends a direct
  /// initialization `T x(e)` at the end of `e` when `e` itself makes the object (a scalar, a
  /// C++17 prvalue of T: `std::string s(std::string("a") + 'b')`): its `)` is the next token.
  SourceLocation last_token(const clang::VarDecl* d) const {
    const SourceLocation e = sm_.getExpansionLoc(d->getEndLoc());
    if (d->getInitStyle() != clang::VarDecl::CallInit || !d->getInit()) return e;
    if (auto* c = clang::dyn_cast<clang::CXXConstructExpr>(d->getInit()))
      if (c->getParenOrBraceRange().isValid()) return e; // ends with its `)`
    const auto next = clang::Lexer::findNextToken(e, sm_, lo_);
    return next && next->is(clang::tok::r_paren) ? next->getLocation() : e;
  }

  /// The last token of the declarator of `d` (its name, or the end of `[N]`, `(int)`).
  SourceLocation declarator_end(const clang::VarDecl* d) const {
    SourceLocation e = d->getLocation();
    if (const clang::TypeSourceInfo* ti = d->getTypeSourceInfo()) {
      const SourceLocation t = ti->getTypeLoc().getEndLoc();
      if (t.isValid() && sm_.isBeforeInTranslationUnit(e, t)) e = t;
    }
    return sm_.getExpansionLoc(e);
  }

  std::string flags(const Plan& p, const clang::VarDecl* d) const {
    std::string f = mergeable(p, d) ? "MPISIM_PRIV_MERGEABLE" : "";
    if (p.thread_local_)
      f += f.empty() ? "MPISIM_PRIV_THREAD_LOCAL" : " | MPISIM_PRIV_THREAD_LOCAL";
    return f.empty() ? "0" : f;
  }

  /// The registration of one definition, placed after its declaration.
  std::string record(const clang::VarDecl* d, const Plan& p, const std::string& init,
                     bool dynamic) {
    const std::string n = p.id + "_" + std::to_string(++records_);
    const auto in_group = group_at_.find(canonical_var(d));
    const bool grouped = in_group != group_at_.end();
    std::string s, cell = "0";
    if (restricted_.count(canonical_var(d))) {
      cell = "(void**)&__mpisim_rp_" + p.id;
      s += "static struct __mpisim_w_" + p.id + "* __restrict __mpisim_rp_" + p.id + "; ";
    }
    const std::string type = cxx_ ? "decltype(" + p.proto + ")" : "__typeof__(" + p.proto + ")";
    if (p.external)
      s += "MPISIM_PRIV_BEGIN_C __attribute__((weak)) size_t " + p.off + "; MPISIM_PRIV_END_C ";
    need(d->getLocation(), p);
    // Without an initializer the image is zeros: a fresh segment has them already.
    std::string init_fn = "0", fini_fn = "0",
                image = d->hasInit() ? "(const void*)&" + p.proto : "0";
    // An initializer that names privatized variables is re-evaluated in each rank.
    const bool needs_init = dynamic || init.find("MPISIM_PRIV") != std::string::npos ||
                            init.find("__mpisim_rp_") != std::string::npos;
    if (needs_init) {
      init_fn = "__mpisim_init_" + n;
      if (cxx_)
        s += "static void " + init_fn + "(void* __mpisim_p) { ::new (__mpisim_p) " +
             construct(type, init) + "; } ";
      else
        s += "static void " + init_fn + "(void* __mpisim_p) { " + type + " __mpisim_t" + init +
             "; __builtin_memcpy(__mpisim_p, &__mpisim_t, sizeof __mpisim_t); } ";
    }
    if (dynamic) {
      image = "0";
      if (d->getType().isDestructedType()) {
        fini_fn = "&::mpisim_priv::destroy<" + type + ">";
      }
      if (d->getType()->isIncompleteArrayType())
        diag_.cannot(d->getLocation(), p.name, "give the array its size in the declaration");
    }
    const std::string name = p.external ? c_string(p.link_name) : "0";
    s += std::string(cxx_ ? "static ::mpisim_priv_var " : "static mpisim_priv_var ") +
         "__mpisim_rec_" + n + " = {" + name + ", " + c_string(where(d->getLocation())) +
         ", sizeof(" + type + "), __alignof__(" + p.proto + "), " + image + ", " + init_fn + ", " +
         fini_fn + ", &" + off_ref(p) + ", " + flags(p, d) + ", " +
         (grouped ? "&" + std::string(cxx_ ? "::" : "") + group_ + ", " +
                        std::to_string(in_group->second)
                  : "0, 0") +
         ", " + cell + "}; ";
    if (grouped) {
      // The privatizer laid the group out with Clang's sizes; the compiler must agree.
      const std::string size = std::to_string(ctx_.getTypeSizeInChars(d->getType()).getQuantity());
      s += cxx_ ? "static_assert(sizeof(" + type + ") == " + size + ", \"mpisim: layout\"); "
                : "typedef char __mpisim_size_check_" + n + "[sizeof(" + type + ") == " + size +
                      " ? 1 : -1]; ";
      offset_of(p, d, d->getLocation()); // declares the group in this file
    }
    if (cxx_)
      s += "static int __mpisim_reg_" + n + " = ::mpisim_priv_register(&__mpisim_rec_" + n + "); ";
    else
      s += "__attribute__((constructor)) static void __mpisim_reg_" + n +
           "(void) { mpisim_priv_register(&__mpisim_rec_" + n + "); } ";
    return s;
  }

  // --- C++: static data members and function-local statics ----------------------------

  std::string printed_type(const clang::VarDecl* d, bool* ok) {
    const clang::QualType t = d->getType();
    if (const clang::TagDecl* tag = t->getAsTagDecl();
        tag && !tag->getIdentifier() && !tag->getTypedefNameForAnonDecl()) {
      diag_.cannot(d->getLocation(), d->getNameAsString(),
                   "its type has no name; give the struct or class a name");
      *ok = false;
    }
    return t.getAsString(policy_);
  }

  void rewrite_members(const std::vector<const clang::VarDecl*>& g) {
    const clang::VarDecl* first = g.front();
    std::string s;
    for (const clang::VarDecl* d : g) {
      const Plan* p = plan_of(d);
      bool ok = true;
      const std::string type = printed_type(d, &ok);
      const std::string init = initializer(d, &ok);
      if (!ok) return;
      const std::string ret = " -> ::mpisim_priv::ref<" + type + ">";
      const std::string body = " { " + tag_class("__mpisim_tag", where(d->getLocation())) +
                               "return " + lazy_copy("__mpisim_tag", type, init) + "; }";
      if (!d->isOutOfLine()) {
        s += "static auto __mpisim_get_" + p->name + "()" + ret +
             (defines(d) && d->hasInit() ? body : ";") + " ";
      } else {
        const std::string qual = text(
            clang::CharSourceRange::getCharRange(d->getQualifierLoc().getSourceRange().getBegin(),
                                                 sm_.getSpellingLoc(d->getLocation())));
        // An explicit specialization without an initializer only declares the member (a
        // suite may repeat it in every unit); the unit that defines it defines the accessor.
        s += "auto " + qual + "__mpisim_get_" + p->name + "()" + ret + (defines(d) ? body : ";") +
             " ";
      }
    }
    const SourceLocation begin = sm_.getExpansionLoc(
        first->isOutOfLine() ? first->getInnerLocStart() : first->getBeginLoc());
    const SourceLocation end = group_end(g.back());
    if (end.isInvalid()) {
      diag_.cannot(first->getLocation(), first->getNameAsString(),
                   "the end of its declaration "
                   "was not found");
      return;
    }
    replace_keeping_lines(begin, end, s);
  }

  /// Replaces [begin, end) and keeps the line count, so that #line stays true below.
  void replace_keeping_lines(SourceLocation begin, SourceLocation end, std::string with) {
    const clang::CharSourceRange r = clang::CharSourceRange::getCharRange(begin, end);
    const std::string old = rw_.getRewrittenText(r);
    std::replace(with.begin(), with.end(), '\n', ' ');
    with += std::string(std::count(old.begin(), old.end(), '\n'), '\n');
    rw_.ReplaceText(r, with);
    touch(begin);
  }

  void rewrite_static_locals(const clang::DeclStmt* st) {
    const SourceLocation end = st->getEndLoc();
    // A statement that starts with a macro (alignas) is fine; one a macro wrote is not.
    const SourceLocation begin = sm_.getExpansionLoc(st->getBeginLoc());
    bool names_from_macro = false;
    for (const clang::Decl* x : st->decls())
      names_from_macro |= x->getLocation().isMacroID();
    if (names_from_macro || end.isMacroID()) {
      diag_.declared_by_macro(begin, "static local");
      return;
    }
    const SourceLocation stop = after_token(end);
    if (cxx_) {
      const auto planned = [&](const clang::Decl* x) {
        auto* d = clang::dyn_cast<clang::VarDecl>(x);
        return d && plan_of(d);
      };
      // Constants with constant initializers stay as they are, shared by the ranks.
      if (std::none_of(st->decl_begin(), st->decl_end(), planned)) return;
      std::string s;
      for (const clang::Decl* x : st->decls()) {
        auto* d = clang::dyn_cast<clang::VarDecl>(x);
        if (!d) continue;
        const Plan* p = plan_of(d);
        if (!p) {
          diag_.cannot(d->getLocation(), d->getNameAsString(),
                       "it is a constant the ranks share, declared in one statement with "
                       "static locals each rank has its own of; declare it separately");
          return;
        }
        bool ok = true;
        const std::string type = printed_type(d, &ok);
        const std::string init = initializer(d, &ok);
        if (!ok) return;
        const std::string tag = "__mpisim_tag_" + p->id;
        s += tag_class(tag, where(d->getLocation())) + "auto& " + p->name + " = " +
             lazy_copy(tag, type, init) + "; ";
      }
      replace_keeping_lines(begin, stop, s);
      return;
    }
    // C: the statement moves in front of its function, as file-scope variables.
    std::string records, wrappers;
    const clang::FunctionDecl* fn = nullptr;
    for (const clang::Decl* x : st->decls()) {
      auto* d = clang::dyn_cast<clang::VarDecl>(x);
      if (!d) continue;
      const Plan* p = plan_of(d);
      fn = facts_.enclosing_function.count(d) ? facts_.enclosing_function.at(d) : nullptr;
      if (declared_in_function(d->getType())) {
        diag_.cannot(d->getLocation(), "static local " + d->getNameAsString(),
                     "its type is declared inside the function; declare the type outside");
        return;
      }
      if (const clang::NamedDecl* n = local_name_in_bounds(d)) {
        diag_.cannot(d->getLocation(), "static local " + d->getNameAsString(),
                     "its array size names " + n->getNameAsString() +
                         ", declared inside the function; declare " + n->getNameAsString() +
                         " outside the function");
        return;
      }
      if (!p) continue;
      bool ok = true;
      const std::string init = initializer(d, &ok);
      if (!ok) return;
      replace(d->getLocation(), d->getLocation(), p->proto, p->name);
      rename_init_uses_to_protos(d);
      records += record(d, *p, init, false);
      if (wrapped_.count(canonical_var(d))) wrappers += wrapper(*p, cxx_);
    }
    if (!fn || fn->getBeginLoc().isMacroID()) {
      diag_.cannot(begin, "static local", "its function could not be found in the source");
      return;
    }
    std::string moved = rw_.getRewrittenText(clang::CharSourceRange::getCharRange(begin, stop));
    std::replace(moved.begin(), moved.end(), '\n', ' ');
    const auto [defines, undefines] = macros_defined_before(fn, begin, moved);
    rw_.InsertText(fn->getBeginLoc(),
                   wrappers.empty() && defines.empty()
                       ? moved + " " + records
                       : "\n" + defines + moved + wrappers + records + "\n" + undefines +
                             line_mark(fn->getBeginLoc()),
                   /*InsertAfter=*/true);
    replace_keeping_lines(begin, stop, "");
  }

  /// The #define lines inside `fn` before `stmt` whose macros `moved` names (`#define N 64`
  /// then `static float a[N];`): they go in front of the function with the statement, and are
  /// undefined after it, so that the code between keeps seeing what it saw.
  std::pair<std::string, std::string> macros_defined_before(const clang::FunctionDecl* fn,
                                                            SourceLocation stmt,
                                                            const std::string& moved) const {
    std::string defines, undefines;
    if (!fn->hasBody()) return {defines, undefines};
    const SourceLocation from = sm_.getExpansionLoc(fn->getBody()->getBeginLoc());
    if (sm_.getFileID(from) != sm_.getFileID(stmt) || !sm_.isBeforeInTranslationUnit(from, stmt))
      return {defines, undefines};
    const std::string body = text(clang::CharSourceRange::getCharRange(from, stmt));
    static const std::regex define(R"((^|\n)[ \t]*#[ \t]*define[ \t]+(\w+)((\\\n|[^\n])*))");
    for (auto it = std::sregex_iterator(body.begin(), body.end(), define);
         it != std::sregex_iterator(); ++it) {
      const std::string name = (*it)[2];
      if (!std::regex_search(moved, std::regex("\\b" + name + "\\b"))) continue;
      std::string line = "#define " + name + (*it)[3].str();
      defines += line + "\n";
      undefines += "#undef " + name + "\n";
    }
    return {defines, undefines};
  }

  /// A name an array bound of `d`'s declarator uses that is declared inside the function (an
  /// enumerator, a constant): the declaration moved out of the function would not see it.
  static const clang::NamedDecl* local_name_in_bounds(const clang::VarDecl* d) {
    const clang::TypeSourceInfo* tsi = d->getTypeSourceInfo();
    if (!tsi) return nullptr;
    for (clang::TypeLoc tl = tsi->getTypeLoc(); !tl.isNull(); tl = tl.getNextTypeLoc())
      if (auto array = tl.getAs<clang::ArrayTypeLoc>())
        if (const clang::NamedDecl* n = local_name_in(array.getSizeExpr())) return n;
    return nullptr;
  }

  static const clang::NamedDecl* local_name_in(const clang::Stmt* s) {
    if (!s) return nullptr;
    if (const auto* ref = clang::dyn_cast<clang::DeclRefExpr>(s)) {
      const clang::DeclContext* where = ref->getDecl()->getDeclContext();
      while (clang::isa<clang::EnumDecl>(where)) // an enumerator: where its enum is
        where = where->getParent();
      if (where->isFunctionOrMethod()) return ref->getDecl();
    }
    for (const clang::Stmt* child : s->children())
      if (const clang::NamedDecl* n = local_name_in(child)) return n;
    return nullptr;
  }

  static bool declared_in_function(clang::QualType t) {
    while (!t.isNull()) {
      if (const auto* td = t->getAs<clang::TypedefType>())
        if (td->getDecl()->getDeclContext()->isFunctionOrMethod()) return true;
      if (const clang::TagDecl* tag = t->getAsTagDecl())
        return tag->getDeclContext()->isFunctionOrMethod();
      if (t->isPointerType())
        t = t->getPointeeType();
      else if (t->isArrayType())
        t = clang::QualType(t->getArrayElementTypeNoTypeQual(), 0);
      else
        return false;
    }
    return false;
  }

  clang::ASTContext& ctx_;
  const clang::SourceManager& sm_;
  const clang::LangOptions& lo_;
  const Facts& facts_;
  const Plans& plans_;
  const Options& options_;
  clang::Rewriter& rw_;
  Diagnostics& diag_;
  bool cxx_;
  clang::PrintingPolicy policy_;
  std::map<const clang::VarDecl*, std::vector<const Use*>> init_uses_;
  std::map<unsigned, std::string> done_; ///< replacements by spelling location
  std::map<const clang::VarDecl*, const clang::VarDecl*> registering_; ///< definition per variable
  std::map<const clang::VarDecl*, std::size_t> group_at_;
  std::set<const clang::VarDecl*> wrapped_; ///< accessed through a wrapper struct
  /// Large arrays of the group, accessed through a restrict pointer the runtime keeps
  /// pointing at the current rank's copy: loops over them then optimize as over globals.
  std::set<const clang::VarDecl*> restricted_;
  static constexpr std::size_t kRestrictedSize = 1024;
  std::size_t group_size_ = 0, group_align_ = 1;
  std::string group_;
  int records_ = 0;
  Rewritten out_;
  OmpEdits omp_;
};

} // namespace

Rewritten apply_plans(clang::ASTContext& ctx, const Facts& facts, const Plans& plans,
                      const Options& options, clang::Rewriter& rw, Diagnostics& diag) {
  return Rewrite(ctx, facts, plans, options, rw, diag).run();
}

} // namespace privatizer
