// mpisimcc / mpisimcxx: compile and link MPI programs against mpisim, accepting what
// mpicc / mpicxx accept. Each source goes through mpisim-privatize first (so that every rank
// gets its own globals); the rewritten files live in a temporary directory (-keep keeps it)
// and start with #line, so messages and debug information name the user's files.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "link_inputs.hpp"
#include "wrapper_invocation.hpp"

namespace fs = std::filesystem;
using Command = std::vector<std::string>;

namespace {

std::vector<std::string> split(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;)
    out.push_back(w);
  return out;
}

/// Where mpisim-privatize writes the rewritten copy of `path` under `root`.
std::string mirrored(const std::string& root, const std::string& path) {
  return root + fs::absolute(path).lexically_normal().string();
}

/// The compiler's own system folders: given as -I they stay system folders (the compiler ignores
/// the -I), so they are searched as given, never through a mirror.
bool is_default_system_dir(const std::string& dir) {
  const fs::path p = fs::absolute(dir).lexically_normal();
  const std::string s = p.string();
  return s == "/usr/include" || s == "/usr/include/" || s == "/usr/local/include" ||
         s == "/usr/local/include/" ||
         (p.parent_path() == "/usr/include" && p.filename().string().ends_with("-linux-gnu"));
}

/// Folders of the compiler's own headers, the C and C++ libraries' (/usr/include/c++/12, GCC's
/// and Clang's own include folders), and of an MPI's (a folder that holds an mpi.h: MPICH's,
/// mpisim's own).
bool is_library_system_dir(const std::string& dir) {
  const std::string s = fs::absolute(dir).lexically_normal().string();
  std::error_code ec;
  return is_default_system_dir(dir) || s == MPISIM_INCLUDE_DIR ||
         s.starts_with("/usr/include/c++/") || s.starts_with("/usr/lib/gcc/") ||
         s.starts_with("/usr/lib/llvm-") || fs::exists(fs::path(s) / "mpi.h", ec);
}

/// `dirs` without those `library` says are the system's.
std::vector<std::string> user_dirs(const std::vector<std::string>& dirs,
                                   bool (*library)(const std::string&)) {
  std::vector<std::string> out;
  for (const std::string& d : dirs)
    if (!library(d)) out.push_back(d);
  return out;
}

bool contains(const std::vector<std::string>& dirs, const std::string& d) {
  return std::find(dirs.begin(), dirs.end(), d) != dirs.end();
}

/// The user's folders given as system folders (-isystem, -idirafter: CMake gives the include
/// folders of imported targets so): their headers are privatized like those of -I folders,
/// and the compiler searches them through their mirrors, still as system folders.
std::vector<std::string> user_system_dirs(const wrapper::Invocation& inv) {
  return user_dirs(inv.system_dirs, is_library_system_dir);
}

/// `flags` with the -isystem and -idirafter options of `dirs` naming their mirrors under `root`.
std::vector<std::string> with_mirrored_system_dirs(const std::vector<std::string>& flags,
                                                   const std::vector<std::string>& dirs,
                                                   const std::string& root) {
  const auto replaced = [&](const std::string& d) { return contains(dirs, d); };
  std::vector<std::string> out;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    out.push_back(flags[i]);
    for (const std::string opt : {"-isystem", "-idirafter"}) {
      if (flags[i] == opt && i + 1 < flags.size()) {
        ++i;
        out.push_back(replaced(flags[i]) ? mirrored(root, flags[i]) : flags[i]);
        break;
      }
      if (flags[i].starts_with(opt) && replaced(flags[i].substr(opt.size()))) {
        out.back() = opt + mirrored(root, flags[i].substr(opt.size()));
        break;
      }
    }
  }
  return out;
}

/// The -I folders the compiler searches through their mirrors (the rewriter makes those
/// complete: rewritten files and links to the others).
std::vector<std::string> mirrored_search_dirs(const wrapper::Invocation& inv) {
  return user_dirs(inv.search_dirs, is_default_system_dir);
}

