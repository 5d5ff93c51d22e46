// The command line of mpisimcc / mpisimcxx, read the way mpicc reads it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace wrapper {

enum class Mode { Link, Compile, Assemble, Preprocess };

/// One argument that reaches the link step, in its original order (objects, -l, -L, -Wl,),
/// or a source file, which the link step sees as its object.
struct LinkItem {
  std::string arg;
  int source = -1; ///< index into Invocation::sources, or -1
};

struct Invocation {
  bool cxx = false;      ///< mpisimcxx: C++ for every source, as mpicxx does
  bool show = false;     ///< -show: print the commands instead of running them
  bool keep = false;     ///< -keep: keep the rewritten sources
  bool privatize = true; ///< -mpisim-no-privatize turns the rewriter off
  /// -mpisim-shared-ok: objects not built by the wrapper may define data that all ranks share
  bool shared_ok = false;
  Mode mode = Mode::Link;
  std::string output; ///< -o
  std::vector<std::string> sources;
  std::vector<LinkItem> link_items;
  /// Options for the compiler (and, when they make sense there, the linker): -O2, -g, -W...
  std::vector<std::string> compile_flags;
  /// The preprocessor's view (-I, -D, -U, -std, -include, ...), which the rewriter needs too.
  std::vector<std::string> preprocessor_flags;
  std::vector<std::string> include_dirs; ///< from -I and -iquote, to mirror
  /// From -I only: the compiler searches their complete mirrors instead, so that a rewritten
  /// header's #include_next continues past the header's own folder, not into its original.
  std::vector<std::string> search_dirs;
  /// From -isystem and -idirafter: the compiler treats their headers as system headers.
  std::vector<std::string> system_dirs;
  std::vector<std::string> dependency_files; ///< -MF targets to rewrite after compiling
  bool dependencies = false;                 ///< -MD / -MMD
};

/// Parses argv; `name` (argv[0]) selects the language.
Invocation parse(const std::vector<std::string>& args, const std::string& name);

/// True for a file name the compiler treats as a source (C, C++ or preprocessed).
bool is_source(const std::string& path);

/// True for a file name the compiler treats as C++ source.
bool is_cxx_source(const std::string& path);

/// True when one of the flags starts with the prefix (`-std=`).
bool has_option(const std::vector<std::string>& flags, std::string_view prefix);

} // namespace wrapper
