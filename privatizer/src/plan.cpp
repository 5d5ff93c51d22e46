#include "plan.hpp"

#include <clang/AST/Mangle.h>

#include <array>
#include <cstdio>
#include <iterator>
#include <set>
#include <string_view>

namespace privatizer {
namespace {

// Globals of the C library and POSIX that programs declare themselves (extern int optind;):
// they belong to the host process, not to a rank.
constexpr std::array<std::string_view, 19> kLibraryGlobals = {"environ",
                                                              "__environ",
                                                              "optind",
                                                              "optarg",
                                                              "opterr",
                                                              "optopt",
                                                              "errno",
                                                              "stdin",
                                                              "stdout",
                                                              "stderr",
                                                              "timezone",
                                                              "daylight",
                                                              "tzname",
                                                              "signgam",
                                                              "sys_nerr",
                                                              "sys_errlist",
                                                              "program_invocation_name",
                                                              "program_invocation_short_name",
                                                              "h_errno"};

bool library_global(const clang::VarDecl* v) {
  if (!v->getDeclContext()->getRedeclContext()->isTranslationUnit()) return false;
  const std::string name = v->getNameAsString();
  for (std::string_view g : kLibraryGlobals)
    if (name == g) return true;
  return false;
}

class Planner {
public:
  Planner(clang::ASTContext& ctx, const Facts& facts, Diagnostics& diag)
      : ctx_(ctx), sm_(ctx.getSourceManager()), facts_(facts), diag_(diag),
        mangle_(ctx.createMangleContext()) {}

  Plans run() {
    std::set<const clang::VarDecl*> seen;
    for (const clang::VarDecl* d : facts_.declarations) {
      const clang::VarDecl* v = canonical_var(d);
      if (seen.insert(v).second) vars_.push_back(v);
    }
    for (const Use& u : facts_.uses)
      if (u.in_init && u.evaluated) init_refs_[canonical_var(u.in_init)].insert(u.var);

    for (const clang::VarDecl* v : vars_)
      if (shared_by_nature(v)) nature_.insert(v);
    std::set<const clang::VarDecl*> privatized;
    for (const clang::VarDecl* v : vars_)
      if (mutable_per_rank(v)) privatized.insert(v);
    // A constant that holds the address of a privatized variable must be per rank too.
    for (bool grew = true; grew;) {
      grew = false;
      for (const clang::VarDecl* v : vars_)
        if (!privatized.count(v) && !nature_.count(v) && refers_to(v, privatized)) {
          privatized.insert(v);
          grew = true;
        }
    }
    Plans plans;
    for (const clang::VarDecl* v : vars_) {
      if (v->getType()->isReferenceType()) {
        if (refers_to(v, privatized))
          diag_.cannot(v->getLocation(), "reference " + v->getNameAsString(),
                       "it is bound to a privatized variable; make it a pointer");
        continue;
      }
      if (!privatized.count(v)) continue;
      if (initializes_flexible_array(v)) {
        diag_.cannot(v->getLocation(), "variable " + v->getNameAsString(),
                     "its initializer gives its struct's flexible array member elements (a GNU "
                     "extension that makes the object larger than its type); give the array a "
                     "size");
        continue;
      }
      if (v->getDescribedVarTemplate() || clang::isa<clang::VarTemplateSpecializationDecl>(v)) {
        diag_.cannot(v->getLocation(), "variable template " + v->getNameAsString(),
                     "variable templates are not supported; use a static member of a class "
                     "template");
        continue;
      }
      plans[v] = plan(v, privatized);
    }
    return plans;
  }

private:
  // Library globals: never per rank, whatever their type.
  bool shared_by_nature(const clang::VarDecl* v) {
    for (const clang::VarDecl* r : v->redecls())
      if (!in_user_file(sm_, r->getLocation())) return true;
    if (library_global(v)) return true;
    // Thread-locals (threadprivate ones too, thread-local under -fopenmp) get a copy per rank
    // and thread; only the forms declared at namespace scope lose their specifier simply.
    if (thread_local_var(v) && (v->isStaticLocal() || v->isStaticDataMember())) {
      const char* kind = threadprivate_var(v) ? "threadprivate " : "thread-local ";
      diag_.cannot(v->getLocation(), kind + v->getNameAsString(),
                   std::string("a ") + kind +
                       (v->isStaticLocal() ? "function-local static" : "static member") +
                       " is not supported; declare it at file scope, where each rank and "
                       "thread gets its own copy");
      return true;
    }
    return v->getType()->isReferenceType();
  }

  /// The pragma marks the declaration it follows, not the earlier ones (a header's extern).
  static bool threadprivate_var(const clang::VarDecl* v) {
    for (const clang::VarDecl* r : v->redecls())
      if (r->hasAttr<clang::OMPThreadPrivateDeclAttr>()) return true;
    return false;
  }
  static bool thread_local_var(const clang::VarDecl* v) {
    return v->getTLSKind() != clang::VarDecl::TLS_None || threadprivate_var(v);
  }