/// `flags` without the -I options of `dirs`.
std::vector<std::string> without_search_dirs(const std::vector<std::string>& flags,
                                             const std::vector<std::string>& dirs) {
  const auto replaced = [&](const std::string& d) { return contains(dirs, d); };
  std::vector<std::string> out;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    if (flags[i] == "-I" && i + 1 < flags.size() && replaced(flags[i + 1])) {
      ++i;
      continue;
    }
    if (flags[i].starts_with("-I") && flags[i].size() > 2 && replaced(flags[i].substr(2))) continue;
    out.push_back(flags[i]);
  }
  return out;
}

std::string with_extension(const std::string& path, const std::string& ext) {
  return fs::path(path).filename().replace_extension(ext).string();
}

struct Plan {
  std::vector<Command> commands;
  /// The link step's arguments that are the user's (with the objects compiled here), checked
  /// before the last command, which is then the link; empty when there is no link.
  std::vector<std::string> link_args;
  std::vector<std::pair<std::string, std::string>>
      object_sources; ///< compiled here: object, source
  /// Dependency files (-MD) whose paths name the mirror, mapped back after compiling.
  std::vector<std::pair<std::string, std::string>> dependency_files; ///< file, mirror root
};

Command compiler(const wrapper::Invocation& inv) {
  Command c{inv.cxx ? MPISIM_CXX_COMPILER : MPISIM_C_COMPILER};
  for (const std::string& f : split(MPISIM_SANITIZE_FLAGS))
    c.push_back(f);
  return c;
}

/// Only questions about the compiler: --version, -dumpversion, -dumpfullversion, -dumpmachine.
bool is_version_query(const wrapper::Invocation& inv) {
  static const std::set<std::string> queries{"--version", "-dumpversion", "-dumpfullversion",
                                             "-dumpmachine"};
  return !inv.compile_flags.empty() &&
         std::all_of(inv.compile_flags.begin(), inv.compile_flags.end(),
                     [](const std::string& f) { return queries.count(f) > 0; });
}

