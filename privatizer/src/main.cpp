// mpisim-privatize: rewrites one C or C++ source file (and the user headers it includes) so
// that every simulated rank gets its own copy of the program's globals and statics.
//
//   mpisim-privatize -o DIR source.c -- [compiler options: -I, -D, -std, ...]
//
// The headers of system folders are left alone, except those of --user-system-dir folders
// (the user's -isystem and -idirafter folders, which mpisimcc names).
//
// The rewritten files land under DIR at their absolute paths (see mirror.hpp). Constructs
// that cannot be privatized are reported as "file:line:col: mpisim-privatize: cannot
// privatize ..." and the exit status is 1; nothing is written then.
#include <clang/AST/ASTConsumer.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Syntax/Tokens.h>
#include <clang/Tooling/Tooling.h>

#include <CLI/CLI.hpp>

#include "compound_literals.hpp"
#include "constructors.hpp"
#include "diagnostics.hpp"
#include "facts.hpp"
#include "macro_expansion.hpp"
#include "mirror.hpp"
#include "plan.hpp"
#include "rewrite.hpp"

namespace {

/// One attempt at the unit. With `may_retry`, when its only refusals are declarations written
/// by macros, or a macro makes a string of an argument that names a privatized variable, it
/// writes those invocations out (into `expanded`, by file) for the next attempt instead of
/// reporting them.
struct Attempt {
  std::string out_dir;
  privatizer::Options options;
  bool may_retry = false;
  bool failed = false;
  std::map<std::string, std::string> expanded;
};

class Privatize : public clang::ASTConsumer {
public:
  Privatize(Attempt& attempt, clang::Preprocessor& pp) : attempt_(attempt), pp_(pp), tokens_(pp) {}

  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) {
      attempt_.failed = true;
      return;
    }
    clang::SourceManager& sm = ctx.getSourceManager();
    privatizer::Diagnostics diag(sm);
    // Compound literals with static storage become named statics, privatized by the next
    // attempt.
    std::map<std::string, std::string> named =
        privatizer::name_compound_literals(ctx, attempt_.may_retry, diag);
    if (!named.empty()) {
      attempt_.expanded = std::move(named);
      attempt_.failed = true;
      return;
    }
    const privatizer::Facts facts = privatizer::collect_facts(ctx);
    const privatizer::Plans plans = privatizer::make_plans(ctx, facts, diag);
    clang::Rewriter rw(sm, ctx.getLangOpts());
    privatizer::Rewritten done =
        privatizer::apply_plans(ctx, facts, plans, attempt_.options, rw, diag);
    privatizer::rewrite_constructors(ctx, facts, rw, done, diag);
    const clang::syntax::TokenBuffer buffer = std::move(tokens_).consume();
    const std::vector<clang::SourceLocation> stringizing =
        privatizer::stringizing_invocations(sm, buffer, diag.argument_uses());
    if (attempt_.may_retry &&
        static_cast<std::size_t>(diag.errors()) == diag.macro_sites().size()) {
      std::vector<clang::SourceLocation> sites = diag.macro_sites();
      sites.insert(sites.end(), stringizing.begin(), stringizing.end());
      if (!sites.empty()) attempt_.expanded = privatizer::write_out_invocations(pp_, buffer, sites);
      if (!attempt_.expanded.empty()) {
        attempt_.failed = true; // the next attempt, on the written-out invocations, reports
        return;
      }
    }
    for (const clang::SourceLocation at : stringizing)
      diag.cannot(at, "a use in a macro argument",
                  "the macro also makes a string of the argument (#), which renaming the "
                  "variable would change; write the invocation out");
    diag.flush();
    if (diag.errors() > 0 || !privatizer::write_mirror(sm, rw, done, attempt_.out_dir))
      attempt_.failed = true;
  }

private:
  Attempt& attempt_;
  clang::Preprocessor& pp_;
  clang::syntax::TokenCollector tokens_;
};

class Action : public clang::ASTFrontendAction {
public:
  explicit Action(Attempt& attempt) : attempt_(attempt) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef) override {
    return std::make_unique<Privatize>(attempt_, ci.getPreprocessor());
  }

private:
  Attempt& attempt_;
};

class Factory : public clang::tooling::FrontendActionFactory {
public:
  explicit Factory(Attempt& attempt) : attempt_(attempt) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<Action>(attempt_);
  }

private:
  Attempt& attempt_;
};

/// Runs one attempt on `source`, with `files` read in place of the files of those paths.
bool run(const clang::tooling::CompilationDatabase& db, const std::string& source, Attempt& attempt,
         const std::map<std::string, std::string>& files = {}) {
  clang::tooling::ClangTool tool(db, {source});
  for (const auto& [path, text] : files)
    tool.mapVirtualFile(path, text);
  Factory factory(attempt);
  return tool.run(&factory) == 0 && !attempt.failed;
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"Rewrites a C or C++ source so that each simulated MPI rank has its own globals"};
  std::string out_dir, source;
  std::vector<std::string> compiler_args;
  app.add_option("-o,--out-dir", out_dir, "directory for the rewritten files")->required();
  app.add_option("source", source, "the C or C++ file to rewrite")->required();
  std::vector<std::string> complete;
  app.add_option("--complete-mirror", complete,
                 "an include folder the compiler will search through its mirror (repeatable)")
      ->allow_extra_args(false);
  std::vector<std::string> user_system;
  app.add_option("--user-system-dir", user_system,
                 "a folder of the user's given as a system folder (-isystem, -idirafter) whose "
                 "headers are privatized (repeatable)")
      ->allow_extra_args(false);
  app.add_option("compiler-args", compiler_args, "compiler options after --");
  CLI11_PARSE(app, argc, argv);
  privatizer::set_user_system_dirs(user_system);

  std::vector<std::string> args{"-resource-dir=" MPISIM_CLANG_RESOURCE_DIR, "-Wno-everything",
                                "-ferror-limit=20"};
  args.insert(args.end(), compiler_args.begin(), compiler_args.end());
  clang::tooling::FixedCompilationDatabase db(".", args);
  privatizer::Options options;
  for (const std::string& a : compiler_args)
    if (a == "-fcommon" || a == "-fno-common") options.common = a == "-fcommon";
  // Each attempt may write out the macro invocations that stood in the way, one level deep; a
  // body that calls another such macro takes one more. The last attempt reports what is left.
  constexpr int kAttempts = 6;
  std::map<std::string, std::string> files;
  for (int n = 1;; ++n) {
    Attempt attempt;
    attempt.out_dir = out_dir;
    attempt.options = options;
    attempt.may_retry = n < kAttempts;
    if (run(db, source, attempt, files)) {
      for (const std::string& dir : complete)
        if (!privatizer::complete_mirror(out_dir, dir)) return 1;
      return 0;
    }
    if (attempt.expanded.empty()) return 1;
    for (auto& [path, text] : attempt.expanded)
      files[path] = std::move(text);
  }
}
