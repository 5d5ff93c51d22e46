// mpisim-privatize: rewrites one C or C++ source file (and the user headers it includes) so
// that every simulated rank gets its own copy of the program's globals and statics.
//
//   mpisim-privatize -o DIR source.c -- [compiler options: -I, -D, -std, ...]
//
// The rewritten files land under DIR at their absolute paths (see mirror.hpp). Constructs
// that cannot be privatized are reported as "file:line:col: mpisim-privatize: cannot
// privatize ..." and the exit status is 1; nothing is written then.
#include <clang/AST/ASTConsumer.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>

#include <CLI/CLI.hpp>

#include "constructors.hpp"
#include "diagnostics.hpp"
#include "facts.hpp"
#include "mirror.hpp"
#include "plan.hpp"
#include "rewrite.hpp"

namespace {

class Privatize : public clang::ASTConsumer {
public:
  Privatize(const std::string& out_dir, privatizer::Options options, bool& failed)
      : out_dir_(out_dir), options_(options), failed_(failed) {}

  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) {
      failed_ = true;
      return;
    }
    clang::SourceManager& sm = ctx.getSourceManager();
    privatizer::Diagnostics diag(sm);
    const privatizer::Facts facts = privatizer::collect_facts(ctx);
    const privatizer::Plans plans = privatizer::make_plans(ctx, facts, diag);
    clang::Rewriter rw(sm, ctx.getLangOpts());
    privatizer::Rewritten done = privatizer::apply_plans(ctx, facts, plans, options_, rw, diag);
    privatizer::rewrite_constructors(ctx, facts, rw, done, diag);
    if (diag.errors() > 0 || !privatizer::write_mirror(sm, rw, done, out_dir_)) failed_ = true;
  }

private:
  std::string out_dir_;
  privatizer::Options options_;
  bool& failed_;
};

class Action : public clang::ASTFrontendAction {
public:
  Action(const std::string& out_dir, privatizer::Options options, bool& failed)
      : out_dir_(out_dir), options_(options), failed_(failed) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&,
                                                        llvm::StringRef) override {
    return std::make_unique<Privatize>(out_dir_, options_, failed_);
  }

private:
  std::string out_dir_;
  privatizer::Options options_;
  bool& failed_;
};

class Factory : public clang::tooling::FrontendActionFactory {
public:
  Factory(std::string out_dir, privatizer::Options options, bool& failed)
      : out_dir_(std::move(out_dir)), options_(options), failed_(failed) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<Action>(out_dir_, options_, failed_);
  }

private:
  std::string out_dir_;
  privatizer::Options options_;
  bool& failed_;
};

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"Rewrites a C or C++ source so that each simulated MPI rank has its own globals"};
  std::string out_dir, source;
  std::vector<std::string> compiler_args;
  app.add_option("-o,--out-dir", out_dir, "directory for the rewritten files")->required();
  app.add_option("source", source, "the C or C++ file to rewrite")->required();
  app.add_option("compiler-args", compiler_args, "compiler options after --");
  CLI11_PARSE(app, argc, argv);

  std::vector<std::string> args{"-resource-dir=" MPISIM_CLANG_RESOURCE_DIR, "-Wno-everything",
                                "-ferror-limit=20"};
  args.insert(args.end(), compiler_args.begin(), compiler_args.end());
  clang::tooling::FixedCompilationDatabase db(".", args);
  clang::tooling::ClangTool tool(db, {source});
  privatizer::Options options;
  for (const std::string& a : compiler_args)
    if (a == "-fcommon" || a == "-fno-common") options.common = a == "-fcommon";
  bool failed = false;
  Factory factory(out_dir, options, failed);
  const int status = tool.run(&factory);
  return status != 0 || failed ? 1 : 0;
}
