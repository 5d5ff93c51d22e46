#include "link_inputs.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string_view>

namespace wrapper {
namespace fs = std::filesystem;
namespace {

bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

bool under(const std::string& path, const std::string& dir) {
  const std::string p = fs::absolute(path).lexically_normal().string();
  const std::string d = fs::absolute(dir).lexically_normal().string();
  return starts_with(p, d.back() == '/' ? d : d + "/");
}

/// The archive or shared object ld would take for -l`name` from `dirs`, or "" when it would
/// come from the system's directories.
std::string resolve_library(const std::string& name, const std::vector<std::string>& dirs,
                            bool static_only) {
  std::vector<std::string> files;
  if (name.front() == ':') {
    files.push_back(name.substr(1));
  } else {
    if (!static_only) files.push_back("lib" + name + ".so");
    files.push_back("lib" + name + ".a");
  }
  for (const std::string& dir : dirs)
    for (const std::string& f : files)
      if (fs::exists(fs::path(dir) / f)) return (fs::path(dir) / f).string();
  return "";
}

enum class Kind { Object, Archive, SharedObject, Other };

Kind kind_of(const std::string& path) {
  std::array<char, 18> head{};
  std::ifstream in(path, std::ios::binary);
  in.read(head.data(), head.size());
  const std::string_view h(head.data(), static_cast<std::size_t>(in.gcount()));
  if (starts_with(h, "!<arch>\n") || starts_with(h, "!<thin>\n")) return Kind::Archive;
  constexpr std::string_view elf = "\x7f"
                                   "ELF";
  if (h.size() < 18 || !starts_with(h, elf) || h[17] != 0) return Kind::Other; // linker scripts
  if (h[16] == 1) return Kind::Object; // e_type, little endian
  if (h[16] == 3) return Kind::SharedObject;
  return Kind::Other;
}

/// Runs `argv` and returns its standard output; `ok` tells whether it exited with 0.
std::string capture(const std::vector<std::string>& argv, bool& ok) {
  int fds[2];
  ok = false;
  if (pipe(fds) != 0) return "";
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    std::vector<char*> args;
    for (const std::string& a : argv)
      args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  std::array<char, 65536> buf;
  for (ssize_t n; (n = read(fds[0], buf.data(), buf.size())) > 0;)
    out.append(buf.data(), static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return out;
}

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(' ');
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(' ') - b + 1));
}

/// Sections whose contents the program may change (`.data.rel.ro` is read-only once relocated).
bool writable_section(const std::string& section) {
  if (starts_with(section, ".data.rel.ro")) return false;
  for (std::string_view w :
       {".data", ".bss", ".tdata", ".tbss", ".sdata", ".sbss", ".ldata", ".lbss", "*COM*"})
    if (section == w || starts_with(section, std::string(w) + ".")) return true;
  return false;
}

/// What one object (or archive member) holds, from `nm --format=sysv`.
struct ObjectSymbols {
  std::string name; ///< "a.o" or "libx.a(a.o)", as ld names them
  bool built_by_wrapper = false;
  std::vector<std::string> writable;
  std::vector<std::string> mpi_references;
};

std::vector<ObjectSymbols> read_symbols(const std::string& listing) {
  // An MPI name: another MPI's mpi.h leaves these undefined; mpisim's binds them to mpisim_*.
  static const std::regex mpi_name("P?MPIX?_[A-Za-z].*");
  std::vector<ObjectSymbols> objects;
  std::size_t at = 0;
  while (at < listing.size()) {
    std::size_t end = listing.find('\n', at);
    if (end == std::string::npos) end = listing.size();
    const std::string_view line(listing.data() + at, end - at);
    at = end + 1;
    if (starts_with(line, "Symbols from ") && line.back() == ':') {
      std::string name(line.substr(13, line.size() - 14));
      if (name.back() == ']') { // nm: "lib.a[m.o]", ld: "lib.a(m.o)"
        name[name.rfind('[')] = '(';
        name.back() = ')';
      }
      objects.emplace_back().name = name;
      continue;
    }
    if (objects.empty() || std::count(line.begin(), line.end(), '|') != 6) continue;
    std::vector<std::string> f;
    for (std::size_t b = 0, e; b <= line.size(); b = e + 1) {
      e = std::min(line.find('|', b), line.size());
      f.push_back(trim(line.substr(b, e - b)));
    }
    const std::string &symbol = f[0], &cls = f[2], &section = f[6];
    ObjectSymbols& o = objects.back();
    const bool undefined = cls == "U" || cls == "w" || section == "*UND*";
    if (undefined && std::regex_match(symbol, mpi_name)) o.mpi_references.push_back(symbol);
    if (undefined) continue;
    if (symbol == "mpisim_wrapper_object") o.built_by_wrapper = true;
    // libstdc++'s <iostream> defines an empty initializer object in every unit before GCC 13.
    else if (writable_section(section) && symbol != "_ZStL8__ioinit")
      o.writable.push_back(symbol);
  }
  return objects;
}