Plan plan(const wrapper::Invocation& inv, const std::string& tmp) {
  Plan p;
  std::vector<std::string> objects(inv.sources.size());
  for (std::size_t i = 0; i < inv.sources.size(); ++i) {
    const std::string& src = inv.sources[i];
    std::string compiled = src;
    Command cc = compiler(inv);
    cc.push_back("-I" MPISIM_INCLUDE_DIR);
    std::string root;
    std::vector<std::string> flags = inv.compile_flags;
    if (inv.privatize) {
      root = tmp + "/src" + std::to_string(i);
      Command pr{MPISIM_PRIVATIZER, "-o", root};
      const std::vector<std::string> searched = mirrored_search_dirs(inv);
      for (const std::string& dir : searched)
        pr.insert(pr.end(), {"--complete-mirror", dir});
      const std::vector<std::string> system = user_system_dirs(inv);
      for (const std::string& dir : system)
        pr.insert(pr.end(), {"--complete-mirror", dir, "--user-system-dir", dir});
      pr.insert(pr.end(), {src, "--"});
      flags = with_mirrored_system_dirs(without_search_dirs(flags, searched), system, root);
      pr.insert(pr.end(), inv.preprocessor_flags.begin(), inv.preprocessor_flags.end());
      pr.push_back("-isystem" MPISIM_INCLUDE_DIR);
      if (inv.cxx) pr.insert(pr.end(), {"-x", "c++"});
      if ((inv.cxx || wrapper::is_cxx_source(src)) &&
          !wrapper::has_option(inv.preprocessor_flags, "-std="))
        pr.push_back(MPISIM_CXX_DEFAULT_STD);
      p.commands.push_back(pr);
      compiled = mirrored(root, src);
      // Rewritten headers shadow the originals found through -I; the mirror of an -I folder
      // replaces it (the folders of -iquote are searched after their mirrors).
      for (const std::string& dir : inv.include_dirs)
        cc.push_back("-I" + mirrored(root, dir));
    }
    cc.insert(cc.end(), flags.begin(), flags.end());
    // A frame larger than a page probes each page it allocates, so that it reaches the guard
    // page below the rank's stack instead of jumping over it into the neighbour's stack.
    cc.push_back("-fstack-clash-protection");
    // A call of an MPI function mpi.h does not declare would bind to another MPI library.
    if (!inv.cxx && (src.ends_with(".c") || src.ends_with(".i")))
      cc.push_back("-Werror=implicit-function-declaration");
    if (inv.mode != wrapper::Mode::Preprocess)
      cc.insert(cc.end(), {"-include", MPISIM_INCLUDE_DIR "/mpisim_wrapper_object.h"});
    std::string out;
    switch (inv.mode) {
    case wrapper::Mode::Link:
      out = tmp + "/obj" + std::to_string(i) + ".o";
      cc.push_back("-c");
      break;
    case wrapper::Mode::Compile:
      out = !inv.output.empty() && inv.sources.size() == 1 ? inv.output : with_extension(src, ".o");
      cc.push_back("-c");
      break;
    case wrapper::Mode::Assemble:
      out = !inv.output.empty() && inv.sources.size() == 1 ? inv.output : with_extension(src, ".s");
      cc.push_back("-S");
      break;
    case wrapper::Mode::Preprocess:
      out = inv.output;
      cc.push_back("-E");
      break;
    }
    cc.push_back(compiled);
    if (!out.empty()) cc.insert(cc.end(), {"-o", out});
    p.commands.push_back(cc);
    objects[i] = out;
    p.object_sources.emplace_back(out, src);
    if (inv.privatize && inv.dependencies) {
      const std::string d = inv.dependency_files.empty()
                                ? fs::path(out).replace_extension(".d").string()
                                : inv.dependency_files.back();
      p.dependency_files.emplace_back(d, root);
    }
  }
  if (inv.mode != wrapper::Mode::Link) return p;

  Command ld = compiler(inv);
  for (const std::string& f : inv.compile_flags)
    if (f.rfind("-M", 0) != 0) ld.push_back(f);
  for (const wrapper::LinkItem& item : inv.link_items)
    p.link_args.push_back(item.source >= 0 ? objects[static_cast<std::size_t>(item.source)]
                                           : item.arg);
  ld.insert(ld.end(), p.link_args.begin(), p.link_args.end());
  if (!inv.output.empty()) ld.insert(ld.end(), {"-o", inv.output});
  // Pulling in the simulator's main makes a main() that was not renamed by mpi.h a loud
  // duplicate-definition error instead of a program that runs without simulation.
  ld.push_back("-Wl,-u,mpisim_runtime_main_anchor");
  ld.push_back(MPISIM_LIB_DIR "/libmpisim_main.a");
  // Whole archive: every MPI function has a weak "not implemented" fallback that the real
  // definition, wherever it is in the archive, must override.
  ld.push_back("-Wl,--whole-archive");
  ld.push_back(MPISIM_LIB_DIR "/libmpisim.a");
  ld.push_back("-Wl,--no-whole-archive");
  // The runtime defines libgomp's entry points, charges the regions and forwards to libgomp's
  // own: keep libgomp linked when the program calls nothing else of it (--as-needed drops it).
  if (std::find(inv.compile_flags.begin(), inv.compile_flags.end(), "-fopenmp") !=
      inv.compile_flags.end())
    ld.insert(ld.end(), {"-Wl,--no-as-needed", "-lgomp", "-Wl,--as-needed"});
  for (const std::string& l : split(MPISIM_LINK_LIBS))
    ld.push_back(l);
  p.commands.push_back(ld);
  return p;
}