  bool mutable_per_rank(const clang::VarDecl* v) {
    if (nature_.count(v)) return false;
    if (v->isConstexpr()) return false;
    if (!v->getType().isConstant(ctx_)) return true;
    // A const object with a mutable member (a memo, a statistics counter) is written through it.
    if (const auto* record = v->getType()->getBaseElementTypeUnsafe()->getAsCXXRecordDecl())
      if (record->hasDefinition() && record->hasMutableFields()) return true;
    // A constant built by code (const double pi = 4 * atan(1.0); a function's
    // static const std::string name = f();) is built in every process of a real run, and its
    // code may read the rank's globals: each rank builds its own.
    const clang::VarDecl* def = v->getDefinition();
    return ctx_.getLangOpts().CPlusPlus && def && def->hasInit() &&
           !def->getInit()->isConstantInitializer(ctx_, v->getType()->isReferenceType());
  }

  /// Whether `v`'s initializer gives its struct's flexible array member elements: each rank's
  /// copy, laid out by the type's size, would be too small.
  static bool initializes_flexible_array(const clang::VarDecl* v) {
    const clang::VarDecl* def = v->getDefinition();
    const clang::RecordDecl* record = v->getType()->getAsRecordDecl();
    if (!def || !def->hasInit() || !record || !record->hasFlexibleArrayMember()) return false;
    const auto* list = clang::dyn_cast<clang::InitListExpr>(def->getInit()->IgnoreImplicit());
    if (!list) return false;
    const auto fields =
        static_cast<unsigned>(std::distance(record->field_begin(), record->field_end()));
    return list->getNumInits() >= fields;
  }

  bool refers_to(const clang::VarDecl* v, const std::set<const clang::VarDecl*>& privatized) {
    auto it = init_refs_.find(v);
    if (it == init_refs_.end()) return false;
    for (const clang::VarDecl* r : it->second)
      if (privatized.count(r)) return true;
    return false;
  }

  std::string link_name(const clang::VarDecl* v) {
    if (!mangle_->shouldMangleDeclName(v)) return v->getNameAsString();
    std::string s;
    llvm::raw_string_ostream os(s);
    mangle_->mangleName(clang::GlobalDecl(v), os);
    return os.str();
  }

  bool constant_image(const clang::VarDecl* def, const std::set<const clang::VarDecl*>& priv) {
    const clang::QualType t = def->getType();
    if (!t.isTriviallyCopyableType(ctx_) || t.isDestructedType()) return false;
    const clang::Expr* init = def->getInit();
    if (init && !init->isConstantInitializer(ctx_, false)) return false;
    return !refers_to(canonical_var(def), priv);
  }

  Plan plan(const clang::VarDecl* v, const std::set<const clang::VarDecl*>& privatized) {
    Plan p;
    p.name = v->getNameAsString();
    const bool cxx = ctx_.getLangOpts().CPlusPlus;
    if (v->isStaticLocal())
      p.form = cxx ? Form::LocalStatic : Form::CLocal;
    else if (v->isStaticDataMember())
      p.form = Form::Member;
    else if (!cxx)
      p.form = Form::Image;
    else {
      const clang::VarDecl* def = v->getDefinition();
      p.form = !def || constant_image(def, privatized) ? Form::Image : Form::Dynamic;
    }
    p.external = v->isExternallyVisible() && p.form != Form::CLocal;
    if (p.external) p.link_name = link_name(v);
    const clang::PresumedLoc at = sm_.getPresumedLoc(sm_.getSpellingLoc(v->getLocation()));
    p.id = p.external
               ? p.link_name
               : p.name + "_" +
                     short_hash(std::string(at.getFilename()) + ":" + std::to_string(at.getLine()) +
                                ":" + std::to_string(at.getColumn()));
    p.proto = "__mpisim_proto_" + (p.external ? p.name : p.id);
    p.off = "__mpisim_off_" + p.id;
    p.mergeable = v->isInline();
    p.thread_local_ = thread_local_var(v);
    p.threadprivate = threadprivate_var(v);
    return p;
  }

  clang::ASTContext& ctx_;
  const clang::SourceManager& sm_;
  const Facts& facts_;
  Diagnostics& diag_;
  std::unique_ptr<clang::MangleContext> mangle_;
  std::vector<const clang::VarDecl*> vars_;
  std::set<const clang::VarDecl*> nature_; ///< shared whatever their type
  std::map<const clang::VarDecl*, std::set<const clang::VarDecl*>> init_refs_;
};

} // namespace

std::string short_hash(const std::string& s) {
  std::uint32_t h = 2166136261u; // FNV-1a: stable across runs and hosts
  for (unsigned char c : s)
    h = (h ^ c) * 16777619u;
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", h);
  return buf;
}

Plans make_plans(clang::ASTContext& ctx, const Facts& facts, Diagnostics& diag) {
  return Planner(ctx, facts, diag).run();
}

const Plan* privatized(const Plans& plans, const clang::VarDecl* v) {
  auto it = plans.find(canonical_var(v));
  return it == plans.end() || it->second.form == Form::Shared ? nullptr : &it->second;
}

} // namespace privatizer