/// The C runtime's own writable data in every shared object (crtstuff): no program state.
bool runtime_boilerplate(const std::string& symbol) {
  static const std::regex completed(R"(completed\.\d+)");
  return symbol == "__dso_handle" || symbol == "__TMC_END__" || std::regex_match(symbol, completed);
}

/// A shared object of the system's (a Debian package's): its state per process is its own
/// business, as with the C library.
bool system_library(const std::string& path) {
  return under(path, "/usr") || under(path, "/lib") || under(path, "/lib64");
}

std::string listed(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  constexpr std::size_t kShown = 5;
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i)
    out += (i ? ", " : "") + names[i];
  if (names.size() > kShown) out += ", ... (" + std::to_string(names.size()) + " in all)";
  return out;
}

} // namespace

std::vector<std::string> user_link_inputs(const std::vector<std::string>& link_args,
                                          const std::string& own_dir) {
  std::vector<std::string> dirs;
  bool static_only = false;
  for (std::size_t i = 0; i < link_args.size(); ++i) {
    const std::string& a = link_args[i];
    if (a == "-L" && i + 1 < link_args.size())
      dirs.push_back(link_args[++i]);
    else if (starts_with(a, "-L"))
      dirs.push_back(a.substr(2));
    static_only |= a == "-static";
  }
  std::vector<std::string> files;
  for (std::size_t i = 0; i < link_args.size(); ++i) {
    const std::string& a = link_args[i];
    std::string file;
    if ((a == "-L" || a == "-Xlinker") && i + 1 < link_args.size()) {
      ++i;
    } else if (a == "-l" && i + 1 < link_args.size()) {
      file = resolve_library(link_args[++i], dirs, static_only);
    } else if (starts_with(a, "-l") && a.size() > 2) {
      file = resolve_library(a.substr(2), dirs, static_only);
    } else if (!a.empty() && a[0] != '-') {
      file = a;
    }
    if (!file.empty() && !under(file, own_dir)) files.push_back(file);
  }
  return files;
}

std::vector<std::string> check_link_inputs(const std::vector<LinkInput>& files,
                                           const LinkCheck& how) {
  std::vector<std::string> problems;
  for (const auto& [file, shown] : files) {
    const Kind kind = kind_of(file);
    if (kind == Kind::Other) continue;
    if (how.shared_objects_only && kind != Kind::SharedObject) continue;
    // A shared object's full symbol table names its static data too; a stripped one has only
    // its dynamic symbols, which are the ones its MPI calls bind to.
    bool ok = false;
    std::string listing = capture({how.nm, "--format=sysv", file}, ok);
    if (kind == Kind::SharedObject && (!ok || listing.find('|') == std::string::npos))
      listing = capture({how.nm, "--dynamic", "--format=sysv", file}, ok);
    if (!ok) {
      problems.push_back("cannot read the symbols of " + file + " with " + how.nm +
                         "; link it as a shared library or rebuild it with " + how.tool);
      continue;
    }
    for (ObjectSymbols& o : read_symbols(listing)) {
      if (o.name == file) o.name = shown;
      if (!o.mpi_references.empty() && o.built_by_wrapper)
        problems.push_back(o.name + " calls " + listed(o.mpi_references) +
                           ", which mpisim's mpi.h does not declare (mpisim provides MPI-3.1: "
                           "docs/mpi-coverage.md); a declaration of one's own would call "
                           "another MPI library, not the simulator");
      else if (!o.mpi_references.empty())
        problems.push_back(o.name + " was not built by " + how.tool + " and calls " +
                           listed(o.mpi_references) +
                           " of another MPI (compiled with its mpi.h, e.g. by MPICH's mpicc): "
                           "those calls would bypass the simulator; rebuild it with " +
                           how.tool);
      if (kind == Kind::SharedObject) {
        std::erase_if(o.writable, runtime_boilerplate);
        if (!o.writable.empty() && !how.shared_ok && !system_library(file))
          problems.push_back(
              o.name + " defines writable data (" + listed(o.writable) +
              "), which every simulated rank of a host process would share: a shared library is "
              "loaded once per host process, whoever built it and whichever wrapper links it. Link "
              "its sources or a static archive of them instead (built with mpisimcc, or with "
              "mpisimfort, which loads a copy of the program per rank), or link with "
              "-mpisim-shared-ok if sharing is intended (docs/privatization.md)");
      } else if (!o.writable.empty() && !o.built_by_wrapper && !how.shared_ok) {
        problems.push_back(
            o.name + " was not built by " + how.tool + " and defines writable data (" +
            listed(o.writable) +
            "), which every simulated rank of a host process would share; rebuild it with " +
            how.tool +
            ", link with -mpisim-shared-ok if sharing is intended, or build the "
            "program with mpisimfort, which loads a copy of it per rank "
            "(docs/privatization.md)");
      }
    }
  }
  return problems;
}

} // namespace wrapper
