#include "constructors.hpp"

#include <clang/AST/Attr.h>

#include <set>

#include "plan.hpp"
#include "quote.hpp"

namespace privatizer {
namespace {

/// The registration of one function, appended to the unit. Functions with external linkage
/// are registered under their name (mergeable), so that a declaration with the attribute in
/// a header seen by several units still runs the function once per rank.
std::string registration(const clang::FunctionDecl* f, bool destructor, bool cxx,
                         const std::string& where, int n) {
  clang::PrintingPolicy policy(f->getASTContext().getLangOpts());
  policy.SuppressUnwrittenScope = true;
  std::string name;
  llvm::raw_string_ostream os(name);
  f->printQualifiedName(os, policy);
  os.flush();
  const std::string id = std::to_string(n);
  const std::string call = (cxx ? "::" : "") + name;
  const std::string fn = "__mpisim_ctor_" + id;
  const std::string key =
      f->isExternallyVisible()
          ? c_string(std::string(destructor ? "destructor " : "constructor ") + name)
          : "0";
  std::string s = "\nstatic void " + fn + "(void* __mpisim_p) { (void)__mpisim_p; " + call +
                  "(); }\nstatic size_t __mpisim_ctor_off_" + id + ";\n";
  s += std::string(cxx ? "static ::mpisim_priv_var " : "static mpisim_priv_var ") +
       "__mpisim_ctor_rec_" + id + " = {" + key + ", " + c_string(where) + ", 0, 1, 0, " +
       (destructor ? "0, " + fn : fn + ", 0") + ", &__mpisim_ctor_off_" + id + ", " +
       (key == "0" ? "0" : "MPISIM_PRIV_MERGEABLE") + ", 0, 0, 0};\n";
  if (cxx)
    s += "static int __mpisim_ctor_reg_" + id + " = ::mpisim_priv_register(&__mpisim_ctor_rec_" +
         id + ");\n";
  else
    s += "__attribute__((constructor)) static void __mpisim_ctor_reg_" + id +
         "(void) { mpisim_priv_register(&__mpisim_ctor_rec_" + id + "); }\n";
  return s;
}

} // namespace

void rewrite_constructors(clang::ASTContext& ctx, const Facts& facts, clang::Rewriter& rw,
                          Rewritten& out, Diagnostics& diag) {
  const clang::SourceManager& sm = ctx.getSourceManager();
  const bool cxx = ctx.getLangOpts().CPlusPlus;
  std::set<unsigned> disarmed; // attribute spellings already rewritten (macros: once)
  std::set<const clang::FunctionDecl*> registered;
  std::string tail;
  int n = 0;
  for (const clang::FunctionDecl* f : facts.constructors) {
    for (const clang::Attr* a : f->attrs()) {
      if (a->isInherited() ||
          !(clang::isa<clang::ConstructorAttr>(a) || clang::isa<clang::DestructorAttr>(a)))
        continue;
      const clang::CharSourceRange r = clang::CharSourceRange::getTokenRange(
          sm.getSpellingLoc(a->getRange().getBegin()), sm.getSpellingLoc(a->getRange().getEnd()));
      if (!in_user_file(sm, r.getBegin()) || !disarmed.insert(r.getBegin().getRawEncoding()).second)
        continue;
      if (rw.ReplaceText(r, "unused")) {
        diag.cannot(a->getLocation(), "constructor function " + f->getNameAsString(),
                    "its attribute cannot be rewritten; call the function from main");
        return;
      }
      out.prologue[sm.getFileID(r.getBegin())];
    }
    const clang::FunctionDecl* c = f->getCanonicalDecl();
    if (!registered.insert(c).second) continue;
    if (clang::isa<clang::CXXMethodDecl>(c) || c->isTemplated() || c->getNumParams() != 0) {
      diag.cannot(f->getLocation(), "constructor function " + f->getNameAsString(),
                  "only functions without parameters outside classes and templates run per "
                  "rank; call it from main");
      continue;
    }
    for (const clang::Attr* a : f->attrs())
      if (clang::isa<clang::ConstructorAttr>(a) || clang::isa<clang::DestructorAttr>(a))
        tail += registration(c, clang::isa<clang::DestructorAttr>(a), cxx,
                             diag.where(f->getLocation()), ++n);
  }
  if (tail.empty()) return;
  out.prologue[sm.getMainFileID()];
  rw.InsertTextAfter(sm.getLocForEndOfFile(sm.getMainFileID()), tail);
}

} // namespace privatizer