int run(const Command& cmd) {
  std::vector<char*> args;
  for (const std::string& a : cmd)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    execvp(args[0], args.data());
    std::fprintf(stderr, "mpisimcc: cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/// Dependency files name the mirrored headers; make must see the user's own.
void unmirror(const std::string& file, const std::string& root) {
  std::ifstream in(file);
  if (!in) return;
  std::stringstream all;
  all << in.rdbuf();
  std::string s = all.str();
  for (std::size_t at = s.find(root); at != std::string::npos; at = s.find(root, at))
    s.erase(at, root.size());
  std::ofstream(file) << s;
}

std::string joined(const Command& c) {
  std::string line;
  for (const std::string& a : c)
    line += (line.empty() ? "" : " ") + a;
  return line;
}

/// Refuses the link (1, after a message per problem) when an input would escape the simulation.
int check_link(const wrapper::Invocation& inv, const Plan& p, const char* argv0) {
  const std::string tool = fs::path(argv0).filename().string();
  std::vector<wrapper::LinkInput> inputs;
  for (const std::string& file : wrapper::user_link_inputs(p.link_args, MPISIM_LIB_DIR)) {
    inputs.push_back({file, file});
    for (const auto& [object, source] : p.object_sources)
      if (object == file) inputs.back().shown = source + " (compiled by " + tool + ")";
  }
  const std::vector<std::string> problems =
      wrapper::check_link_inputs(inputs, {tool, MPISIM_NM, inv.shared_ok});
  for (const std::string& problem : problems)
    std::fprintf(stderr, "%s: %s\n", tool.c_str(), problem.c_str());
  return problems.empty() ? 0 : 1;
}

/// mpisimfort's check of the link: `args` are its link items. Only shared objects share their
/// data there (it loads a copy of the program per rank).
int check_shared_objects(const std::vector<std::string>& args) {
  const bool shared_ok = std::find(args.begin(), args.end(), "-mpisim-shared-ok") != args.end();
  std::vector<wrapper::LinkInput> inputs;
  for (const std::string& file : wrapper::user_link_inputs(args, MPISIM_LIB_DIR))
    inputs.push_back({file, file});
  const std::vector<std::string> problems =
      wrapper::check_link_inputs(inputs, {"mpisimfort", MPISIM_NM, shared_ok, true});
  for (const std::string& problem : problems)
    std::fprintf(stderr, "mpisimfort: %s\n", problem.c_str());
  return problems.empty() ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "-mpisim-check-shared-objects")
    return check_shared_objects(std::vector<std::string>(argv + 2, argv + argc));
  const wrapper::Invocation inv =
      wrapper::parse(std::vector<std::string>(argv + 1, argv + argc), argv[0]);
  if (inv.sources.empty() && inv.link_items.empty() && !inv.show && is_version_query(inv)) {
    // Build scripts record or test the compiler (mpicc --version answers with the compiler's
    // own words): the compiler answers.
    Command c{inv.cxx ? MPISIM_CXX_COMPILER : MPISIM_C_COMPILER};
    c.insert(c.end(), inv.compile_flags.begin(), inv.compile_flags.end());
    return run(c);
  }
  if (inv.sources.empty() && inv.link_items.empty() && !inv.show) {
    std::fprintf(stderr, "usage: %s [compiler options] sources... [-o program] [-show] [-keep]\n",
                 argv[0]);
    return 2;
  }
  if (inv.mode == wrapper::Mode::Link &&
      std::any_of(inv.link_items.begin(), inv.link_items.end(),
                  [](const wrapper::LinkItem& item) { return item.arg == "-shared"; })) {
    // The library would hold a copy of the simulator, and every program linked with it would be
    // refused (or run it twice).
    const std::string tool = fs::path(argv[0]).filename().string();
    std::fprintf(stderr,
                 "%s: -shared: a shared library linked by %s would hold its own copy of the "
                 "simulator; compile the library's sources with %s -c and put the objects in a "
                 "static archive (ar rcs libNAME.a ...; under CMake, BUILD_SHARED_LIBS=OFF)\n",
                 tool.c_str(), tool.c_str(), tool.c_str());
    return 1;
  }
  std::string tmp = (fs::temp_directory_path() / "mpisimcc-XXXXXX").string();
  if (!mkdtemp(tmp.data())) {
    std::fprintf(stderr, "mpisimcc: cannot create a temporary directory: %s\n",
                 std::strerror(errno));
    return 1;
  }
  const Plan p = plan(inv, tmp);
  int status = 0;
  for (std::size_t i = 0; i < p.commands.size(); ++i) {
    const Command& c = p.commands[i];
    if (inv.show) {
      std::puts(joined(c).c_str());
      continue;
    }
    const bool link = i + 1 == p.commands.size() && inv.mode == wrapper::Mode::Link;
    if (link && (status = check_link(inv, p, argv[0])) != 0) break;
    if ((status = run(c)) != 0) break;
  }
  if (status == 0 && !inv.show)
    for (const auto& [file, root] : p.dependency_files)
      unmirror(file, root);
  if (inv.keep && !inv.show)
    std::fprintf(stderr, "mpisimcc: rewritten sources kept in %s\n", tmp.c_str());
  else
    fs::remove_all(tmp);
  return status;
}
